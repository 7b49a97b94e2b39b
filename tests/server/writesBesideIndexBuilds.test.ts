/**
 * A large write refreshes the planner's statistics in its transaction (refreshCount); a filter index built
 * meanwhile (`create index concurrently`, by this instance or another) holds the rows table's ShareUpdateExclusiveLock
 * while it waits for every older transaction, the write's among them. Had the write waited for that lock, the two
 * would deadlock and the upload be lost with a 500 (race audit S1): it skips the statistics instead. The build is
 * stood for by a session holding that lock; PostgreSQL only (the embedded database has one session).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApplication,
  OBSERVATORY_YAML,
  startDataServer,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';

/** More rows than a write changes before it refreshes the statistics (ANALYZE_AFTER_ROWS). */
const STATIONS = 20_000;

let data: DataServer;
let builder: pg.Client;

beforeAll(async () => {
  data = await startDataServer();
  if (data.server.databaseUrl) {
    builder = new pg.Client({ connectionString: data.server.databaseUrl });
    await builder.connect();
  }
}, 120_000);

afterAll(async () => {
  await builder?.end();
  await data?.server.close();
});

/**
 * Writes (sessions holding an entry, claimEntryForWrite) waiting for a lock of the rows table: the instance's own
 * index builds, begun once the load has committed, wait for the build stood for here as they would for another.
 */
async function writesWaitingForRowsTable(): Promise<number> {
  const found = await builder.query<{ count: number }>(
    `select count(*)::int as count from pg_locks waiting
       join pg_class on pg_class.oid = waiting.relation
     where pg_class.relname = 'data_rows' and not waiting.granted
       and waiting.database = (select oid from pg_database where datname = current_database())
       and exists (select 1 from pg_locks claim where claim.pid = waiting.pid and claim.locktype = 'advisory' and claim.granted)`,
  );
  return found.rows[0].count;
}

describe.runIf(process.env.DATABASE_URL)('a large write while an index of the rows table is built', () => {
  it('is stored without waiting for the build', async () => {
    await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
    const stations =
      'code;Nom;altitude;depth;opened;habitat;habitats\n' +
      Array.from({ length: STATIONS }, (_, index) => `st${index};s${index};${index};;;;`).join('\n') +
      '\n';
    await builder.query('begin');
    await builder.query('lock table data_rows in share update exclusive mode');
    try {
      let answered = false;
      const upload = uploadReference(data.admin, 'observatory', 'stations', 's.csv', stations).finally(
        () => (answered = true),
      );
      // Either the upload answers, or it is found waiting for the build's lock: it would wait for good.
      let waited = false;
      while (!answered && !waited) waited = (await writesWaitingForRowsTable()) > 0;
      expect(waited, 'the write waited for the index build').toBe(false);
      const stored = await upload;
      expect(stored.status, stored.text).toBe(201);
      expect(stored.body.totalRows).toBe(STATIONS);
    } finally {
      await builder.query('rollback');
    }
  }, 300_000);
});
