/**
 * Server ingest of a reference (issue 7): the generated reference of `csv.bench.ts` (1,000,000 rows × 10 columns
 * with date, float, integer, string-pattern and reference checkers; 10,000 with --quick) uploaded over HTTP to a
 * server running in its own process, timed from the first byte sent to the 201 answer (the rows are committed
 * then). Against it, a plain COPY of the same rows, in their stored form, into an equivalent table (the columns
 * and indexes of data_rows) of the same database. The server's peak resident memory during the upload comes from
 * /proc (VmHWM, reset just before). Then the first page (limit 10) of the 1M-row table with one interval filter,
 * as the consultation asks for it: round-trip times over localhost, p50/p95 of several runs after a warm-up.
 *
 * The database is the PostgreSQL of DATABASE_URL (a scratch database created and dropped), or an embedded
 * PGlite when DATABASE_URL is not set; the figures name it.
 */
import { validateConfiguration } from '../../src/domain/configuration/index.ts';
import { createCsvValidator, type CsvRow, type StoredRow } from '../../src/domain/csv/index.ts';
import { rowColumns, WRITE_BATCH, type RowColumns } from '../../server/workers/rowColumns.ts';
import { timeOrderedId } from '../../server/workers/timeOrderedId.ts';
import { EMBEDDED_BATCH_ROWS } from '../../server/services/entryWrite.ts';
import { MEASURES_CONFIGURATION, generateMeasures, sitesCsv } from './csv.bench.ts';
import {
  call,
  copyArray,
  copyBaselineIn,
  copyField,
  fileForm,
  median,
  percentile,
  startBenchServer,
  type BenchServer,
} from './serverProcess.ts';
import type { Benchmark, BenchFigure } from './types.ts';
import { exportDigest, storedDigest } from './exportCheck.ts';
import { copyFloorIn, parseForFloor, writeProfileIn } from './loadFloor.ts';

/**
 * The rows of a file in COPY text form (the columns of `COPY_COLUMNS`), as the CSV engine stores them: the work
 * a COPY-based loader would have left once the file is validated.
 */
export function copyTextOf(
  yaml: string,
  dataName: string,
  text: string,
  applicationId: string,
  references: Record<string, StoredRow[]>,
  extra: (row: { period?: { from: string; to: string } }) => string[] = () => [],
): string {
  return storedFormOf(yaml, dataName, text, applicationId, references, extra).text;
}

/**
 * The stored form of a file's rows: COPY text, and with `batchRows` the column texts the checking worker would
 * send (rowColumns.ts); `checkMs` is the CSV engine's own time (push and finish, in this one thread).
 */
export function storedFormOf(
  yaml: string,
  dataName: string,
  text: string,
  applicationId: string,
  references: Record<string, StoredRow[]>,
  extra: (row: { period?: { from: string; to: string } }) => string[] = () => [],
  batchRows?: number,
): { text: string; batches: Array<{ columns: RowColumns; count: number }>; checkMs: number } {
  const validated = validateConfiguration(new TextEncoder().encode(yaml), 'bench.yaml');
  if (!validated.ok) throw new Error('bench configuration');
  const validator = createCsvValidator({
    model: validated.value,
    dataName,
    fileName: `${dataName}.csv`,
    references: { rows: (name) => references[name] ?? [] },
  });
  const lines: string[] = [];
  const batches: Array<{ columns: RowColumns; count: number }> = [];
  let batch: CsvRow[] = [];
  let checkMs = 0;
  const flush = () => {
    if (batch.length) batches.push({ columns: rowColumns(batch), count: batch.length });
    batch = [];
  };
  const take = () => {
    for (const row of validator.takeRows()) {
      if (batchRows) {
        batch.push(row);
        if (batch.length >= batchRows) flush();
      }
      const refs = [...new Set(row.links.map((link) => link.hierarchicalKey))];
      lines.push(
        [
          timeOrderedId(),
          applicationId,
          dataName,
          copyField(row.naturalKey),
          copyField(row.hierarchicalKey),
          copyField(JSON.stringify(row.values)),
          copyField(copyArray(refs)),
          String(row.lineNumber),
          ...extra(row),
        ].join('\t'),
      );
    }
  };
  for (let start = 0; start < text.length; start += 1 << 20) {
    const begun = performance.now();
    validator.push(text.slice(start, start + (1 << 20)));
    checkMs += performance.now() - begun;
    take();
  }
  const begun = performance.now();
  const report = validator.finish();
  checkMs += performance.now() - begun;
  take();
  flush();
  if (report.errorCount > 0) throw new Error(`bench file: ${JSON.stringify(report.errors[0])}`);
  return { text: lines.join('\n') + '\n', batches, checkMs };
}

export const COPY_COLUMNS = 'id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number';

/** Reference rows as the engine stores them (for the COPY text of rows that point to them). */
export function storedRowsOf(yaml: string, dataName: string, text: string): StoredRow[] {
  const validated = validateConfiguration(new TextEncoder().encode(yaml), 'bench.yaml');
  if (!validated.ok) throw new Error('bench configuration');
  const validator = createCsvValidator({
    model: validated.value,
    dataName,
    fileName: `${dataName}.csv`,
    references: { rows: () => [] },
  });
  validator.push(text);
  validator.finish();
  return validator
    .takeRows()
    .map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values }));
}

/** Round trips of a GET, after a warm-up: every time in ms, and the last answer. */
export async function timeQueries(server: BenchServer, apiPath: string, warmUp: number, runs: number) {
  let last: { status: number; body: any } | undefined;
  for (let index = 0; index < warmUp; index += 1) last = await call(server, 'GET', apiPath);
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    last = await call(server, 'GET', apiPath);
    times.push(performance.now() - start);
    if (last.status !== 200)
      throw new Error(`${apiPath} answered ${last.status}: ${JSON.stringify(last.body).slice(0, 300)}`);
  }
  return { times, last: last!, p50: median(times), p95: percentile(times, 95) };
}

/** One request's round trip, in ms (it must answer 200). */
async function timeCall(server: BenchServer, apiPath: string): Promise<number> {
  const start = performance.now();
  const answer = await call(server, 'GET', apiPath);
  if (answer.status !== 200) throw new Error(`${apiPath} answered ${answer.status}`);
  return performance.now() - start;
}

export const datasetQuery = (query: object) => `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify(query))}`;

const bench: Benchmark = {
  area: 'ingest',
  async run({ quick }) {
    // TERRAIN_BENCH_ROWS sizes a profile between the quick and the full run.
    const count = Number(process.env.TERRAIN_BENCH_ROWS) || (quick ? 10_000 : 1_000_000);
    const server = await startBenchServer();
    const db = server.database;
    const figures: BenchFigure[] = [];
    try {
      const created = await call(server, 'POST', '/applications/bench', fileForm('bench.yaml', MEASURES_CONFIGURATION));
      if (created.status !== 200 || !created.text.includes('"type":"result"'))
        throw new Error(`bench application: ${created.text.slice(0, 500)}`);
      const sites = await call(
        server,
        'POST',
        '/applications/bench/references/sites',
        fileForm('sites.csv', sitesCsv()),
      );
      if (sites.status !== 201) throw new Error(`sites: ${sites.text.slice(0, 500)}`);

      const text = generateMeasures(count);
      const bytes = new TextEncoder().encode(text);
      const form = fileForm('measures.csv', bytes);
      const peakMeasured = await server.resetPeak();
      const before = await server.rssMb();
      const start = performance.now();
      const uploaded = await call(server, 'POST', '/applications/bench/references/measures', form);
      const uploadMs = performance.now() - start;
      const peak = await server.peakRssMb();
      if (uploaded.status !== 201 || uploaded.body.lineCount !== count)
        throw new Error(`measures upload: ${uploaded.status} ${uploaded.text.slice(0, 500)}`);
      const rate = count / (uploadMs / 1000);
      process.stderr.write(`  upload → committed: ${(uploadMs / 1000).toFixed(2)} s, peak RSS ${peak.toFixed(0)} MB\n`);

      // First page, one interval filter (values spread over 0…1000: this one keeps about 10%).
      const filtered = datasetQuery({
        offset: 0,
        limit: 10,
        componentFilters: [{ componentKey: 'value', intervalValues: { from: '100', to: '200' } }],
      });
      const runs = quick ? 20 : 40;
      // The first filter on a component asks for its index: timed, with a page of another entry asked at once (on
      // the embedded database the build holds the one connection every user shares).
      const firstAsked = await Promise.all([
        timeCall(server, `/applications/bench/references/measures${filtered}`),
        timeCall(server, '/applications/bench/references/sites'),
      ]);
      const query = await timeQueries(server, `/applications/bench/references/measures${filtered}`, 5, runs);
      const dated = datasetQuery({
        offset: 0,
        limit: 10,
        componentFilters: [{ componentKey: 'day', intervalValues: { from: '2010-01-01', to: '2011-12-31' } }],
      });
      const dateQuery = await timeQueries(server, `/applications/bench/references/measures${dated}`, 5, runs);

      // The whole table exported as CSV, against what is stored (its NDJSON feed): rows, a checksum, memory.
      const validated = validateConfiguration(new TextEncoder().encode(MEASURES_CONFIGURATION), 'bench.yaml');
      if (!validated.ok) throw new Error('bench configuration');
      const exportPeakMeasured = await server.resetPeak();
      const beforeExport = await server.rssMb();
      const exported = await exportDigest(server, '/applications/bench/references/measures/csv', ';');
      const exportPeak = await server.peakRssMb();
      const stored = await storedDigest(server, 'bench', validated.value, 'measures');
      const complete =
        exported.rows === stored.rows && exported.rows === count && exported.checksum === stored.checksum;

      // The same rows, in their stored form, by COPY into an equivalent table of the same database.
      const application = await call(server, 'GET', '/applications/bench');
      const profile = process.env.TERRAIN_BENCH_PROFILE === '1';
      const postgres = db === 'PostgreSQL';
      const storedForm = storedFormOf(
        MEASURES_CONFIGURATION,
        'measures',
        text,
        application.body.id,
        { sites: storedRowsOf(MEASURES_CONFIGURATION, 'sites', sitesCsv()) },
        undefined,
        profile ? (postgres ? WRITE_BATCH : EMBEDDED_BATCH_ROWS) : undefined,
      );
      // The floor (issue 27): PapaParse's parse of the file, and a COPY of its rows into an unlogged text table.
      const parsed = parseForFloor(text, ';');
      const { copyMs, floorCopyMs, parts } = await server.direct(async (session) => ({
        copyMs: await copyBaselineIn(session, postgres, COPY_COLUMNS, storedForm.text),
        floorCopyMs: await copyFloorIn(session, postgres, parsed),
        parts: profile
          ? [
              {
                name: `COPY of the file's rows into a logged table of ${parsed.columns} text columns (a durable floor)`,
                ms: await copyFloorIn(session, postgres, parsed, true),
              },
              ...(await writeProfileIn(
                session,
                postgres,
                application.body.id,
                'measures',
                storedForm.batches,
                COPY_COLUMNS,
                storedForm.text,
              )),
            ]
          : [],
      }));
      const ratio = copyMs / uploadMs;
      const floorMs = parsed.parseMs + floorCopyMs;
      const overFloor = uploadMs / floorMs;
      process.stderr.write(
        `  floor: parse ${(parsed.parseMs / 1000).toFixed(2)} s + COPY ${(floorCopyMs / 1000).toFixed(2)} s\n`,
      );

      figures.push(
        {
          name: `database: ${db}; reference of ${count.toLocaleString('en')} rows × 10 columns`,
          value: bytes.byteLength / 1e6,
          unit: 'MB',
        },
        { name: `server ingest over HTTP (upload → committed), ${db}`, value: uploadMs / 1000, unit: 's' },
        { name: `server ingest rate, ${db}`, value: rate, unit: 'rows/s' },
        { name: `floor: PapaParse parse of the file, ${db} run`, value: parsed.parseMs / 1000, unit: 's' },
        {
          name: `floor: COPY of its rows into an unlogged table of ${parsed.columns} text columns, ${db}`,
          value: floorCopyMs / 1000,
          unit: 's',
        },
        { name: `floor (parse + COPY), ${db}`, value: floorMs / 1000, unit: 's' },
        {
          name: `reference load ÷ floor, ${db}`,
          value: overFloor,
          unit: '×',
          target: postgres ? '≤ 3' : '≤ 4',
          pass: overFloor <= (postgres ? 3 : 4),
        },
        {
          name: `CSV engine's checking of the file in one thread (bench process, no writing)`,
          value: storedForm.checkMs / 1000,
          unit: 's',
        },
        ...parts.map((part) => ({ name: `write profile, ${db}: ${part.name}`, value: part.ms / 1000, unit: 's' })),
        { name: `plain COPY of the same rows into an equivalent table, ${db}`, value: copyMs / 1000, unit: 's' },
        {
          name: `ingest rate / COPY rate, ${db}`,
          value: ratio,
          unit: '×',
          target: db === 'PostgreSQL' ? 'ratio ≥ 0.5' : 'ratio ≥ 0.5 (target set for PostgreSQL)',
          pass: db === 'PostgreSQL' ? ratio >= 0.5 : undefined,
        },
        peakMeasured
          ? {
              name: `server peak RSS during the upload (RSS before: ${before.toFixed(0)} MB)`,
              value: peak,
              unit: 'MB',
              target: '≤ 300 MB',
              pass: peak <= 300,
            }
          : {
              name: 'server peak RSS during the upload (not measured: /proc clear_refs refused; process peak since start)',
              value: peak,
              unit: 'MB',
              target: '≤ 300 MB',
              pass: peak <= 300,
            },
        {
          name: `first page, interval filter on a float (${query.last.body.totalRows} rows match), p50, ${db}`,
          value: query.p50,
          unit: 'ms',
        },
        {
          name: `first page, interval filter on a float, first asked (its index asked for then), ${db}`,
          value: firstAsked[0],
          unit: 'ms',
        },
        {
          name: `another entry's page asked at the same moment, ${db}`,
          value: firstAsked[1],
          unit: 'ms',
        },
        {
          name: `first page, interval filter on a float, p95 of ${runs}, ${db}`,
          value: query.p95,
          unit: 'ms',
          target: db === 'PostgreSQL' ? '≤ 50 ms' : '≤ 50 ms (target set for PostgreSQL)',
          pass: db === 'PostgreSQL' ? query.p95 <= 50 : undefined,
        },
        {
          name: `first page, interval filter on a date (${dateQuery.last.body.totalRows} rows match), p50, ${db}`,
          value: dateQuery.p50,
          unit: 'ms',
        },
        { name: `first page, interval filter on a date, p95 of ${runs}, ${db}`, value: dateQuery.p95, unit: 'ms' },
        {
          name: `CSV export of the whole table: rows with the stored values (checksum ${complete ? 'equal' : 'DIFFERENT'}), ${db}`,
          value: exported.rows,
          unit: 'rows',
          target: `= ${count.toLocaleString('en')}, same checksum`,
          pass: complete,
        },
        {
          name: `CSV export of the whole table (${(exported.bytes / 1e6).toFixed(0)} MB), first byte asked → last read, ${db}`,
          value: exported.ms / 1000,
          unit: 's',
        },
        { name: `CSV export rate, ${db}`, value: exported.rows / (exported.ms / 1000), unit: 'rows/s' },
        {
          name: `server peak RSS during the export${exportPeakMeasured ? '' : ' (process peak since start: /proc clear_refs refused)'} (RSS before: ${beforeExport.toFixed(0)} MB)`,
          value: exportPeak,
          unit: 'MB',
        },
      );
      return figures;
    } finally {
      await server.stop();
    }
  },
};

export default bench;
