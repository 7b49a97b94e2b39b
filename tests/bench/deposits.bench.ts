/**
 * Deposit and publication of a versioned dataset (issue 8): a generated file of 500,000 hourly readings of one site
 * for one year (10,000 with --quick) deposited over HTTP to a server in its own process (checked against its
 * scope and period, kept whole), then published (a background job writing its rows in one transaction), timed
 * from the first byte sent to the job's end. Against it, a plain COPY of the same rows, in their stored form
 * (with the version and the period of each row), into an equivalent table of the same database. Then the first
 * page (limit 10) of the published data with one interval filter: round trips over localhost, p50/p95.
 *
 * The database is the PostgreSQL of DATABASE_URL (a scratch database), or an embedded PGlite; the figures name it.
 */
import { COPY_COLUMNS, copyTextOf, datasetQuery, storedRowsOf, timeQueries } from './ingest.bench.ts';
import { copyFloorIn, parseForFloor } from './loadFloor.ts';
import { call, copyBaselineIn, fileForm, startBenchServer } from './serverProcess.ts';
import type { Benchmark, BenchFigure } from './types.ts';
import { APPLICATION, VERSIONED_YAML, readingsCsv, sitesCsv, yearDataset } from './versionedData.ts';

const SITE = 7;
const YEAR = 2020;

const bench: Benchmark = {
  area: 'deposits',
  async run({ quick }) {
    const server = await startBenchServer();
    const db = server.database;
    try {
      const created = await call(
        server,
        'POST',
        `/applications/${APPLICATION}`,
        fileForm('stations.yaml', VERSIONED_YAML),
      );
      if (created.status !== 200 || !created.text.includes('"type":"result"'))
        throw new Error(`bench application: ${created.text.slice(0, 500)}`);
      const sites = await call(
        server,
        'POST',
        `/applications/${APPLICATION}/references/sites`,
        fileForm('sites.csv', sitesCsv()),
      );
      if (sites.status !== 201) throw new Error(`sites: ${sites.text.slice(0, 500)}`);

      const { text, rows } = readingsCsv(quick ? 10_000 : 500_000, SITE, YEAR);
      const bytes = new TextEncoder().encode(text);
      const peakMeasured = await server.resetPeak();
      const start = performance.now();
      const deposited = await call(
        server,
        'POST',
        `/applications/${APPLICATION}/data/readings`,
        fileForm(`readings-${YEAR}.csv`, bytes, yearDataset(SITE, YEAR)),
      );
      const depositMs = performance.now() - start;
      if (deposited.status !== 201 || deposited.body.rowCount !== rows)
        throw new Error(`deposit: ${deposited.status} ${deposited.text.slice(0, 500)}`);
      const fileId = deposited.body.fileId as string;
      const publishStart = performance.now();
      const requested = await call(server, 'POST', `/applications/${APPLICATION}/data/readings`, {
        fileid: fileId,
        topublish: true,
      });
      if (requested.status !== 202) throw new Error(`publish: ${requested.status} ${requested.text.slice(0, 500)}`);
      for (;;) {
        // On PGlite this waits behind the job's transaction: the answer comes once the rows are in.
        const state = await call(server, 'GET', `/applications/${APPLICATION}/file/${fileId}/publication-state`);
        if (state.body.job?.status === 'failed')
          throw new Error(`publication failed: ${JSON.stringify(state.body.job.error)}`);
        if (state.body.job?.status === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const publishMs = performance.now() - publishStart;
      const peak = await server.peakRssMb();
      const totalMs = depositMs + publishMs;

      // First page of the published rows, one interval filter (values spread over 0…100: this keeps about 10%).
      const runs = quick ? 20 : 40;
      const filtered = datasetQuery({
        offset: 0,
        limit: 10,
        componentFilters: [{ componentKey: 'value', intervalValues: { from: '10', to: '20' } }],
      });
      const query = await timeQueries(server, `/applications/${APPLICATION}/data/readings/json${filtered}`, 5, runs);

      // The same rows as the publication stores them (version and period included), by COPY.
      const application = await call(server, 'GET', `/applications/${APPLICATION}`);
      const copyText = copyTextOf(
        VERSIONED_YAML,
        'readings',
        text,
        application.body.id,
        { sites: storedRowsOf(VERSIONED_YAML, 'sites', sitesCsv()) },
        (row) => [fileId, row.period!.from, row.period!.to],
      );
      // The floor (issue 27): PapaParse's parse of the file, and a COPY of its rows into an unlogged text table.
      const parsed = parseForFloor(text, ';');
      const postgres = db === 'PostgreSQL';
      const { copyMs, floorCopyMs } = await server.direct(async (session) => ({
        copyMs: await copyBaselineIn(session, postgres, `${COPY_COLUMNS}, file_id, period_start, period_end`, copyText),
        floorCopyMs: await copyFloorIn(session, postgres, parsed),
      }));
      const ratio = copyMs / totalMs;
      const floorMs = parsed.parseMs + floorCopyMs;
      const overFloor = totalMs / floorMs;

      const forPostgres = (target: string) => (db === 'PostgreSQL' ? target : `${target} (target set for PostgreSQL)`);
      const figures: BenchFigure[] = [
        {
          name: `database: ${db}; versioned file of ${rows.toLocaleString('en')} rows × 6 columns`,
          value: bytes.byteLength / 1e6,
          unit: 'MB',
        },
        {
          name: `deposit over HTTP (checked against scope and period, stored), ${db}`,
          value: depositMs / 1000,
          unit: 's',
        },
        { name: `publication job, ${db}`, value: publishMs / 1000, unit: 's' },
        { name: `deposit + publish rate, end to end, ${db}`, value: rows / (totalMs / 1000), unit: 'rows/s' },
        {
          name: `floor: PapaParse parse ${(parsed.parseMs / 1000).toFixed(2)} s + COPY into an unlogged table of ${parsed.columns} text columns ${(floorCopyMs / 1000).toFixed(2)} s, ${db}`,
          value: floorMs / 1000,
          unit: 's',
        },
        {
          name: `deposit + publication ÷ floor, ${db}`,
          value: overFloor,
          unit: '×',
          target: forPostgres('≤ 3'),
          pass: postgres ? overFloor <= 3 : undefined,
        },
        { name: `plain COPY of the same rows into an equivalent table, ${db}`, value: copyMs / 1000, unit: 's' },
        {
          name: `deposit + publish rate / COPY rate, ${db}`,
          value: ratio,
          unit: '×',
          target: forPostgres('ratio ≥ 0.5'),
          pass: db === 'PostgreSQL' ? ratio >= 0.5 : undefined,
        },
        {
          name: peakMeasured
            ? 'server peak RSS during deposit and publication'
            : 'server peak RSS since start (clear_refs refused)',
          value: peak,
          unit: 'MB',
        },
        {
          name: `published data: first page, interval filter (${query.last.body.totalRows} rows match), p50, ${db}`,
          value: query.p50,
          unit: 'ms',
        },
        {
          name: `published data: first page, interval filter, p95 of ${runs}, ${db}`,
          value: query.p95,
          unit: 'ms',
          target: forPostgres('≤ 50 ms'),
          pass: db === 'PostgreSQL' ? query.p95 <= 50 : undefined,
        },
      ];
      return figures;
    } finally {
      await server.stop();
    }
  },
};

export default bench;
