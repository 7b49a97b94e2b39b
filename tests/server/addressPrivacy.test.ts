import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn, type Account } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * E-mail addresses in the rights screens (accounts audit): the lists of users an application's staff choose from,
 * and the people of its authorizations, name them by login. Only platform administrators read addresses there;
 * everyone keeps reading their own.
 */

const fixtures = path.resolve(import.meta.dirname, '../fixtures/configurations');
const APP = '/applications/fieldbook';
const ROOT_EMAIL = 'root@terrain.test';

let server: TestServer;
let admin: ApiClient;
const people = {} as Record<'userManager' | 'photoAdmin' | 'reader' | 'bystander', Account & { client: ApiClient }>;

/** Every address the platform holds but `own`. */
const othersOf = (own: string) =>
  [ROOT_EMAIL, ...Object.values(people).map((p) => p.email)].filter((email) => email !== own);

/** The answer names no address but the caller's own. */
function expectNoAddressOfOthers(text: string, own: string) {
  for (const email of othersOf(own)) expect(text, `${email} in ${text.slice(0, 200)}…`).not.toContain(email);
}

beforeAll(async () => {
  server = await startTestServer({
    admin: { login: 'root', password: 'root-password', email: ROOT_EMAIL },
    ...GENEROUS_RATE_LIMITS,
  });
  admin = await signedIn(server, { login: 'root', password: 'root-password' });
  const form = new FormData();
  form.append(
    'file',
    new Blob([readFileSync(path.join(fixtures, 'fieldbook.yaml'))], { type: 'application/yaml' }),
    'fieldbook.yaml',
  );
  expect((await admin.post(APP, { body: form })).text).toContain('"type":"result"');
  for (const role of ['userManager', 'photoAdmin', 'reader', 'bystander'] as const) {
    const account = await activeAccount(server, newIdentity(role.toLowerCase()));
    people[role] = { ...account, client: await signedIn(server, account) };
  }
  const role = await admin.put(
    `/authorization/userManager?userIdOrLogin=${people.userManager.login}&applicationNameOrId=fieldbook`,
  );
  expect(role.status, role.text).toBe(200);
  const fileGrant = await admin.post(`${APP}/additionalFiles/authorization`, {
    json: {
      uuid: null,
      name: 'photo administration',
      usersId: [people.photoAdmin.login, people.reader.login],
      additionalFiles: { admin: ['photos'] },
    },
  });
  expect(fileGrant.status, fileGrant.text).toBe(201);
  const dataGrant = await admin.post(`${APP}/authorization`, {
    json: {
      uuid: null,
      name: 'counts reading',
      usersId: [people.reader.login, people.userManager.login],
      authorizationForAll: { counts: ['extraction'] },
    },
  });
  expect(dataGrant.status, dataGrant.text).toBe(201);
});
afterAll(() => server?.close());

describe('addresses in the rights screens', () => {
  it('are not shown to a user manager: users to choose, users of the application, authorizations, by login only', async () => {
    const { client, email, login } = people.userManager;
    const grantable = await client.get(`${APP}/grantable`);
    expect(grantable.status, grantable.text).toBe(200);
    expectNoAddressOfOthers(grantable.text, email);
    const reader = grantable.body.users.find((u: { login: string }) => u.login === people.reader.login);
    expect(reader).toEqual({ id: people.reader.id, label: people.reader.login, login: people.reader.login });
    // Their own address stays theirs to read.
    expect(grantable.body.users.find((u: { login: string }) => u.login === login).email).toBe(email);

    const users = await client.get(`${APP}/authorizationAdminForApplication`);
    expect(users.status, users.text).toBe(200);
    expectNoAddressOfOthers(users.text, email);
    expect(users.body.find((u: { login: string }) => u.login === people.reader.login)).not.toHaveProperty('email');

    const list = await client.get(`${APP}/authorization`);
    expect(list.status, list.text).toBe(200);
    expectNoAddressOfOthers(list.text, email);
    const [reading] = list.body.authorizationResults;
    expect(reading.users).toContainEqual({ id: people.reader.id, login: people.reader.login });
    const one = await client.get(`${APP}/authorization/${reading.uuid}`);
    expect(one.status, one.text).toBe(200);
    expectNoAddressOfOthers(one.text, email);

    // User managers see the additional-file authorizations too (their screen for data rights).
    const files = await client.get(`${APP}/additionalFiles/authorization`);
    expect(files.status, files.text).toBe(200);
    expectNoAddressOfOthers(files.text, email);
  });

  it('are not shown to the administrator of a file type', async () => {
    const { client, email } = people.photoAdmin;
    const files = await client.get(`${APP}/additionalFiles/authorization`);
    expect(files.status, files.text).toBe(200);
    expect(files.body.users.length).toBeGreaterThan(4);
    expect(files.body.authorizationResults[0].users).toHaveLength(2);
    expectNoAddressOfOthers(files.text, email);
    expect(files.body.users.find((u: { login: string }) => u.login === people.reader.login)).toEqual({
      id: people.reader.id,
      login: people.reader.login,
    });
    const byUser = await client.get(`${APP}/additionalfiles/authorization?userId=${people.reader.login}`);
    expect(byUser.status, byUser.text).toBe(200);
    expectNoAddressOfOthers(byUser.text, email);
  });

  it('are shown to a platform administrator', async () => {
    const expectAllAddresses = (text: string) => {
      for (const email of othersOf(ROOT_EMAIL)) expect(text).toContain(email);
    };
    expectAllAddresses((await admin.get(`${APP}/grantable`)).text);
    expectAllAddresses((await admin.get(`${APP}/authorizationAdminForApplication`)).text);
    expectAllAddresses((await admin.get(`${APP}/additionalFiles/authorization`)).text);
    const list = await admin.get(`${APP}/authorization`);
    expect(list.body.authorizationResults[0].users).toContainEqual({
      id: people.reader.id,
      login: people.reader.login,
      email: people.reader.email,
    });
    const files = await admin.get(`${APP}/additionalFiles/authorization`);
    expect(files.body.authorizationResults[0].users).toContainEqual({
      id: people.photoAdmin.id,
      login: people.photoAdmin.login,
      email: people.photoAdmin.email,
    });
  });
});
