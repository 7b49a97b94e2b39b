import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { statementsOf as statementsRead } from './statementsRead.ts';

/**
 * Selections larger than a statement may carry: a statement holds at most 65,535 parameters, and a list written one
 * parameter per item failed with a 500 past that (deleting the files of a large type, an authorization naming many
 * accounts). Lists are passed as one array parameter; the names a grant takes are matched once each.
 */

const FB = '/applications/fieldbook';
const SURVEYS = '/applications/surveys';
const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));
const form = (fileName: string, bytes: Uint8Array) => {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
};

let server: TestServer;
let admin: ApiClient;
const db = () => server.server.ctx.db;
const statementsOf = <T>(work: () => Promise<T>, table?: string) => statementsRead(db(), work, table);
const applicationIdOf = async (name: string) =>
  (await db().selectFrom('applications').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

async function insertInPages<T>(rows: T[], insert: (page: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 2_000) await insert(rows.slice(i, i + 2_000));
}

beforeAll(async () => {
  server = await startTestServer({
    admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
    ...GENEROUS_RATE_LIMITS,
  });
  admin = await signedIn(server, { login: 'root', password: 'root-password' });
  for (const [url, yaml] of [
    [FB, 'fieldbook.yaml'],
    [SURVEYS, 'surveys-requests.yaml'],
  ]) {
    const created = await admin.post(url, { body: form(yaml, file(`configurations/${yaml}`)) });
    expect(created.status, created.text).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('selections past a statement’s parameters', () => {
  it('deletes the 70,000 files of a type in one request, all of them', { timeout: 300_000 }, async () => {
    const applicationId = await applicationIdOf('fieldbook');
    const files = Array.from({ length: 70_000 }, (_, i) => ({
      id: randomUUID(),
      application_id: applicationId,
      file_type: 'protocols',
      file_name: `protocol ${String(i).padStart(5, '0')}.pdf`,
      name_key: `protocol ${String(i).padStart(5, '0')}.pdf`.toLowerCase(),
      size: 10,
      content_id: randomUUID(),
      comment: '',
      fields: JSON.stringify({ title: `t${i}`, issued: '01/01/2024' }),
    }));
    await insertInPages(files, (page) => db().insertInto('additional_files').values(page).execute());
    const params = encodeURIComponent(JSON.stringify({ filetype: 'protocols' }));
    const deleted = await admin.delete(`${FB}/additionalFiles?params=${params}`);
    expect(deleted.status, deleted.text.slice(0, 300)).toBe(200);
    expect(deleted.text.split(',')).toHaveLength(70_000);
    const left = await db()
      .selectFrom('additional_files')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('application_id', '=', applicationId)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('saves a file into a type of 30,000 without reading their names, refusing one taken whatever its case', async () => {
    const applicationId = await applicationIdOf('fieldbook');
    const files = Array.from({ length: 30_000 }, (_, i) => {
      const name = `étude ${String(i).padStart(5, '0')}.pdf`;
      return {
        id: randomUUID(),
        application_id: applicationId,
        file_type: 'protocols',
        file_name: name,
        name_key: name,
        size: 10,
        content_id: randomUUID(),
        fields: JSON.stringify({ title: `t${i}`, issued: '01/01/2024' }),
      };
    });
    await insertInPages(files, (page) => db().insertInto('additional_files').values(page).execute());
    const save = (fileName: string, id: string | null = null) => {
      const body = new FormData();
      body.append(
        'params',
        JSON.stringify({ id, fileName, comment: 'Le protocole', fields: { title: 'Étude', issued: '15/03/2024' } }),
      );
      body.append('file', new Blob([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')]), 'upload.pdf');
      return admin.post(`${FB}/additionalFiles/protocols`, { body });
    };
    // A capital beyond ASCII, which the embedded database's lower() leaves as it is.
    const [taken, , , largest] = await statementsOf(() => save('ÉTUDE 01234.PDF'), 'additional_files');
    expect([taken.status, taken.body.code, taken.body.params]).toEqual([
      409,
      'ADDITIONAL_FILE_EXISTS',
      { name: 'ÉTUDE 01234.PDF' },
    ]);
    expect(largest).toBeLessThan(10);
    const saved = await save('Étude 30000.pdf');
    expect(saved.status, saved.text).toBe(201);
    // Its own name in another case is no clash with itself; another file's is.
    expect((await save('ÉTUDE 30000.PDF', saved.body.id)).status).toBe(200);
    expect((await save('étude 00001.pdf', saved.body.id)).body.code).toBe('ADDITIONAL_FILE_EXISTS');
  });

  it(
    'grants to as many accounts as a grant may name, each once, and refuses as many unknown names with a short 400',
    { timeout: 300_000 },
    async () => {
      const users = Array.from({ length: 10_000 }, (_, i) => ({
        id: randomUUID(),
        login: `g${i}`,
        email: `g${i}@terrain.test`,
        password_hash: 'x',
        state: 'active' as const,
      }));
      await insertInPages(users, (page) => db().insertInto('users').values(page).execute());
      // Named by login in another case or by id, the first one twice: one grant each.
      const named = users.map((u, i) => (i % 4 ? u.login.toUpperCase() : u.id));
      const grants = {
        [`${SURVEYS}/authorization`]: { name: 'everyone', authorizationForAll: { sites: ['extraction'] } },
        [`${FB}/additionalFiles/authorization`]: {
          uuid: null,
          name: 'everyone',
          additionalFiles: { extraction: ['protocols'] },
        },
      };
      for (const [url, grant] of Object.entries(grants)) {
        const [granted, statements] = await statementsOf(() =>
          admin.post(url, { json: { ...grant, usersId: [...named.slice(1), users[0].login] } }),
        );
        expect(granted.status, granted.text.slice(0, 300)).toBe(201);
        expect(statements).toBeLessThan(30);
        const table = url.includes('additionalFiles') ? 'additional_file_authorization_users' : 'authorization_users';
        const links = await db()
          .selectFrom(table)
          .select(['user_id'])
          .where('authorization_id', '=', granted.body.authorizationId ?? granted.body.id)
          .execute();
        expect(links.map((link) => link.user_id).sort()).toEqual(users.map((u) => u.id).sort());

        const nobody = users.map((_, i) => `n${i}`);
        const refused = await admin.post(url, { json: { ...grant, name: 'nobody', usersId: nobody } });
        expect(refused.status, refused.text.slice(0, 300)).toBe(400);
        expect(refused.body.code).toBe('UNKNOWN_USERS');
        // The answer names a few and counts them all: a message of 10,000 names helps nobody.
        expect(refused.body.params.count).toBe(10_000);
        expect(refused.body.params.users).toEqual(nobody.slice(0, 20));
      }
    },
  );
});
