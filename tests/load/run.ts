/**
 * `npm run load [-- --quick]`: a Terrain server in its own process (a fresh data folder with the embedded PGlite,
 * or a scratch database on the PostgreSQL of DATABASE_URL), seeded through the API, then 200 signed-in users
 * browsing data pages and lists (a page every 2 s each) while 10 others upload reference files one after the
 * other, for 60 s (10 s with --quick), over loopback only. Reports errors (target 0), the browsing latency p95
 * (target ≤ 300 ms, counted from when each page was due, so a slow server cannot hide its queue) and the server's
 * peak resident memory (target ≤ 600 MB); exits non-zero when any request failed. Bounded in time: it stops by
 * itself, and a watchdog ends it if anything hangs.
 */
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { random } from '../bench/csv.bench.ts';
import { APPLICATION, SITES, siteCode } from '../bench/versionedData.ts';
import { datasetQuery } from '../processes/operator.ts';
import { TerrainProcess, scratchDatabase } from '../processes/terrainServer.ts';
import { seed } from './seed.ts';

const quick = process.argv.includes('--quick');
const SECONDS = quick ? 10 : 60;
const READERS = 200;
/** A browsing user's pace: one page every 2 s (200 users ask for 100 pages a second). */
const PAGE_EVERY_S = 2;
const UPLOADERS = 10;
const UPLOAD_ROWS = 500;
/** Distinct upload files, by key range: uploads rewrite these rows again and again, the table does not grow. */
const UPLOAD_FILES = 20;
const TARGET_P95_MS = 300;
const TARGET_RSS_MB = 600;

const log = (line: string) => process.stderr.write(`${line}\n`);
const watchdog = setTimeout(
  () => {
    log('load test: watchdog — still running long after its time; stopping');
    process.exit(2);
  },
  (SECONDS + 15 * 60) * 1000,
);
watchdog.unref();

/** A reader's next page: lists, the application, reference pages and data pages, with and without filters. */
function browsingPath(random: () => number): string {
  const pick = random();
  const offset = Math.floor(random() * 100) * 10;
  if (pick < 0.1) return '/api/v1/applications';
  if (pick < 0.2) return `/api/v1/applications/${APPLICATION}`;
  if (pick < 0.35) return `/api/v1/applications/${APPLICATION}/references/sites${datasetQuery({ offset: Math.floor(random() * 19) * 10, limit: 10 })}`;
  if (pick < 0.6) {
    const from = Math.floor(random() * 900);
    const filters = random() < 0.5 ? [{ componentKey: 'value', intervalValues: { from: String(from), to: String(from + 100) } }] : [];
    return `/api/v1/applications/${APPLICATION}/references/measures${datasetQuery({ offset, limit: 10, componentFilters: filters })}`;
  }
  const site = siteCode(Math.floor(random() * 5));
  const filters =
    random() < 0.5
      ? [{ componentKey: 'value', intervalValues: { from: '10', to: '20' } }]
      : [{ componentKey: 'site', filters: [site] }];
  return `/api/v1/applications/${APPLICATION}/data/readings/json${datasetQuery({ offset, limit: 10, componentFilters: filters })}`;
}

/** The multipart body of one upload file: UPLOAD_ROWS measures whose keys belong to file `index`. */
function uploadBody(index: number, boundary: string): Buffer {
  const lines = ['code;label;day;site;value;depth;count;kind;hour;note'];
  for (let row = 0; row < UPLOAD_ROWS; row += 1) {
    const day = `${String(1 + (row % 28)).padStart(2, '0')}/${String(1 + (row % 12)).padStart(2, '0')}/2021`;
    lines.push(`load${String(index).padStart(2, '0')}_${String(row).padStart(4, '0')};Load ${row};${day};${siteCode(row % SITES)};${(row % 1000).toFixed(1)};${row % 500};${row};LD;12:00;load`);
  }
  const csv = `${lines.join('\n')}\n`;
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="load-${index}.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN;
};

interface Run {
  result: autocannon.Result;
  latencies: number[];
  statuses: Map<number, number>;
}

/** Runs autocannon against the server, collecting each response's time and status. */
function cannon(options: autocannon.Options): Promise<Run> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve({ result, latencies, statuses })));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
  });
}

const adminUrl = process.env.DATABASE_URL;
const database = adminUrl ? await scratchDatabase(adminUrl, 'terrain_load') : undefined;
const server = await TerrainProcess.start({ databaseUrl: database?.url });
const databaseName = database ? 'PostgreSQL' : 'PGlite';
try {
  log(`server ${server.url} (pid ${server.pid}) on ${databaseName}; seeding…`);
  const seeded = await seed(
    server,
    quick
      ? { measures: 20_000, versions: 3, rowsPerVersion: 5_000, readerAccounts: 20, readerSessions: READERS, uploaders: UPLOADERS }
      : { measures: 100_000, versions: 5, rowsPerVersion: 20_000, readerAccounts: 20, readerSessions: READERS, uploaders: UPLOADERS },
    log,
  );
  const boundary = '----terrain-load-boundary';
  const bodies = Array.from({ length: UPLOAD_FILES }, (_, index) => uploadBody(index, boundary));

  const rssBefore = await server.rssMb();
  const peakMeasured = await server.resetPeak();
  let rssSampled = rssBefore;
  const sampler = setInterval(() => {
    void server.rssMb().then((mb) => (rssSampled = Math.max(rssSampled, mb)), () => undefined);
  }, 250);
  log(`${READERS} readers and ${UPLOADERS} uploaders for ${SECONDS} s…`);

  let readerSessions = 0;
  let uploaderSessions = 0;
  const common = { url: server.url, duration: SECONDS, timeout: 30 };
  const [browsing, uploading] = await Promise.all([
    cannon({
      ...common,
      connections: READERS,
      // People read what a page shows before asking for the next: one page every PAGE_EVERY_S seconds each.
      overallRate: READERS / PAGE_EVERY_S,
      requests: [
        {
          setupRequest(request, context: { token?: string; random?: () => number }) {
            if (!context.token) {
              context.token = seeded.readerTokens[readerSessions % seeded.readerTokens.length];
              context.random = random(readerSessions + 1);
              readerSessions += 1;
            }
            return { ...request, method: 'GET', path: browsingPath(context.random!), headers: { authorization: `Bearer ${context.token}` } };
          },
        },
      ],
    }),
    cannon({
      ...common,
      connections: UPLOADERS,
      requests: [
        {
          setupRequest(request, context: { token?: string; next?: number }) {
            if (!context.token) {
              context.token = seeded.uploaderTokens[uploaderSessions % seeded.uploaderTokens.length];
              context.next = uploaderSessions;
              uploaderSessions += 1;
            }
            const body = bodies[context.next! % UPLOAD_FILES];
            context.next! += UPLOADERS;
            return {
              ...request,
              method: 'POST',
              path: `/api/v1/applications/${APPLICATION}/references/measures`,
              headers: { authorization: `Bearer ${context.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
              body,
            };
          },
        },
      ],
    }),
  ]);
  clearInterval(sampler);
  const peak = peakMeasured ? await server.peakRssMb() : rssSampled;

  const failuresOf = (run: Run) => run.result.errors + run.result.timeouts + run.result.non2xx;
  const errors = failuresOf(browsing) + failuresOf(uploading);
  const p95 = percentile(browsing.latencies, 95);
  const statusText = (run: Run) => [...run.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
  const rows: Array<[string, string, string, string]> = [
    ['browsing requests', `${browsing.latencies.length} (${(browsing.latencies.length / SECONDS).toFixed(0)}/s)`, '', statusText(browsing)],
    ['browsing latency p50', `${percentile(browsing.latencies, 50).toFixed(0)} ms`, '', ''],
    ['browsing latency p95', `${p95.toFixed(0)} ms`, `≤ ${TARGET_P95_MS} ms`, p95 <= TARGET_P95_MS ? 'ok' : 'MISSED'],
    ['browsing latency max', `${Math.max(...browsing.latencies).toFixed(0)} ms`, '', ''],
    ['uploads (500 rows each)', `${uploading.latencies.length}`, '', statusText(uploading)],
    ['upload latency p50 / p95', `${percentile(uploading.latencies, 50).toFixed(0)} / ${percentile(uploading.latencies, 95).toFixed(0)} ms`, '', ''],
    ['errors (non-2xx, timeouts, connection errors)', `${errors}`, '0', errors === 0 ? 'ok' : 'MISSED'],
    [`server peak RSS${peakMeasured ? '' : ' (sampled every 250 ms)'}, RSS before ${rssBefore.toFixed(0)} MB`, `${peak.toFixed(0)} MB`, `≤ ${TARGET_RSS_MB} MB`, peak <= TARGET_RSS_MB ? 'ok' : 'MISSED'],
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(`\nload: ${READERS} readers + ${UPLOADERS} uploaders, ${SECONDS} s, ${databaseName}, ${seeded.measures.toLocaleString('en')} measures, ${seeded.readings.toLocaleString('en')} published readings`);
  for (const row of rows) console.log(`${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padEnd(widths[2])}  ${row[3]}`);
  console.log(`\nnode ${process.version}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, client and server on the same machine`);
  process.exitCode = errors > 0 ? 1 : 0;
} finally {
  await server.stop();
  await database?.drop();
}
