/**
 * Issue 22, "never freeze": other users' pages while a large reference uploads. The reference of `ingest.bench.ts`
 * (500,000 rows × 10 columns; 20,000 with --quick) is uploaded over HTTP to a server in its own process while
 * other users, each waiting for their answer and then a short pause, ask for pages of another application; the
 * figure is the p95 of those pages asked between the upload's first byte and its answer (target ≤ 300 ms).
 *
 * The database is the PostgreSQL of DATABASE_URL (a scratch database), or an embedded PGlite when it is not set.
 */
import { MEASURES_CONFIGURATION, generateMeasures, sitesCsv } from './csv.bench.ts';
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
        ['bench', MEASURES_CONFIGURATION],
        ['other', OTHER_CONFIGURATION],
      ]) {
        const created = await call(server, 'POST', `/applications/${name}`, fileForm(`${name}.yaml`, yaml));
        if (created.status !== 200 || !created.text.includes('"type":"result"')) throw new Error(`${name} application: ${created.text.slice(0, 500)}`);
      }
      const places = ['code;label', ...Array.from({ length: 200 }, (_, index) => `p${index};place ${index}`)].join('\n') + '\n';
      for (const [app, reference, text] of [
        ['bench', 'sites', sitesCsv()],
        ['other', 'places', places],
      ]) {
        const stored = await call(server, 'POST', `/applications/${app}/references/${reference}`, fileForm(`${reference}.csv`, text));
        if (stored.status !== 201) throw new Error(`${reference}: ${stored.text.slice(0, 500)}`);
      }
      const form = fileForm('measures.csv', generateMeasures(count));

      const times: number[] = [];
      let uploading = true;
      const browse = async (user: number) => {
        for (let page = 0; uploading; page += 1) {
          const query = encodeURIComponent(JSON.stringify({ offset: ((user * 7 + page) % 20) * 10, limit: 10 }));
          const sent = performance.now();
          const answer = await call(server, 'GET', `/applications/other/references/places?downloadDatasetQuery=${query}`);
          if (answer.status !== 200) throw new Error(`page: ${answer.status} ${answer.text.slice(0, 300)}`);
          if (uploading) times.push(performance.now() - sent);
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      };
      const start = performance.now();
      const browsing = Array.from({ length: OTHER_USERS }, (_, user) => browse(user));
      const uploaded = await call(server, 'POST', '/applications/bench/references/measures', form).finally(() => (uploading = false));
      const uploadMs = performance.now() - start;
      await Promise.all(browsing);
      if (uploaded.status !== 201 || uploaded.body.lineCount !== count) throw new Error(`measures upload: ${uploaded.status} ${uploaded.text.slice(0, 500)}`);
      const p95 = percentile(times, 95);
      return [
        { name: `database: ${db}; reference of ${count.toLocaleString('en')} rows × 10 columns uploaded, upload → committed`, value: uploadMs / 1000, unit: 's' },
        { name: `other users' pages during the upload (${OTHER_USERS} users, ${PAUSE_MS} ms pauses; ${times.length} pages), p50, ${db}`, value: median(times), unit: 'ms' },
        { name: `other users' pages during the upload, p95, ${db}`, value: p95, unit: 'ms', target: `≤ ${TARGET_P95_MS} ms`, pass: p95 <= TARGET_P95_MS },
        { name: `other users' pages during the upload, slowest, ${db}`, value: Math.max(...times), unit: 'ms' },
      ];
    } finally {
      await server.stop();
    }
  },
};

export default bench;
