/**
 * `npm run load [-- --quick]`: a Terrain server in its own process (a fresh data folder with the embedded PGlite,
 * or a scratch database on the PostgreSQL of DATABASE_URL), seeded through the API, then 200 signed-in users
 * browsing data pages and lists while 10 others upload reference files one after the other, for 60 s (10 s with
 * --quick), over loopback only. Then, while the readers go on, the operator uploads a 500,000-row reference and
 * publishes a 500,000-row version in another application (20,000 with --quick; `--large N`), each reported with
 * the readers' p95 meanwhile (issue 22: one user's large write never holds the others). Each browsing user asks for a page every 2 s on average, the pauses drawn from an
 * exponential law (users act independently, so pages are asked at random moments, 100 a second in all); a page's
 * latency runs from when it was due to its last byte, so a slow server cannot hide its queue. Reports errors
 * (target 0), the browsing latency p95 (target ≤ 300 ms) and the server's peak resident memory (target ≤ 600 MB);
 * exits non-zero when any request failed. Bounded in time: it stops by itself, and a watchdog ends it if anything
 * hangs.
 */
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { seededRandom } from '../seededRandom';
import {
  APPLICATION,
  SITES,
  VERSIONED_YAML,
  generateMeasures,
  readingsCsv,
  siteCode,
  sitesCsv,
  yearDataset,
} from '../bench/versionedData.ts';
import { Operator, datasetQuery, fileForm } from '../processes/operator.ts';
import { TerrainProcess } from '../processes/terrainServer.ts';
import { scratchDatabase } from '../scratchDatabase.ts';
import { expectStatus, seed } from './seed.ts';

const quick = process.argv.includes('--quick');
const SECONDS = quick ? 10 : 60;
/**
 * The same traffic runs this long before the measured window, its figures reported apart: the first filter on a
 * large entry builds that entry's index, the first uploads write rows the later ones find unchanged, and nothing
 * is kept yet. A server serving people has long passed that.
 */
const WARMUP_SECONDS = quick ? 5 : 15;
/** `--readers N` and `--uploaders N` size the load otherwise (the capacity of a smaller set-up): 200 and 10 by default. */
function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of at least 1`);
  return value;
}
const READERS = option('readers', 200);
/** A browsing user's mean pause between pages: 200 users ask for 100 pages a second. */
const PAUSE_S = 2;
/** A page not answered within this is counted as a timeout. */
const PAGE_TIMEOUT_MS = 30_000;
const UPLOADERS = option('uploaders', 10);
/**
 * After the measured window, the readers browse on while the operator uploads a reference of this many rows, then
 * publishes a version of as many, in another application (`--large N`; 0 skips it): the figure of issue 22.
 */
const LARGE_ROWS = process.argv.includes('--large')
  ? Number(process.argv[process.argv.indexOf('--large') + 1])
  : quick
    ? 20_000
    : 500_000;
if (!Number.isInteger(LARGE_ROWS) || LARGE_ROWS < 0)
  throw new Error('--large takes a whole number of rows (0: no large writes)');
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
  (WARMUP_SECONDS + SECONDS + 15 * 60) * 1000,
);
watchdog.unref();

/** A reader's next page: lists, the application, reference pages and data pages, with and without filters. */
function browsingPath(random: () => number): string {
  const pick = random();
  const offset = Math.floor(random() * 100) * 10;
  if (pick < 0.1) return '/api/v1/applications';
  if (pick < 0.2) return `/api/v1/applications/${APPLICATION}`;
  if (pick < 0.35)
    return `/api/v1/applications/${APPLICATION}/references/sites${datasetQuery({ offset: Math.floor(random() * 19) * 10, limit: 10 })}`;
  if (pick < 0.6) {
    const from = Math.floor(random() * 900);
    const filters =
      random() < 0.5 ? [{ componentKey: 'value', intervalValues: { from: String(from), to: String(from + 100) } }] : [];
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
    lines.push(
      `load${String(index).padStart(2, '0')}_${String(row).padStart(4, '0')};Load ${row};${day};${siteCode(row % SITES)};${(row % 1000).toFixed(1)};${row % 500};${row};LD;12:00;load`,
    );
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
  failures: number;
  latencies: number[];
  statuses: Map<number, number>;
}

/** What the warm-up and the measured window each saw. */
interface Windows {
  warmup: Run;
  measured: Run;
}

const emptyRun = (): Run => ({ failures: 0, latencies: [], statuses: new Map() });
const emptyWindows = (): Windows => ({ warmup: emptyRun(), measured: emptyRun() });

function record(run: Run, status: number | undefined, latency: number | undefined) {
  if (latency !== undefined) run.latencies.push(latency);
  if (status !== undefined) run.statuses.set(status, (run.statuses.get(status) ?? 0) + 1);
  if (status === undefined || status >= 300) run.failures += 1;
}

/** Runs autocannon against the server, collecting each response's time and status in the window it ended in. */
function cannon(options: autocannon.Options, measuredFrom: number): Promise<Windows> {
  return new Promise((resolve, reject) => {
    const windows = emptyWindows();
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      // Connection errors and timeouts have no response: counted as failures of the measured window.
      windows.measured.failures += result.errors + result.timeouts;
      resolve(windows);
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      record(performance.now() < measuredFrom ? windows.warmup : windows.measured, statusCode, responseTime);
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Browsing users, each on its own session and connection: ask for a page, read it whole, pause, ask for the next,
 * until the end of the run. (A rate-limited load generator sends its requests in bursts at each second's tick,
 * which no group of people does.)
 */
async function browse(
  url: string,
  tokens: readonly string[],
  measuredFrom: number,
  going: (due: number) => boolean,
): Promise<Windows> {
  const windows = emptyWindows();
  const user = async (index: number) => {
    const draw = seededRandom(index + 1);
    // Exponential pauses of mean PAUSE_S between a user's pages; the first one spreads the users' starts.
    const nextPause = () => -Math.log(1 - draw()) * PAUSE_S * 1000;
    let due = performance.now() + nextPause();
    while (going(due)) {
      await pause(due - performance.now());
      const run = due < measuredFrom ? windows.warmup : windows.measured;
      try {
        const response = await fetch(`${url}${browsingPath(draw)}`, {
          headers: { authorization: `Bearer ${tokens[index]}` },
          signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        record(run, response.status, performance.now() - due);
      } catch {
        record(run, undefined, undefined);
      }
      // The next page is due a pause after this one was; when this one came late, the user asks at once, and
      // the wait counts in the next page's latency: a slow server cannot hide its queue.
      due += nextPause();
    }
  };
  await Promise.all(tokens.map((_, index) => user(index)));
  return windows;
}

interface LargePhase {
  what: string;
  seconds: number;
  pages: Run;
}

/** Readers browse while one large write runs, from its request to its end. */
async function duringLargeWrite(
  url: string,
  tokens: readonly string[],
  what: string,
  write: () => Promise<void>,
): Promise<LargePhase> {
  let writing = true;
  const started = performance.now();
  const browsing = browse(url, tokens, started, () => writing);
  await write().finally(() => (writing = false));
  const seconds = (performance.now() - started) / 1000;
  return { what, seconds, pages: (await browsing).measured };
}

/** The large reference upload and the large publication, each with the readers' pages meanwhile. */
async function largeWrites(server: TerrainProcess, tokens: readonly string[], rows: number): Promise<LargePhase[]> {
  const operator = await Operator.of(server);
  const name = 'bigload';
  const created = await operator.call(
    'POST',
    `/applications/${name}`,
    fileForm(`${name}.yaml`, VERSIONED_YAML.replace(`OA_name: ${APPLICATION},`, `OA_name: ${name},`)),
  );
  if (!created.text.includes('"type":"result"')) throw new Error(`${name} application: ${created.text.slice(0, 500)}`);
  expectStatus(
    `${name} sites`,
    await operator.call('POST', `/applications/${name}/references/sites`, fileForm('sites.csv', sitesCsv())),
    201,
  );
  const measures = fileForm('measures.csv', generateMeasures(rows));
  const upload = await duringLargeWrite(
    server.url,
    tokens,
    `reference of ${rows.toLocaleString('en')} rows × 10 columns uploaded (another application)`,
    async () => {
      expectStatus(
        'large upload',
        await operator.call('POST', `/applications/${name}/references/measures`, measures),
        201,
      );
    },
  );
  const { text, rows: count } = readingsCsv(rows, 0, 2021);
  const deposited = await operator.call(
    'POST',
    `/applications/${name}/data/readings`,
    fileForm('readings.csv', text, yearDataset(0, 2021)),
  );
  expectStatus('large deposit', deposited, 201);
  const publication = await duringLargeWrite(
    server.url,
    tokens,
    `version of ${count.toLocaleString('en')} rows published (another application)`,
    async () => {
      expectStatus(
        'large publication',
        await operator.call('POST', `/applications/${name}/data/readings`, {
          fileid: deposited.body.fileId,
          topublish: true,
        }),
        202,
      );
      for (;;) {
        const state = await operator.call(
          'GET',
          `/applications/${name}/file/${deposited.body.fileId}/publication-state`,
        );
        if (state.body.job?.status === 'failed')
          throw new Error(`large publication: ${JSON.stringify(state.body.job.error)}`);
        if (state.body.job?.status === 'done') return;
        await pause(200);
      }
    },
  );
  return [upload, publication];
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
      ? {
          measures: 20_000,
          versions: 3,
          rowsPerVersion: 5_000,
          readerAccounts: 20,
          readerSessions: READERS,
          uploaders: UPLOADERS,
        }
      : {
          measures: 100_000,
          versions: 5,
          rowsPerVersion: 20_000,
          readerAccounts: 20,
          readerSessions: READERS,
          uploaders: UPLOADERS,
        },
    log,
  );
  const boundary = '----terrain-load-boundary';
  const bodies = Array.from({ length: UPLOAD_FILES }, (_, index) => uploadBody(index, boundary));

  const rssBefore = await server.rssMb();
  const peakMeasured = await server.resetPeak();
  let rssSampled = rssBefore;
  const sampler = setInterval(() => {
    void server.rssMb().then(
      (mb) => (rssSampled = Math.max(rssSampled, mb)),
      () => undefined,
    );
  }, 250);
  log(`${READERS} readers and ${UPLOADERS} uploaders for ${WARMUP_SECONDS} s of warm-up and ${SECONDS} s measured…`);

  let uploaderSessions = 0;
  const common = { url: server.url, duration: WARMUP_SECONDS + SECONDS, timeout: 30 };
  const measuredFrom = performance.now() + WARMUP_SECONDS * 1000;
  const [browsingWindows, uploadingWindows] = await Promise.all([
    browse(server.url, seeded.readerTokens, measuredFrom, (due) => due < measuredFrom + SECONDS * 1000),
    cannon(
      {
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
                headers: {
                  authorization: `Bearer ${context.token}`,
                  'content-type': `multipart/form-data; boundary=${boundary}`,
                },
                body,
              };
            },
          },
        ],
      },
      measuredFrom,
    ),
  ]);
  clearInterval(sampler);
  const browsing = browsingWindows.measured;
  const uploading = uploadingWindows.measured;
  const warmup = browsingWindows.warmup;
  const peak = peakMeasured ? await server.peakRssMb() : rssSampled;
  let large: LargePhase[] = [];
  let largePeak = 0;
  if (LARGE_ROWS > 0) {
    log(`large writes of ${LARGE_ROWS.toLocaleString('en')} rows while the ${READERS} readers browse…`);
    const peakReset = await server.resetPeak();
    rssSampled = 0;
    const largeSampler = setInterval(() => {
      void server.rssMb().then(
        (mb) => (rssSampled = Math.max(rssSampled, mb)),
        () => undefined,
      );
    }, 250);
    large = await largeWrites(server, seeded.readerTokens, LARGE_ROWS).finally(() => clearInterval(largeSampler));
    largePeak = peakReset ? await server.peakRssMb() : rssSampled;
  }

  // Errors count over the whole run, warm-up included.
  const errors =
    browsing.failures +
    uploading.failures +
    warmup.failures +
    uploadingWindows.warmup.failures +
    large.reduce((sum, phase) => sum + phase.pages.failures, 0);
  const p95 = percentile(browsing.latencies, 95);
  const statusText = (run: Run) =>
    [...run.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
  const rows: Array<[string, string, string, string]> = [
    [
      'browsing requests',
      `${browsing.latencies.length} (${(browsing.latencies.length / SECONDS).toFixed(0)}/s)`,
      '',
      statusText(browsing),
    ],
    ['browsing latency p50', `${percentile(browsing.latencies, 50).toFixed(0)} ms`, '', ''],
    ['browsing latency p95', `${p95.toFixed(0)} ms`, `≤ ${TARGET_P95_MS} ms`, p95 <= TARGET_P95_MS ? 'ok' : 'MISSED'],
    ['browsing latency max', `${Math.max(...browsing.latencies).toFixed(0)} ms`, '', ''],
    [
      `warm-up (${WARMUP_SECONDS} s, not measured): pages, p50 / p95`,
      `${warmup.latencies.length}, ${percentile(warmup.latencies, 50).toFixed(0)} / ${percentile(warmup.latencies, 95).toFixed(0)} ms`,
      '',
      '',
    ],
    ['uploads (500 rows each)', `${uploading.latencies.length}`, '', statusText(uploading)],
    [
      'upload latency p50 / p95',
      `${percentile(uploading.latencies, 50).toFixed(0)} / ${percentile(uploading.latencies, 95).toFixed(0)} ms`,
      '',
      '',
    ],
    ...large.flatMap((phase): Array<[string, string, string, string]> => {
      const phaseP95 = percentile(phase.pages.latencies, 95);
      return [
        [phase.what, `${phase.seconds.toFixed(1)} s`, '', ''],
        [
          '  browsing meanwhile: pages, p50 / p95',
          `${phase.pages.latencies.length}, ${percentile(phase.pages.latencies, 50).toFixed(0)} / ${phaseP95.toFixed(0)} ms`,
          `p95 ≤ ${TARGET_P95_MS} ms`,
          phaseP95 <= TARGET_P95_MS ? 'ok' : 'MISSED',
        ],
      ];
    }),
    ...(large.length > 0
      ? [
          [
            `server peak RSS during the large writes${peakMeasured ? '' : ' (sampled)'}`,
            `${largePeak.toFixed(0)} MB`,
            `≤ ${TARGET_RSS_MB} MB`,
            largePeak <= TARGET_RSS_MB ? 'ok' : 'MISSED',
          ] as [string, string, string, string],
        ]
      : []),
    [
      'errors, warm-up included (non-2xx, timeouts, connection errors)',
      `${errors}`,
      '0',
      errors === 0 ? 'ok' : 'MISSED',
    ],
    [
      `server peak RSS${peakMeasured ? '' : ' (sampled every 250 ms)'}, RSS before ${rssBefore.toFixed(0)} MB`,
      `${peak.toFixed(0)} MB`,
      `≤ ${TARGET_RSS_MB} MB`,
      peak <= TARGET_RSS_MB ? 'ok' : 'MISSED',
    ],
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(
    `\nload: ${READERS} readers + ${UPLOADERS} uploaders, ${SECONDS} s measured after ${WARMUP_SECONDS} s of warm-up, ${databaseName}, ${seeded.measures.toLocaleString('en')} measures, ${seeded.readings.toLocaleString('en')} published readings`,
  );
  for (const row of rows)
    console.log(`${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padEnd(widths[2])}  ${row[3]}`);
  console.log(
    `\nnode ${process.version}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, client and server on the same machine`,
  );
  process.exitCode = errors > 0 ? 1 : 0;
} finally {
  await server.stop();
  await database?.drop();
}
