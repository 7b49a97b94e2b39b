/**
 * Issue 22, "never freeze": other users' pages while a large reference uploads, then while a large version is
 * published. The reference of `ingest.bench.ts` (500,000 rows × 10 columns; 20,000 with --quick) is uploaded over
 * HTTP to a server in its own process while other users, each waiting for their answer and then a short pause, ask
 * for pages of another application; the figure is the p95 of those pages asked between the upload's first byte and
 * its answer (target ≤ 300 ms). Then a version of as many readings is deposited and published, the same users
 * browsing from the publication's request to the end of its job.
 *
 * The database is the PostgreSQL of DATABASE_URL (a scratch database), or an embedded PGlite when it is not set.
 */
import { generateMeasures } from './csv.bench.ts';
import { VERSIONED_YAML, readingsCsv, sitesCsv, yearDataset } from './versionedData.ts';
import { call, fileForm, median, percentile, startBenchServer } from './serverProcess.ts';
import type { Benchmark } from './types.ts';

const OTHER_CONFIGURATION = `OA_version: 2.0.1
OA_application: {OA_name: other, OA_version: 1.0.0}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
`;
const OTHER_USERS = 5;
/** A user's pause between an answer and their next page. */
const PAUSE_MS = 100;
const TARGET_P95_MS = 300;

const bench: Benchmark = {
  area: 'sharing',
  async run({ quick }) {
    const count = quick ? 20_000 : 500_000;
    const server = await startBenchServer();
    const db = server.database;
    try {
      for (const [name, yaml] of [
        ['bench', VERSIONED_YAML.replace('OA_name: stations,', 'OA_name: bench,')],
        ['other', OTHER_CONFIGURATION],
      ]) {
        const created = await call(server, 'POST', `/applications/${name}`, fileForm(`${name}.yaml`, yaml));
        if (created.status !== 200 || !created.text.includes('"type":"result"'))
          throw new Error(`${name} application: ${created.text.slice(0, 500)}`);
      }
      const places =
        ['code;label', ...Array.from({ length: 200 }, (_, index) => `p${index};place ${index}`)].join('\n') + '\n';
      for (const [app, reference, text] of [
        ['bench', 'sites', sitesCsv()],
        ['other', 'places', places],
      ]) {
        const stored = await call(
          server,
          'POST',
          `/applications/${app}/references/${reference}`,
          fileForm(`${reference}.csv`, text),
        );
        if (stored.status !== 201) throw new Error(`${reference}: ${stored.text.slice(0, 500)}`);
      }
      const form = fileForm('measures.csv', generateMeasures(count));

      const browseDuring = async <T>(write: () => Promise<T>) => {
        const times: number[] = [];
        let writing = true;
        const browse = async (user: number) => {
          for (let page = 0; writing; page += 1) {
            const query = encodeURIComponent(JSON.stringify({ offset: ((user * 7 + page) % 20) * 10, limit: 10 }));
            const sent = performance.now();
            const answer = await call(
              server,
              'GET',
              `/applications/other/references/places?downloadDatasetQuery=${query}`,
            );
            if (answer.status !== 200) throw new Error(`page: ${answer.status} ${answer.text.slice(0, 300)}`);
            if (writing) times.push(performance.now() - sent);
            await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
          }
        };
        const start = performance.now();
        const browsing = Array.from({ length: OTHER_USERS }, (_, user) => browse(user));
        const result = await write().finally(() => (writing = false));
        const ms = performance.now() - start;
        await Promise.all(browsing);
        return { result, ms, times };
      };
      const figures = (what: string, ms: number, times: number[]) => {
        const p95 = percentile(times, 95);
        return [
          { name: `database: ${db}; ${what}`, value: ms / 1000, unit: 's' },
          {
            name: `other users' pages meanwhile (${OTHER_USERS} users, ${PAUSE_MS} ms pauses; ${times.length} pages), p50, ${db}`,
            value: median(times),
            unit: 'ms',
          },
          {
            name: `other users' pages meanwhile, p95, ${db}`,
            value: p95,
            unit: 'ms',
            target: `≤ ${TARGET_P95_MS} ms`,
            pass: p95 <= TARGET_P95_MS,
          },
          { name: `other users' pages meanwhile, slowest, ${db}`, value: Math.max(...times), unit: 'ms' },
        ];
      };

      const upload = await browseDuring(() => call(server, 'POST', '/applications/bench/references/measures', form));
      if (upload.result.status !== 201 || upload.result.body.lineCount !== count)
        throw new Error(`measures upload: ${upload.result.status} ${upload.result.text.slice(0, 500)}`);

      const { text, rows } = readingsCsv(count, 0, 2021);
      const deposited = await call(
        server,
        'POST',
        '/applications/bench/data/readings',
        fileForm('readings.csv', text, yearDataset(0, 2021)),
      );
      if (deposited.status !== 201)
        throw new Error(`readings deposit: ${deposited.status} ${deposited.text.slice(0, 500)}`);
      const fileId = deposited.body.fileId as string;
      const publication = await browseDuring(async () => {
        const requested = await call(server, 'POST', '/applications/bench/data/readings', {
          fileid: fileId,
          topublish: true,
        });
        if (requested.status !== 202)
          throw new Error(`publication: ${requested.status} ${requested.text.slice(0, 500)}`);
        for (;;) {
          const state = await call(server, 'GET', `/applications/bench/file/${fileId}/publication-state`);
          if (state.body.job?.status === 'failed')
            throw new Error(`publication: ${JSON.stringify(state.body.job.error)}`);
          if (state.body.job?.status === 'done') return;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      });
      return [
        ...figures(
          `reference of ${count.toLocaleString('en')} rows × 10 columns uploaded, upload → committed`,
          upload.ms,
          upload.times,
        ),
        ...figures(
          `version of ${rows.toLocaleString('en')} readings published, request → job done`,
          publication.ms,
          publication.times,
        ),
      ];
    } finally {
      await server.stop();
    }
  },
};

export default bench;
