/**
 * The CSV section of the corpus suite: every CSV of the manifest's load orders validated in order, each file's rows
 * becoming the reference rows of the later ones, against what the manifest states (stored line counts, computed
 * values, expected upload errors of the mutation cases). Each check gives one row; `npm run corpus` prints them and
 * the vitest suite asserts them.
 *
 * Which configuration reads a file: among the application's valid configurations that declare the file's entry,
 * those in the file's folder first, the first one whose header mapping accepts the unmodified file (recursivite's
 * condition_prelevements and parametres_mesures files are read by `recusivite-strict.yaml`, as in the original's
 * fixtures). Where the manifest says a file needs references that have no CSV in the corpus, hand-made reference
 * rows (below) stand for them. Terrain's own cases (`terrainUploadCases.ts`) run on the files they name, at the same
 * point of the load order.
 */
import path from 'node:path';
import type { ApplicationModel, ConfigurationResult } from '../../src/domain/configuration';
import { createCsvValidator, type CsvError, type CsvReport, type CsvRow, type StoredRow } from '../../src/domain/csv';
import type { CheckRow } from './configurations';
import { applyCsvEdit, csvEditFor } from './csvEdits';
import type { Corpus, ManifestLoad } from './manifest';
import { TERRAIN_UPLOAD_CASES, type ConfigurationEdit, type TerrainUploadCase } from './terrainUploadCases';

export type ValidateConfiguration = (bytes: Uint8Array, fileName: string) => ConfigurationResult;

const decoder = new TextDecoder();

/** Rows the corpus lacks (manifest `missing_in_repository`), written for these checks: not copies of corpus files. */
export const HAND_MADE_REFERENCES: Record<string, Record<string, string>> = {
  doc_meteo: {
    tr_sites_sit: 'nom;Date de création;region\nOs1;01/01/2000;FR-CVL\nOs2;01/01/2000;FR-CVL\n',
    tr_unites_uni:
      'nom;nom_fr;nom_en;code\nprecipitation;précipitation;precipitation;mm\ntemperature;température;temperature;°C\n',
  },
};

interface Outcome {
  rows: CsvRow[];
  report: CsvReport;
}

export function runCsv(
  model: ApplicationModel,
  dataName: string,
  text: string,
  fileName: string,
  known: Map<string, StoredRow[]>,
  chunkSize = 0,
): Outcome {
  const validator = createCsvValidator({
    model,
    dataName,
    fileName,
    references: { rows: (name) => known.get(name) ?? [] },
  });
  const rows: CsvRow[] = [];
  if (chunkSize > 0) {
    for (let start = 0; start < text.length; start += chunkSize) {
      validator.push(text.slice(start, start + chunkSize));
      rows.push(...validator.takeRows());
    }
  } else validator.push(text);
  rows.push(...validator.takeRows());
  const report = validator.finish();
  rows.push(...validator.takeRows());
  return { rows, report };
}

function summarize({ rows, report }: Outcome): string {
  if (report.errorCount === 0) return `valid, ${rows.length} rows`;
  const counts = new Map<string, number>();
  for (const error of report.errors) counts.set(error.code, (counts.get(error.code) ?? 0) + 1);
  const first = report.errors[0];
  return `${report.errorCount} errors (${[...counts].map(([code, count]) => (count > 1 ? `${code}×${count}` : code)).join(', ')}); first: line ${first.lineNumber} ${first.code} ${JSON.stringify(first.params).slice(0, 200)}`;
}

const HEADER_CODES = new Set([
  'emptyHeader',
  'duplicatedHeaders',
  'invalidHeaders',
  'missingMandatoryColumns',
  'unexpectedHeaderColumn',
  'headerColumnPatternNotMatching',
  'missingHeaderLine',
]);

interface Loaded {
  models: Array<{ file: string; model: ApplicationModel }>;
}

function validModels(corpus: Corpus, application: string, validate: ValidateConfiguration): Loaded {
  const models: Loaded['models'] = [];
  for (const config of corpus.manifest.applications[application].configs) {
    if (config.expected !== 'valid') continue;
    const result = validate(corpus.read(path.join(application, config.file)), config.file);
    if (result.ok) models.push({ file: config.file, model: result.value });
  }
  return { models };
}

/** The configuration that reads a file (see the module comment). */
function modelFor(
  loaded: Loaded,
  load: ManifestLoad,
  text: string,
  known: Map<string, StoredRow[]>,
): ApplicationModel | undefined {
  const inFolder = (file: string) => {
    const folder = path.posix.dirname(file);
    return folder !== '.' && load.file.startsWith(`${folder}/`) ? 0 : 1;
  };
  const candidates = loaded.models
    .filter(({ model }) => model.data.some((entry) => entry.name === load.data))
    .sort((a, b) => inFolder(a.file) - inFolder(b.file));
  for (const candidate of candidates) {
    const { report } = runCsv(candidate.model, load.data, text, load.file, known);
    if (!report.errors.some((error) => HEADER_CODES.has(error.code))) return candidate.model;
  }
  return candidates[0]?.model;
}

function storedRows(rows: readonly CsvRow[]): StoredRow[] {
  return rows.map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values }));
}

export function checkCsvUploads(corpus: Corpus, validate: ValidateConfiguration): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    const loads = definition.load_order ?? [];
    if (loads.length === 0) continue;
    const loaded = validModels(corpus, application, validate);
    const known = new Map<string, StoredRow[]>();
    for (const [position, load] of loads.entries()) {
      const text = decoder.decode(corpus.read(path.join(application, load.file)));
      addHandMadeReferences(application, load.data, loaded, known);
      preloadLaterReferences(corpus, application, loads.slice(position + 1), load, loaded, known);
      const model = modelFor(loaded, load, text, known);
      const name = `${application}/${load.file} → ${load.data}`;
      if (!model) {
        rows.push({
          section: 'csv uploads',
          name,
          expected: 'a valid configuration declaring the entry',
          obtained: 'none',
          ok: false,
        });
        continue;
      }
      const outcome = runCsv(model, load.data, text, load.file, known);
      rows.push(...checkLoad(name, load, outcome));
      rows.push(...checkMutations(name, load, text, model, known));
      const cases = TERRAIN_UPLOAD_CASES[application]?.[load.file] ?? [];
      const edit = (configuration: ConfigurationEdit) => editedModel(corpus, application, configuration, validate);
      rows.push(...checkTerrainCases(name, cases, load, text, model, known, edit));
      // Later files refer to these rows (an upload adds to and updates what is stored).
      const previous = known.get(load.data) ?? [];
      const byKey = new Map(previous.map((row) => [row.naturalKey, row]));
      for (const row of storedRows(outcome.rows)) byKey.set(row.naturalKey, row);
      known.set(load.data, [...byKey.values()]);
    }
  }
  return rows;
}

/**
 * References listed after a file that needs them (doc_recursivity: `nk_on_unique/tr_sites_sit.csv` serves the
 * other variants, inferred by the manifest) are read first, as the manifest's rule "references before what refers to
 * them" asks.
 */
function preloadLaterReferences(
  corpus: Corpus,
  application: string,
  later: readonly ManifestLoad[],
  load: ManifestLoad,
  loaded: Loaded,
  known: Map<string, StoredRow[]>,
): void {
  const entry = loaded.models.flatMap(({ model }) => model.data).find((item) => item.name === load.data);
  for (const dependency of entry?.dependsOn ?? []) {
    if (known.has(dependency)) continue;
    const source = later.find((item) => item.data === dependency);
    if (!source) continue;
    const text = decoder.decode(corpus.read(path.join(application, source.file)));
    const model = modelFor(loaded, source, text, known);
    if (model) known.set(dependency, storedRows(runCsv(model, dependency, text, source.file, known).rows));
  }
}

/** The hand-made rows of the references an entry needs, made once their own references are loaded. */
function addHandMadeReferences(
  application: string,
  dataName: string,
  loaded: Loaded,
  known: Map<string, StoredRow[]>,
): void {
  const entry = loaded.models.flatMap(({ model }) => model.data).find((item) => item.name === dataName);
  for (const [name, text] of Object.entries(HAND_MADE_REFERENCES[application] ?? {})) {
    if (known.has(name) || !entry?.dependsOn.includes(name)) continue;
    const model = loaded.models.find(({ model: candidate }) =>
      candidate.data.some((item) => item.name === name),
    )?.model;
    if (model) known.set(name, storedRows(runCsv(model, name, text, `${name}.csv`, known).rows));
  }
}

/**
 * Files whose mapping the manifest only infers and that the configuration cannot read: the expected header errors,
 * and why.
 */
export const HEADER_MISMATCHES: Record<string, { codes: string[]; why: string }> = {
  'pattern/suivi_des_lacs_leman_conditions_prelevements_01-01-2020_31-12-2020.csv': {
    codes: ['invalidHeaders', 'missingMandatoryColumns'],
    why: "pattern.yaml's condition_prelevements reads the headers date_day, date_time… (only recusivite-strict.yaml has this file's headers); the manifest's mapping is inferred",
  },
};

function checkLoad(name: string, load: ManifestLoad, outcome: Outcome): CheckRow[] {
  const rows: CheckRow[] = [];
  const obtained = summarize(outcome);
  const expected = load.expected ?? {};
  const stored = (expected as { stored_lines?: number }).stored_lines;
  if (stored !== undefined) {
    rows.push({
      section: 'csv uploads',
      name,
      expected: `valid, ${stored} rows (manifest)`,
      obtained,
      ok: outcome.report.errorCount === 0 && outcome.rows.length === stored,
    });
  } else {
    const mismatch = HEADER_MISMATCHES[`${name.split(' → ')[0]}`];
    if (mismatch) {
      const codes = [...new Set(outcome.report.errors.map((error) => error.code))].sort();
      rows.push({
        section: 'csv uploads',
        name,
        expected: `${mismatch.codes.join(', ')} (${mismatch.why})`,
        obtained,
        ok: JSON.stringify(codes) === JSON.stringify([...mismatch.codes].sort()),
      });
    } else {
      rows.push({
        section: 'csv uploads',
        name,
        expected: 'valid (inferred: the manifest lists no error for it)',
        obtained,
        ok: outcome.report.errorCount === 0,
      });
    }
  }
  const names = (expected as { component_names?: string[] }).component_names;
  if (names && outcome.rows[0]) {
    const have = Object.keys(outcome.rows[0].values);
    const missing = names.filter((component) => !have.includes(component));
    rows.push({
      section: 'csv uploads',
      name: `${name}: components`,
      expected: names.join(', '),
      obtained: missing.length === 0 ? 'all present' : `missing ${missing.join(', ')}`,
      ok: missing.length === 0,
    });
  }
  for (const [key, value] of Object.entries(expected)) {
    if (!key.startsWith('site_natural_key')) continue;
    rows.push(checkComputed(name, key, value, outcome.rows));
  }
  return rows;
}

/**
 * `computedwithnaturalkeycolumns`: the manifest quotes the original's JSON, which shows a computed reference by the
 * natural key it computed. Terrain stores references as hierarchical keys (§10.3), so the check reads the natural
 * key of the row each stored key designates, and the computed text for empty inputs.
 */
function checkComputed(name: string, key: string, value: unknown, rows: readonly CsvRow[]): CheckRow {
  const byHierarchicalKey = new Map(rows.map((row) => [row.hierarchicalKey, row.naturalKey]));
  const natural = (stored: unknown): unknown =>
    typeof stored === 'string'
      ? (byHierarchicalKey.get(stored) ?? stored)
      : Array.isArray(stored)
        ? stored.map(natural)
        : stored;
  const component = key.startsWith('site_natural_key_multi') ? 'site_natural_key_multi' : 'site_natural_key';
  const obtainedList = rows.map((row) => natural(row.values[component]));
  let expected: unknown;
  let obtained: unknown;
  if (Array.isArray(value)) {
    expected = value;
    obtained = obtainedList;
  } else {
    const byRow = value as Record<string, unknown[]>;
    expected = Object.values(byRow).map((list) => [...list].sort());
    obtained = Object.keys(byRow).map((row) =>
      Array.isArray(obtainedList[Number(row.slice(3))])
        ? [...(obtainedList[Number(row.slice(3))] as unknown[])].sort()
        : obtainedList[Number(row.slice(3))],
    );
  }
  return {
    section: 'csv computed values',
    name: `${name}: ${component}`,
    expected: JSON.stringify(expected),
    obtained: JSON.stringify(obtained),
    ok: JSON.stringify(expected) === JSON.stringify(obtained),
  };
}

type Mutation = Record<string, unknown> & { change: string; error: string };

function checkMutations(
  name: string,
  load: ManifestLoad,
  text: string,
  model: ApplicationModel,
  known: Map<string, StoredRow[]>,
): CheckRow[] {
  const expected = load.expected ?? {};
  const list = Object.entries(expected).find(([key]) => key.startsWith('upload_error_mutations'))?.[1] as
    Mutation[] | undefined;
  if (!list) return [];
  return list.map((mutation) => {
    const rowName = `${name}: ${mutation.change}`;
    const wanted = describeMutation(mutation);
    const edit = csvEditFor(mutation.change, load.file);
    const edited = edit ? applyCsvEdit(text, edit) : undefined;
    if (!edit || edited === undefined)
      return {
        section: 'csv mutations',
        name: rowName,
        expected: wanted,
        obtained: edit ? 'the edit does not apply to the file' : 'no edit defined',
        ok: false,
      };
    const { report } = runCsv(model, load.data, edited, load.file, known);
    const match = report.errors.find((error) => matches(error, mutation));
    const obtained = match
      ? `${match.code} line ${match.lineNumber} ${JSON.stringify(match.params)}`
      : summarize({ rows: [], report });
    return { section: 'csv mutations', name: rowName, expected: wanted, obtained, ok: match !== undefined };
  });
}

/** A configuration of the application with one edit, read again; a text naming what failed otherwise. */
function editedModel(
  corpus: Corpus,
  application: string,
  configuration: ConfigurationEdit,
  validate: ValidateConfiguration,
): ApplicationModel | string {
  const text = decoder.decode(corpus.read(path.join(application, configuration.file)));
  const edited = applyCsvEdit(text, configuration.edit);
  if (edited === undefined) return 'the configuration edit does not apply';
  const result = validate(new TextEncoder().encode(edited), configuration.file);
  return result.ok
    ? result.value
    : `the edited configuration is refused: ${JSON.stringify(result.errors).slice(0, 200)}`;
}

/** Terrain's own cases on this file (`terrainUploadCases.ts`), checked like the manifest's mutations. */
function checkTerrainCases(
  name: string,
  cases: readonly TerrainUploadCase[],
  load: ManifestLoad,
  text: string,
  model: ApplicationModel,
  known: Map<string, StoredRow[]>,
  modelEditedBy: (configuration: ConfigurationEdit) => ApplicationModel | string,
): CheckRow[] {
  return cases.map((terrainCase) => {
    const rowName = `${name}: ${terrainCase.change}`;
    const expected = terrainCase.expected;
    const wanted =
      'valid' in expected ? `valid, ${expected.valid} rows` : describeMutation({ change: '', ...expected });
    const failed = (obtained: string) => ({
      section: 'csv Terrain cases',
      name: rowName,
      expected: wanted,
      obtained,
      ok: false,
    });
    const caseModel = terrainCase.configuration ? modelEditedBy(terrainCase.configuration) : model;
    if (typeof caseModel === 'string') return failed(caseModel);
    const edited = terrainCase.csv ? terrainCase.csv(text) : text;
    if (edited === undefined) return failed('the edit does not apply to the file');
    const outcome = runCsv(caseModel, load.data, edited, load.file, known);
    if ('valid' in expected) {
      const ok = outcome.report.errorCount === 0 && outcome.rows.length === expected.valid;
      return { section: 'csv Terrain cases', name: rowName, expected: wanted, obtained: summarize(outcome), ok };
    }
    const match = outcome.report.errors.find((error) => matches(error, { change: '', ...expected }));
    const obtained = match
      ? `${match.code} line ${match.lineNumber} ${JSON.stringify(match.params)}`
      : summarize(outcome);
    return { section: 'csv Terrain cases', name: rowName, expected: wanted, obtained, ok: match !== undefined };
  });
}

function describeMutation(mutation: Mutation): string {
  const { change: _change, error, ...rest } = mutation;
  return `${error} ${JSON.stringify(rest)}`;
}

function matches(error: CsvError, mutation: Mutation): boolean {
  if (error.code !== mutation.error) return false;
  for (const [key, value] of Object.entries(mutation)) {
    if (key === 'change' || key === 'error') continue;
    if (key === 'line') {
      if (error.lineNumber !== value) return false;
    } else if (key === 'lineNumber') {
      if (error.lineNumber !== value || error.params.lineNumber !== value) return false;
    } else if (key === 'bound') {
      // "HIGHER_THAN_MAX 100" or "100.0": the bound type when given, the bound compared as a number.
      const parts = String(value).split(' ');
      const bound = Number(parts.at(-1));
      if (parts.length > 1 && error.params.type !== parts[0]) return false;
      if (Number(error.params.bound) !== bound) return false;
    } else if (JSON.stringify(error.params[key]) !== JSON.stringify(value)) return false;
  }
  return true;
}
