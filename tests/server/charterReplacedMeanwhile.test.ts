/**
 * A charter accepted, as read, while a manager replaces it (race audit M7): the acceptance must not count for the
 * new charter, which the reader never saw. The replacement is held in its transaction, after it holds the
 * application, by a session locking the table of files (PostgreSQL: the embedded database has one session, whose
 * transaction an acceptance always waits for).
 */
import type pg from 'pg';
import { sessionsWaiting, startServerWithHolder } from './raceFixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainUser, type SignedInUser } from './applicationFixtures.ts';
import { createApplication, csvForm, OBSERVATORY_YAML, type DataServer } from './dataFixtures.ts';
import { minimalPdf } from '../fixtures/minimalPdf.ts';

let data: DataServer;
let holder: pg.Client;
let reader: SignedInUser;

let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startServerWithHolder();
  ({ data, close } = started);
  // Only on PostgreSQL, where the tests run.
  if (started.holder) holder = started.holder;
}, 120_000);

afterAll(() => close?.());

const replace = (fileName: string) =>
  data.admin.post('/applications/observatory/additionalFiles/__charter__', {
    body: csvForm(fileName, minimalPdf(fileName), { id: null, fileType: '__charte__' }),
  });

describe.runIf(process.env.DATABASE_URL)('a charter accepted while it is replaced', () => {
  it('is refused as changed, and the new charter is still to accept', async () => {
    await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
    const first = await replace('first.pdf');
    expect(first.status, first.text).toBe(200);
    reader = await plainUser(data.server, 'charterreader');
    const shown = (await data.admin.get('/applications/observatory')).body;
    const { id: applicationId, charterUploadedAt } = shown as { id: string; charterUploadedAt: string };

    await holder.query('begin');
    await holder.query('lock table additional_files in exclusive mode');
    const replaced = replace('second.pdf');
    // The replacement holds the application and waits for the files.
    while ((await sessionsWaiting(holder)) === 0);
    let answered = false;
    const acceptance = reader.client
      .put('/users', {
        json: { login: reader.login, email: reader.email, charte: applicationId, charterUploadedAt },
      })
      .finally(() => (answered = true));
    // The acceptance is answered, or waits for the replacement.
    while (!answered && (await sessionsWaiting(holder)) < 2);
    await holder.query('commit');

    expect((await replaced).status).toBe(200);
    const accepted = await acceptance;
    expect([accepted.status, accepted.body.code], accepted.text).toEqual([409, 'CHARTER_CHANGED']);
    const signing = (await reader.client.get('/applications/observatory')).body;
    expect(signing.mustSignCharter).toBe(true);
  }, 120_000);
});
