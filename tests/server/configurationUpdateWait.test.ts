/**
 * A configuration update waits for the writes under way, and writes sent meanwhile queue behind it: the wait is
 * bounded (`updateWaitMs`), past it the update is refused 503 WRITES_UNDER_WAY and changes nothing, and the writes
 * queued behind it go on. A write under way is a session holding the configuration shared, as uploads and
 * publications hold it (PostgreSQL: the embedded database has one session, whose transactions follow one another).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApplication,
  csvForm,
  HABITATS_CSV,
  OBSERVATORY_YAML,
  startDataServer,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';

const WAIT_MS = 1_000;

let data: DataServer;
let writer: pg.Client;

beforeAll(async () => {
  data = await startDataServer({ updateWaitMs: WAIT_MS });
  if (data.server.databaseUrl) {
    writer = new pg.Client({ connectionString: data.server.databaseUrl });
    await writer.connect();
  }
}, 120_000);

afterAll(async () => {
  await writer?.end();
  await data?.server.close();
});

const update = (version: string) =>
  data.admin.post('/applications/observatory/configuration', {
    body: csvForm('o.yaml', OBSERVATORY_YAML.replace('OA_version: 1.0.0', `OA_version: ${version}`)),
  });

const versionShown = async () => (await data.admin.get('/applications/observatory')).body.version as string;

describe.runIf(process.env.DATABASE_URL)('a configuration update while writes are under way', () => {
  it('is refused once it has waited long enough, changes nothing, and lets the writes behind it go on', async () => {
    await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
    const { id } = (await data.admin.get('/applications/observatory')).body as { id: string };
    const before = await versionShown();

    await writer.query('begin');
    await writer.query(`select pg_advisory_xact_lock_shared(hashtextextended($1, 0))`, [`configuration/${id}`]);
    const updated = update('1.1.0');
    // A reference upload sent meanwhile is stored, whether it came before the update or queued behind it.
    const upload = uploadReference(data.admin, 'observatory', 'habitats', 'h.csv', HABITATS_CSV);
    const refused = await updated;
    expect(refused.text).toContain('"code":"WRITES_UNDER_WAY"');
    expect(refused.text).toContain(`"retryAfterSeconds":${WAIT_MS / 1000}`);
    expect(refused.text).not.toContain('"type":"result"');
    expect((await upload).status).toBe(201);
    expect(await versionShown()).toBe(before);

    await writer.query('commit');
    const done = await update('1.1.0');
    expect(done.text).toContain('"type":"result"');
    expect(await versionShown()).not.toBe(before);
  }, 120_000);
});
