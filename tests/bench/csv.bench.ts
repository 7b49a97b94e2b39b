/**
 * CSV engine: full validation of a generated reference of 1,000,000 rows × 10 columns (100,000 with --quick) with
 * date, float, integer, string-pattern and reference checkers, against a plain PapaParse parse of the same text
 * measured in the same run (target: ratio ≤ 2.0). A second file of the same size, whose 8 columns all carry
 * string-pattern checkers (the corpus's patterns and longer ones), measures the regular-expression engine: the
 * file's validation, and its cells checked by the engine against JavaScript's RegExp (the engine of the checkers
 * until issue 22, a backtracking one) side by side (target: ratio ≤ 1.5). The text is fed in 1 MB chunks, as the worker does. Worker mode
 * (`collectRows: false`, the report only) is the target figure; the server mode, which also hands every row over
 * (`takeRows` after each chunk), is shown beside it. Times are the process's CPU time (user + system), median of
 * the runs, measured alternately: on a shared machine wall-clock times mostly measure the neighbours. The
 * measurement runs in a fresh Node process (this file run as a script), with a heap as small as a browser worker's,
 * not inside the benchmark runner that has loaded every other area's modules.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { validateConfiguration } from '../../src/domain/configuration';
import type { ApplicationModel } from '../../src/domain/configuration';
import { createCsvValidator, type StoredRow } from '../../src/domain/csv';
import { compileJavaRegex } from '../../src/domain/regex';
import { seededRandom } from '../seededRandom';
import type { Benchmark, BenchFigure } from './types';

/** The measures reference and its sites: read by the CSV engine here, uploaded to a server by ingest.bench.ts. */
export const MEASURES_CONFIGURATION = `OA_version: 2.0.1
OA_application: {OA_name: bench, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      name: null
  measures:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
      day: {OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}}
      site: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
      value: {OA_checker: {OA_name: OA_float}}
      depth: {OA_checker: {OA_name: OA_float, OA_params: {OA_min: 0.0, OA_max: 500.0}}}
      count: {OA_checker: {OA_name: OA_integer}}
      kind: {OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "[A-Z]{2}"}}}
      hour: {OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: "HH:mm"}}}
      note: null
`;

const SITES = 200;

/**
 * The columns of the pattern-checker file, each with its Java pattern and the JavaScript RegExp that reads it the
 * same way on the generated cells (the baseline of the engine's own figure).
 */
const CODE_PATTERNS = [
  { column: 'code', java: '[A-Z]{3}[0-9]{7}', javaScript: /^(?:[A-Z]{3}[0-9]{7})$/u },
  { column: 'station', java: 'FR-[A-Z]{3}', javaScript: /^(?:FR-[A-Z]{3})$/u },
  { column: 'slug', java: '[a-z]*', javaScript: /^(?:[a-z]*)$/u },
  {
    column: 'email',
    java: '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[a-z]{2,}',
    javaScript: /^(?:[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[a-z]{2,})$/u,
  },
  { column: 'name', java: "\\p{L}+(?:[ '-]\\p{L}+)*", javaScript: /^(?:\p{L}+(?:[ '-]\p{L}+)*)$/u },
  { column: 'tag', java: '(?i)[a-z]+(?:_[a-z0-9]+)*', javaScript: /^(?:[a-z]+(?:_[a-z0-9]+)*)$/iu },
  { column: 'comment', java: '.*', javaScript: /^(?:.*)$/u },
  { column: 'day', java: '\\d{4}-\\d{2}-\\d{2}', javaScript: /^(?:\d{4}-\d{2}-\d{2})$/u },
];

/** Eight columns, each with a string-pattern checker: what the regular-expression engine costs at scale. */
export const CODES_CONFIGURATION = `OA_version: 2.0.1
OA_application: {OA_name: bench, OA_version: 1.0.0}
OA_data:
  codes:
    OA_naturalKey: [code]
    OA_basicComponents:
${CODE_PATTERNS.map(({ column, java }) => `      ${column}: {OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: '${java.replaceAll("'", "''")}'}}}`).join('\n')}
`;

const NAMES = [
  'Anaïs',
  'Lucie',
  'Jean-Éric',
  'Gaëlle',
  "O'Brien",
  'Zoé',
  'François',
  'Marie Hélène',
  'Ødegaard',
  'Łukasz',
];
const WORDS = ['lac', 'riviere', 'station', 'mesure', 'sonde', 'bouee', 'profil', 'carotte'];

export function generateCodes(rows: number): string {
  const next = seededRandom(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const letters = (count: number) =>
    Array.from({ length: count }, () => String.fromCharCode(65 + Math.floor(next() * 26))).join('');
  const lines = ['code;station;slug;email;name;tag;comment;day'];
  for (let row = 0; row < rows; row += 1) {
    const word = pick(WORDS);
    lines.push(
      [
        `${letters(3)}${pad(row, 7)}`,
        `FR-${letters(3)}`,
        `${word}${pick(WORDS)}`,
        `${word}.${pick(WORDS)}${row % 100}@example-${row % 7}.org`,
        pick(NAMES),
        `${word.toUpperCase()}_${row % 1000}_${pick(WORDS)}`,
        `relevé ${row % 97} de ${pick(WORDS)}, ${pick(NAMES)}`,
        `${2000 + (row % 24)}-${pad(1 + (row % 12), 2)}-${pad(1 + (row % 28), 2)}`,
      ].join(';'),
    );
  }
  return `${lines.join('\n')}\n`;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

export function generateMeasures(rows: number): string {
  const next = seededRandom(42);
  const lines = ['code;label;day;site;value;depth;count;kind;hour;note'];
  for (let row = 0; row < rows; row += 1) {
    const day = `${pad(1 + Math.floor(next() * 28), 2)}/${pad(1 + Math.floor(next() * 12), 2)}/${2000 + Math.floor(next() * 24)}`;
    const site = `site_${pad(Math.floor(next() * SITES), 3)}`;
    const value = (next() * 1000).toFixed(2);
    const depth = (next() * 500).toFixed(1);
    const count = Math.floor(next() * 10_000);
    const kind = String.fromCharCode(65 + Math.floor(next() * 26), 65 + Math.floor(next() * 26));
    const hour = `${pad(Math.floor(next() * 24), 2)}:${pad(Math.floor(next() * 60), 2)}`;
    lines.push(`m${pad(row, 7)};Mesure ${row % 997};${day};${site};${value};${depth};${count};${kind};${hour};ok`);
  }
  return `${lines.join('\n')}\n`;
}

function model(configuration = MEASURES_CONFIGURATION): ApplicationModel {
  const result = validateConfiguration(new TextEncoder().encode(configuration), 'bench.yaml');
  if (!result.ok) throw new Error(`bench configuration: ${JSON.stringify(result.errors[0])}`);
  return result.value;
}

/** The sites the measures point to. */
export const sitesCsv = () =>
  ['code;name', ...Array.from({ length: SITES }, (_, site) => `site_${pad(site, 3)};Site ${site}`)].join('\n') + '\n';

function siteRows(application: ApplicationModel): StoredRow[] {
  const validator = createCsvValidator({
    model: application,
    dataName: 'sites',
    fileName: 'sites.csv',
    references: { rows: () => [] },
  });
  validator.push(sitesCsv());
  const report = validator.finish();
  if (report.errorCount > 0) throw new Error(`bench sites: ${JSON.stringify(report.errors[0])}`);
  return validator.takeRows();
}

const CHUNK = Number(process.env.CSV_CHUNK ?? 1 << 20);

export function validateMeasures(
  application: ApplicationModel,
  sites: readonly StoredRow[],
  text: string,
  collectRows = true,
  dataName = 'measures',
): { rows: number; errors: number } {
  const validator = createCsvValidator({
    model: application,
    dataName,
    fileName: `${dataName}.csv`,
    collectRows,
    references: { rows: (name) => (name === 'sites' ? sites : []) },
  });
  let rows = 0;
  for (let start = 0; start < text.length; start += CHUNK) {
    validator.push(text.slice(start, start + CHUNK));
    rows += validator.takeRows().length;
  }
  const report = validator.finish();
  rows += validator.takeRows().length;
  return { rows, errors: report.errorCount };
}

/** CPU time of a run, in ms (user + system of this process). */
function time(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface Measurement {
  megabytes: number;
  papa: number;
  worker: number;
  server: number;
  /** The file of pattern checkers: its size and its validation in worker mode. */
  patternMegabytes: number;
  patterns: number;
  /** Its cells checked against their column's pattern alone: by JavaScript's RegExp, then by Terrain's engine. */
  cells: number;
  nativeChecks: number;
  engineChecks: number;
}

/** The cells of the pattern-checker file, column by column. */
function columnCells(text: string): string[][] {
  const columns: string[][] = CODE_PATTERNS.map(() => []);
  for (const line of text.split('\n').slice(1)) {
    if (line === '') continue;
    line.split(';').forEach((cell, column) => columns[column].push(cell));
  }
  return columns;
}

/** How many cells pass their column's test. */
function countMatching(columns: readonly string[][], test: (column: number, cell: string) => boolean): number {
  let matching = 0;
  columns.forEach((cells, column) => {
    for (const cell of cells) if (test(column, cell)) matching += 1;
  });
  return matching;
}

/** The measurement itself, run in the child process. */
function measure(count: number, runs: number): Measurement {
  const application = model();
  const sites = siteRows(application);
  const text = generateMeasures(count);
  const check = validateMeasures(application, sites, text);
  if (check.errors > 0 || check.rows !== count)
    throw new Error(`bench file: ${check.errors} errors, ${check.rows} rows`);
  const codes = model(CODES_CONFIGURATION);
  const codesText = generateCodes(count);
  const validateCodes = () => validateMeasures(codes, [], codesText, false, 'codes');
  const codesCheck = validateMeasures(codes, [], codesText, true, 'codes');
  if (codesCheck.errors > 0 || codesCheck.rows !== count)
    throw new Error(`bench codes: ${codesCheck.errors} errors, ${codesCheck.rows} rows`);
  // Side by side, alternating, after one warm-up of each.
  time(() => Papa.parse(text, { delimiter: ';' }));
  time(() => validateMeasures(application, sites, text, false));
  const papa: number[] = [];
  const worker: number[] = [];
  const server: number[] = [];
  const patterns: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    papa.push(time(() => Papa.parse(text, { delimiter: ';' })));
    worker.push(time(() => validateMeasures(application, sites, text, false)));
    server.push(time(() => validateMeasures(application, sites, text, true)));
    patterns.push(time(validateCodes));
  }
  return {
    megabytes: text.length / 1e6,
    papa: median(papa),
    worker: median(worker),
    server: median(server),
    patternMegabytes: codesText.length / 1e6,
    patterns: median(patterns),
    // After the validations: the cells kept for it would otherwise weigh on their collections.
    ...measureCellChecks(codesText, runs),
  };
}

/** The pattern file's cells checked against their column's pattern: JavaScript's RegExp and the engine, alternately. */
function measureCellChecks(
  codesText: string,
  runs: number,
): Pick<Measurement, 'cells' | 'nativeChecks' | 'engineChecks'> {
  const columns = columnCells(codesText);
  const engines = CODE_PATTERNS.map(({ java }) => {
    const compiled = compileJavaRegex(java);
    if (!compiled.ok) throw new Error(`bench pattern ${java}: ${compiled.message}`);
    return compiled.regex;
  });
  const nativeTest = (column: number, cell: string) => CODE_PATTERNS[column].javaScript.test(cell);
  const engineTest = (column: number, cell: string) => engines[column].matches(cell);
  const cells = columns.reduce((total, column) => total + column.length, 0);
  if (countMatching(columns, nativeTest) !== cells || countMatching(columns, engineTest) !== cells)
    throw new Error('bench codes: a cell fails its pattern');
  const nativeChecks: number[] = [];
  const engineChecks: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    nativeChecks.push(time(() => countMatching(columns, nativeTest)));
    engineChecks.push(time(() => countMatching(columns, engineTest)));
  }
  return { cells, nativeChecks: median(nativeChecks), engineChecks: median(engineChecks) };
}

const bench: Benchmark = {
  area: 'csv',
  async run({ quick }) {
    const count = quick ? 100_000 : 1_000_000;
    const runs = 3;
    const child = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=4096',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--measure',
        String(count),
        String(runs),
      ],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    if (child.status !== 0) throw new Error(`csv bench child failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Measurement;
    const ratio = result.worker / result.papa;
    const figures: BenchFigure[] = [
      {
        name: `generated reference: ${count.toLocaleString('en')} rows × 10 columns`,
        value: result.megabytes,
        unit: 'MB',
      },
      { name: 'plain PapaParse parse, CPU median', value: result.papa, unit: 'ms' },
      { name: 'full validation, worker mode (report only), CPU median', value: result.worker, unit: 'ms' },
      {
        name: 'validation / PapaParse (worker mode)',
        value: ratio,
        unit: '×',
        target: 'ratio ≤ 2.0',
        pass: ratio <= 2.0,
      },
      { name: 'full validation, server mode (rows taken per 1 MB), CPU median', value: result.server, unit: 'ms' },
      { name: 'validation / PapaParse (server mode)', value: result.server / result.papa, unit: '×' },
      { name: 'rows per second (worker mode, CPU)', value: count / (result.worker / 1000), unit: 'rows/s' },
      {
        name: `pattern checkers: ${count.toLocaleString('en')} rows × 8 string-pattern columns`,
        value: result.patternMegabytes,
        unit: 'MB',
      },
      { name: 'pattern checkers: full validation, worker mode, CPU median', value: result.patterns, unit: 'ms' },
      {
        name: 'pattern checkers: rows per second (worker mode, CPU)',
        value: count / (result.patterns / 1000),
        unit: 'rows/s',
      },
      {
        name: `pattern checks alone (${result.cells.toLocaleString('en')} cells): JavaScript RegExp, CPU median`,
        value: result.nativeChecks,
        unit: 'ms',
      },
      { name: "pattern checks alone: Terrain's engine (lazy DFA), CPU median", value: result.engineChecks, unit: 'ms' },
      {
        name: 'pattern checks: engine / RegExp',
        value: result.engineChecks / result.nativeChecks,
        unit: '×',
        target: 'ratio ≤ 1.5',
        pass: result.engineChecks / result.nativeChecks <= 1.5,
      },
    ];
    return figures;
  },
};

export default bench;

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--measure') {
  console.log(JSON.stringify(measure(Number(process.argv[3]), Number(process.argv[4]))));
}
