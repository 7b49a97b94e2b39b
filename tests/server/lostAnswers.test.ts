import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { createSurveys, fileForm, fixtureFile } from './surveysFixtures.ts';

/**
 * A work applied whose answer was never kept: the database refuses to keep the answers of keys named `lost-…` (a
 * trigger, as a database going away between the work's commit and its answer would), and the replay must learn
 * that the work was applied instead of applying it again.
 */
const dataset = {
  binaryfiledataset: {
    datatype: 'counts',
    requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
    from: '2024-06-01',
    to: '2024-06-30 23:59:59',
    comment: 'field day',
  },
};
const DEPOSIT = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
/** More species than one transaction takes on the embedded database: its upload is journaled, in steps. */
const SPECIES = 2_600;

let server: TestServer;
let admin: HttpClient;

const db = () => server.server.ctx.db;
const keyRow = (key: string) =>
  db().selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
const versions = async (): Promise<Array<{ from: string | null; job: { kind: string } | null }>> =>
  (await admin.get('/applications/surveys/filesOnRepository/counts')).body;

beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
  await createSurveys(admin);
  await sql`create function refuse_lost_answers() returns trigger language plpgsql as $$
    begin
      if new.status = 'done' and new.key like 'lost-%' then raise exception 'the answer is lost'; end if;
      return new;
    end $$`.execute(db());
  await sql`create trigger refuse_lost_answers before update on idempotency_keys
    for each row execute function refuse_lost_answers()`.execute(db());
});
afterAll(() => server?.close());

describe('a work applied whose answer was never kept', () => {
  it('is not deposited again: the replay of a version and its publication answers 409 ALREADY_APPLIED', async () => {
    const headers = { 'Idempotency-Key': 'lost-deposit' };
    const send = () =>
      admin.post('/applications/surveys/data/counts', {
        body: fileForm(DEPOSIT, fixtureFile(`csv/${DEPOSIT}`), { ...dataset, topublish: true }),
        headers,
      });
    // The answer the database could not keep still reaches the client.
    expect((await send()).status).toBe(202);
    expect((await keyRow('lost-deposit'))?.status).toBe('applied');
    const replay = await send();
    expect([replay.status, replay.body.code]).toEqual([409, 'ALREADY_APPLIED']);
    const kept = await versions();
    expect(kept).toHaveLength(1);
    // Its publication was queued with it.
    expect(kept[0].job?.kind).toBe('publish');
  });

  it('is not created again: the replay of an application streamed answer answers 409 ALREADY_APPLIED', async () => {
    const headers = { 'Idempotency-Key': 'lost-creation' };
    const send = () =>
      admin.post('/applications/lost_surveys', {
        body: fileForm('surveys.yaml', fixtureFile('configurations/surveys.yaml')),
        headers,
      });
    await send();
    expect((await keyRow('lost-creation'))?.status).toBe('applied');
    const replay = await send();
    expect([replay.status, replay.body.code]).toEqual([409, 'ALREADY_APPLIED']);
    expect((await admin.get('/applications/lost_surveys')).body.versions).toHaveLength(1);
  });

  it('is told applied after a load written in steps, above what one transaction takes', async () => {
    const csv = ['code;name', ...Array.from({ length: SPECIES }, (_, i) => `sp${i};Espèce ${i}`)].join('\n');
    const headers = { 'Idempotency-Key': 'lost-species' };
    const send = () =>
      admin.post('/applications/surveys/references/species', {
        body: fileForm('species.csv', new TextEncoder().encode(csv)),
        headers,
      });
    expect((await send()).status).toBe(201);
    expect((await keyRow('lost-species'))?.status).toBe('applied');
    const replay = await send();
    expect([replay.status, replay.body.code]).toEqual([409, 'ALREADY_APPLIED']);
    const rows = await admin.get('/applications/surveys/references/species?limit=1');
    expect(rows.body.totalRows ?? rows.body.total).toBeGreaterThanOrEqual(SPECIES);
  });

  it('keeps nothing of a request whose key another retry took over before it applied', async () => {
    const encoder = new TextEncoder();
    const boundary = '----terrain-taken-over';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const overlapping = 'alps~lac_blanc~15-06-2024~15-07-2024.csv';
    const csv = fixtureFile(`csv/${overlapping}`).toString('utf8');
    const cut = csv.indexOf('\n') + 1;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          encoder.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n${JSON.stringify({
              binaryfiledataset: { ...dataset.binaryfiledataset, from: '2024-06-15', to: '2024-07-15 23:59:59' },
            })}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${overlapping}"\r\nContent-Type: text/csv\r\n\r\n${csv.slice(0, cut)}`,
          ),
        );
        await released;
        controller.enqueue(encoder.encode(`${csv.slice(cut)}\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const answer = fetch(`${server.url}/api/v1/applications/surveys/data/counts`, {
      method: 'POST',
      headers: {
        cookie: admin.cookieHeader,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'idempotency-key': 'taken-over',
      },
      body,
      duplex: 'half',
    } as RequestInit);
    await expect.poll(async () => (await keyRow('taken-over'))?.status).toBe('running');
    // What a retry taking the key over (its lease run out) writes.
    await db().updateTable('idempotency_keys').set({ claim: 'the-retry' }).where('key', '=', 'taken-over').execute();
    release();
    const refused = await answer;
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      409,
      'IDEMPOTENCY_KEY_IN_PROGRESS',
    ]);
    expect((await versions()).filter((version) => version.from?.startsWith('2024-06-15'))).toEqual([]);
    expect(await keyRow('taken-over')).toMatchObject({ status: 'running', claim: 'the-retry' });
  });
});
