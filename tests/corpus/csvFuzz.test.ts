/**
 * Fuzz of the CSV engine: 2,000 mutated CSV files (random bytes, quotes, separators, line breaks, truncated and
 * duplicated lines, huge fields, a BOM) built from the corpus CSVs with their configurations and references, and
 * from the engine's own test files when the corpus is absent. None may throw; every report is well formed, and
 * the same file cut in random chunks gives the same report. Seeded, so a failure replays.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApplicationModel } from '../../src/domain/configuration';
import { validateConfiguration } from '../../src/domain/configuration';
import { CSV_ERROR_CODES, createCsvValidator, type CsvReport, type StoredRow } from '../../src/domain/csv';
import { PROPERTIES_CSV, ZONES_CSV, references, testModel } from '../../src/domain/csv/testKit';
import { runCsv } from './csv';
import { loadCorpus } from './manifest';
import { seededRandom } from '../seededRandom';

const RUNS = 2000;

interface Seed {
  name: string;
  model: ApplicationModel;
  dataName: string;
  text: string;
  references: Map<string, StoredRow[]>;
}

function seeds(): Seed[] {
  const list: Seed[] = [];
  const own = new Map(Object.entries(references()));
  list.push({ name: 'zones', model: testModel(), dataName: 'zones', text: ZONES_CSV, references: own });
  list.push({ name: 'properties', model: testModel(), dataName: 'properties', text: PROPERTIES_CSV, references: own });
  list.push({
    name: 'stations',
    model: testModel(),
    dataName: 'stations',
    text: 'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph\nLac Bleu;S1;01/02/2003;12,5;3;true;AB123;"a, b";Nord,Sud;"x ""y""";7\nSud;S2;;;;;;;;;\n',
    references: own,
  });
  list.push({
    name: 'readings',
    model: testModel(),
    dataName: 'readings',
    text: 'campagne;C1\n\nstation;day;level;quality;T_10;Q_10\nunits;;cm\nS1;01/03/2024;;good;12.5;ok\nS2;02/03/2024;3;bad;;\n',
    references: own,
  });
  const corpus = loadCorpus();
  if (!corpus) return list;
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    const models = definition.configs
      .filter((config) => config.expected === 'valid')
      .map((config) => validateConfiguration(corpus.read(path.join(application, config.file)), config.file))
      .flatMap((result) => (result.ok ? [result.value] : []));
    const known = new Map<string, StoredRow[]>();
    for (const load of definition.load_order ?? []) {
      const model = models.find((candidate) => candidate.data.some((entry) => entry.name === load.data));
      if (!model) continue;
      const text = new TextDecoder().decode(corpus.read(path.join(application, load.file)));
      list.push({ name: `${application}/${load.file}`, model, dataName: load.data, text, references: new Map(known) });
      const { rows } = runCsv(model, load.data, text, load.file, known);
      known.set(
        load.data,
        rows.map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values })),
      );
    }
  }
  return list;
}

const PIECES = [
  ';',
  ',',
  '"',
  '""',
  '\n',
  '\r\n',
  '\r',
  '\uFEFF',
  '\u0000',
  'é',
  '日',
  '\t',
  ' ',
  '-',
  '01/01/2000',
  'NULL_KEY',
  '__',
  '.',
  'x'.repeat(300),
];

function mutate(text: string, next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  let result = text;
  const edits = 1 + Math.floor(next() * 6);
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(next() * (result.length + 1));
    switch (Math.floor(next() * 9)) {
      case 0: // a random character
        result = result.slice(0, at) + String.fromCharCode(Math.floor(next() * 0x3000)) + result.slice(at + 1);
        break;
      case 1: // a piece that means something to CSV readers
        result = result.slice(0, at) + pick(PIECES) + result.slice(at);
        break;
      case 2: // a character removed
        result = result.slice(0, at) + result.slice(at + 1);
        break;
      case 3: // truncated
        result = result.slice(0, at);
        break;
      case 4: {
        // a line duplicated
        const lines = result.split('\n');
        const line = Math.floor(next() * lines.length);
        lines.splice(line, 0, lines[line]);
        result = lines.join('\n');
        break;
      }
      case 5: {
        // a line cut in the middle
        const lines = result.split('\n');
        const line = Math.floor(next() * lines.length);
        lines[line] = lines[line].slice(0, Math.floor(next() * (lines[line].length + 1)));
        result = lines.join('\n');
        break;
      }
      case 6: // a huge field
        result = `${result.slice(0, at)}${next() < 0.5 ? '"' : ''}${'z'.repeat(50_000 + Math.floor(next() * 150_000))}${result.slice(at)}`;
        break;
      case 7: // quotes everywhere
        result = result.replaceAll(';', next() < 0.5 ? '";"' : ';"');
        break;
      case 8: // separators everywhere
        result = result.replaceAll(next() < 0.5 ? ' ' : ',', ';');
        break;
    }
  }
  return result;
}

function checkReport(report: CsvReport): void {
  expect(report.errorCount).toBeGreaterThanOrEqual(report.errors.length);
  expect(report.truncated).toBe(report.errorCount > report.errors.length);
  for (const error of report.errors) {
    expect(Number.isInteger(error.lineNumber)).toBe(true);
    expect(CSV_ERROR_CODES as readonly string[]).toContain(error.code);
    expect(typeof error.params).toBe('object');
  }
  // Reports cross worker and network boundaries as JSON.
  expect(() => JSON.stringify(report)).not.toThrow();
}

function inChunks(seed: Seed, text: string, next: () => number): CsvReport {
  const validator = createCsvValidator({
    model: seed.model,
    dataName: seed.dataName,
    fileName: 'fuzz.csv',
    maxErrors: 200,
    references: { rows: (name) => seed.references.get(name) ?? [] },
  });
  let start = 0;
  while (start < text.length) {
    const size = 1 + Math.floor(next() * 200);
    validator.push(text.slice(start, start + size));
    validator.takeRows();
    start += size;
  }
  return validator.finish();
}

describe('CSV fuzz', () => {
  const all = seeds();

  it(`never throws on ${RUNS} mutated files and gives the same report in any chunks`, () => {
    const next = seededRandom(20261121);
    let withErrors = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const seed = all[run % all.length];
      const text = mutate(seed.text, next);
      let whole: CsvReport | undefined;
      try {
        const validator = createCsvValidator({
          model: seed.model,
          dataName: seed.dataName,
          fileName: 'fuzz.csv',
          maxErrors: 200,
          references: { rows: (name) => seed.references.get(name) ?? [] },
        });
        validator.push(text);
        validator.takeRows();
        whole = validator.finish();
        checkReport(whole);
        if (text.length < 20_000) expect(JSON.stringify(inChunks(seed, text, next))).toBe(JSON.stringify(whole));
      } catch (error) {
        throw new Error(
          `run ${run} (${seed.name}) failed on ${JSON.stringify(text.slice(0, 2000))}: ${String((error as Error).stack ?? error)}`,
          { cause: error },
        );
      }
      if (whole.errorCount > 0) withErrors += 1;
    }
    // The mutations do reach the checks (most files end with errors, some stay valid).
    expect(withErrors).toBeGreaterThan(RUNS / 2);
  }, 240_000);
});
