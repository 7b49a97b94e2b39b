/**
 * PostgreSQL restarted under traffic (a cluster of our own, never the shared one): readers browsing pages and
 * writers uploading while the database goes down (fast shutdown, then a crash stop and recovery) and comes back.
 * The server process stays up, answers 503 DATABASE_UNAVAILABLE with Retry-After while the database is away
 * (never a 500, never a hang), serves again by itself once it is back, and no upload is half-kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICATION,
  VERSIONED_YAML,
  generateMeasures,
  readingsCsv,
  sitesCsv,
  yearDataset,
} from '../bench/versionedData.ts';
import { Operator, datasetQuery, eventually, fileForm, sleep } from '../processes/operator.ts';
import { TerrainProcess } from '../processes/terrainServer.ts';
import { faultDatabase, postgresUnavailable, type FaultDatabase } from './faultHarness.ts';

const READERS = 20;
const WRITERS = 3;
/** Rows of each uploaded file: large enough that some uploads are cut by the restart. */
const UPLOAD_ROWS = 20_000;

interface Outcome {
  kind: 'read' | 'upload';
  path: string;
  status: number;
  code?: string;
  retryAfter?: string | null;
  /** The keys of the uploaded file, for uploads. */
  batch?: number;
  ms: number;
  /** Why no answer came. */
  failure?: string;
}

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL restarted during traffic', () => {
  let db: FaultDatabase;
  let server: TerrainProcess;
  let operator: Operator;

  beforeAll(async () => {
    db = await faultDatabase('PostgreSQL');
    server = await TerrainProcess.start(db.serverOptions);
    operator = await Operator.of(server);
    const created = await operator.call(
      'POST',
      `/applications/${APPLICATION}`,
      fileForm('stations.yaml', VERSIONED_YAML),
    );
    expect(created.text).toContain('"type":"result"');
    expect(
      (await operator.call('POST', `/applications/${APPLICATION}/references/sites`, fileForm('sites.csv', sitesCsv())))
        .status,
    ).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await server?.kill();
    await db?.destroy();
  });

  it(
    'answers 503 with Retry-After while the database is away, reconnects by itself, and keeps every upload whole or not at all',
    async () => {
      const outcomes: Outcome[] = [];
      let running = true;
      const timed = async (kind: Outcome['kind'], path: string, send: () => Promise<Response>, batch?: number) => {
        const start = performance.now();
        try {
          const response = await send();
          const text = await response.text();
          const code = response.ok ? undefined : (JSON.parse(text) as { code?: string }).code;
          outcomes.push({
            kind,
            path,
            status: response.status,
            code,
            retryAfter: response.headers.get('retry-after'),
            batch,
            ms: performance.now() - start,
          });
        } catch (error) {
          const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
          outcomes.push({
            kind,
            path,
            status: 0,
            batch,
            ms: performance.now() - start,
            failure: cause?.code ?? cause?.message ?? (error as Error).message,
          });
        }
      };
      const auth = { authorization: `Bearer ${operator.token}` };
      const pages = [
        `/applications/${APPLICATION}/references/sites${datasetQuery({ offset: 0, limit: 20 })}`,
        `/applications/${APPLICATION}/references/measures${datasetQuery({ offset: 0, limit: 10, componentFilters: [{ componentKey: 'value', intervalValues: { from: '100', to: '200' } }] })}`,
        `/applications/${APPLICATION}`,
        `/applications`,
      ];
      const reader = async (index: number) => {
        for (let round = 0; running; round += 1) {
          const page = pages[(index + round) % pages.length];
          await timed('read', page, () =>
            fetch(`${server.url}/api/v1${page}`, { headers: auth, signal: AbortSignal.timeout(30_000) }),
          );
          // Readers pace themselves like people turning pages, not a loop hammering the server.
          await sleep(20);
        }
      };
      // Each upload brings rows of its own (keys prefixed by its number): what is stored tells which were kept.
      let batches = 0;
      const writer = async () => {
        while (running) {
          const batch = (batches += 1);
          const text = generateMeasures(UPLOAD_ROWS).replace(
            /\nm(\d{7})/g,
            (_m, key: string) => `\nb${String(batch).padStart(3, '0')}m${key}`,
          );
          await timed(
            'upload',
            'measures',
            () =>
              fetch(`${server.url}/api/v1/applications/${APPLICATION}/references/measures`, {
                method: 'POST',
                headers: auth,
                body: fileForm('measures.csv', text),
                signal: AbortSignal.timeout(120_000),
              }),
            batch,
          );
        }
      };
      const traffic = Promise.all([
        ...Array.from({ length: READERS }, (_, i) => reader(i)),
        ...Array.from({ length: WRITERS }, () => writer()),
      ]);

      // The outage is a script of moments under steady traffic: the pauses are how long traffic runs before the
      // restart, between it and the stop, and while the database is away — the time is the fault, not a wait for one.
      await sleep(5000);
      const before = outcomes.length;
      await db.cluster!.restart('fast');
      await sleep(3000);
      await db.cluster!.stop('immediate');
      await sleep(5000);
      await db.cluster!.start();
      const back = Date.now();
      // Back by itself: a read succeeds again without anything done to the server.
      await eventually(
        'a successful read after the restart',
        async () => {
          const answer = await fetch(`${server.url}/api/v1${pages[0]}`, { headers: auth });
          return answer.status === 200 ? true : undefined;
        },
        30_000,
        200,
      );
      const recoveredMs = Date.now() - back;
      // Traffic goes on for a while after the recovery, so the answers after it are counted too.
      await sleep(5000);
      running = false;
      await traffic;

      expect(server.alive).toBe(true);
      expect(outcomes.length).toBeGreaterThan(before);
      const failures = outcomes.filter((o) => o.status !== 200 && o.status !== 201);
      // Some requests met the database away, and every one of them was told so: no 500, no dropped connection.
      expect(failures.length).toBeGreaterThan(0);
      expect(
        failures.filter((o) => o.status !== 503 || o.code !== 'DATABASE_UNAVAILABLE' || o.retryAfter !== '5'),
      ).toEqual([]);
      expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(120_000);
      expect(recoveredMs).toBeLessThan(30_000);
      // The last requests of the run were served again.
      const lastReads = outcomes.filter((o) => o.kind === 'read').slice(-READERS);
      expect(lastReads.every((o) => o.status === 200)).toBe(true);

      // Each upload is kept whole (201) or not at all: the rows of every batch number.
      const stored = await db.sql<{ batch: string; rows: number }>(
        `select substring(natural_key from 1 for 4) as batch, count(*)::int as rows from data_rows d join applications a on a.id = d.application_id
       where a.name = $1 and d.data_name = 'measures' group by 1`,
        [APPLICATION],
      );
      const kept = new Map(stored.map((row) => [Number(row.batch.slice(1)), row.rows]));
      for (const upload of outcomes.filter((o) => o.kind === 'upload')) {
        expect(kept.get(upload.batch!) ?? 0, `upload ${upload.batch} answered ${upload.status}`).toBe(
          upload.status === 201 ? UPLOAD_ROWS : 0,
        );
      }
      const counted = await operator.call(
        'GET',
        `/applications/${APPLICATION}/references/measures${datasetQuery({ offset: 0, limit: 1 })}`,
      );
      expect(counted.body.totalRows).toBe([...kept.values()].reduce((a, b) => a + b, 0));
      console.log(
        `${outcomes.length} requests, ${failures.length} answered 503 while the database was away; served again ${recoveredMs} ms after it was back`,
      );
    },
    10 * 60_000,
  );

  it('runs background jobs again after the restart', async () => {
    const { text, rows } = readingsCsv(5000, 2, 2021);
    const answer = await operator.call(
      'POST',
      `/applications/${APPLICATION}/data/readings`,
      fileForm('readings-2021.csv', text, { ...yearDataset(2, 2021), topublish: true }),
    );
    expect(answer.status, answer.text).toBe(202);
    const state = await eventually(
      'the publication',
      async () => {
        const current = await operator.call(
          'GET',
          `/applications/${APPLICATION}/file/${answer.body.fileId}/publication-state`,
        );
        return current.body.job?.status === 'done' ? current.body : undefined;
      },
      60_000,
    );
    expect(state).toMatchObject({ published: true, rowCount: rows });
  }, 120_000);
});
