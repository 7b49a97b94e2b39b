import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { statementsOf as statementsRead } from './statementsRead.ts';
import { FilesPageSchema } from '../../src/contract/additionalFiles.ts';
import { answerMismatch } from '../../server/http/answerCheck.ts';

/**
 * Every list at real size (adversarial review): each list is seeded well above its page size and any cap, straight
 * in the database, then read whole through the API — by a manager and by someone who may see only part of it — to
 * find items cut, given twice or shown to the wrong person, answers that take seconds, and paging parameters that
 * are not refused with a 4xx.
 */

const APP = '/applications/surveys';
const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));

function form(fileName: string, bytes: Uint8Array | string, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), fileName);
  return data;
}

let server: TestServer;
let admin: ApiClient;
let applicationId: string;

const db = () => server.server.ctx.db;
const applicationIdOf = async (name: string) =>
  (await db().selectFrom('applications').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  server = await startTestServer({
    admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
    ...GENEROUS_RATE_LIMITS,
  });
  admin = await signedIn(server, { login: 'root', password: 'root-password' });
  const created = await admin.post(APP, {
    body: form('surveys-requests.yaml', file('configurations/surveys-requests.yaml')),
  });
  expect(created.status, created.text).toBe(200);
  for (const reference of ['institutes', 'projects', 'sites', 'species']) {
    const loaded = await admin.post(`${APP}/references/${reference}`, {
      body: form(`surveys-${reference}.csv`, file(`csv/surveys-${reference}.csv`)),
    });
    expect(loaded.status, loaded.text).toBe(201);
  }
  const fieldbook = await admin.post('/applications/fieldbook', {
    body: form('fieldbook.yaml', file('configurations/fieldbook.yaml')),
  });
  expect(fieldbook.status, fieldbook.text).toBe(200);
  applicationId = await applicationIdOf('surveys');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const statementsOf = <T>(work: () => Promise<T>, table?: string) => statementsRead(db(), work, table);

/** Accounts stored straight in the database (their password is never used). */
async function insertUsers(prefix: string, count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    login: `${prefix}_${String(i).padStart(5, '0')}`,
    email: `${prefix}_${i}@terrain.test`,
    password_hash: 'x',
    state: 'active' as const,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db()
      .insertInto('users')
      .values(rows.slice(i, i + 500))
      .execute();
  return rows;
}

describe('the platform administrator’s list of accounts (authorizationForAdmin)', () => {
  it('gives 3,000 accounts with their roles in one answer, quickly', async () => {
    const users = await insertUsers('acct', 3_000);
    await db()
      .insertInto('application_roles')
      .values(
        users
          .slice(0, 1_000)
          .map((u) => ({ application_id: applicationId, user_id: u.id, role: 'userManager' as const })),
      )
      .execute();
    const [answer, statements] = await statementsOf(() => admin.get('/authorizationForAdmin'));
    expect(answer.status).toBe(200);
    const listed = answer.body as Array<{ login: string; applicationRoles?: unknown }>;
    const seeded = listed.filter((u) => u.login.startsWith('acct_'));
    expect(seeded.map((u) => u.login)).toEqual(users.map((u) => u.login));
    const managed = (u: (typeof listed)[number]) =>
      JSON.stringify((u as { currentUserRoles?: { applicationRoles?: unknown } }).currentUserRoles?.applicationRoles);
    expect(
      seeded.slice(0, 1_000).every((u) => managed(u) === JSON.stringify({ [applicationId]: ['userManager'] })),
    ).toBe(true);
    expect(seeded.slice(1_000).every((u) => managed(u) === '{}')).toBe(true);
    expect(statements).toBeLessThan(10);
  }, 120_000);
});

describe('the versions of a data type (filesOnRepository)', () => {
  it(
    'lists 3,000 versions whole, to a reader restricted to a site and a year exactly theirs',
    { timeout: 120_000 },
    async () => {
      const header = 'project;site;species;day;individuals\n';
      const deposited = await admin.post(`${APP}/data/counts`, {
        body: form('a.csv', `${header}alps;lac_blanc;lagopus;12/06/2024;5\n`, {
          binaryfiledataset: {
            datatype: 'counts',
            requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
            from: '2024-06-01',
            to: '2024-06-30',
          },
          topublish: false,
        }),
      });
      expect(deposited.status, deposited.text).toBe(201);
      const model = await db()
        .selectFrom('deposit_files')
        .selectAll()
        .where('id', '=', deposited.body.fileId)
        .executeTakeFirstOrThrow();
      const files = Array.from({ length: 3_000 }, (_, i) => {
        const site = i % 2 === 0 ? 'lac_blanc' : 'mont_joly';
        const year = i % 3 === 0 ? 2023 : 2024;
        const month = (i % 12) + 1;
        return {
          ...model,
          id: randomUUID(),
          file_name: `v${i}.csv`,
          scope: JSON.stringify({ ...model.scope, site: model.scope.site.replace('lac_blanc', site) }),
          period_from: new Date(Date.UTC(year, month - 1, 1)),
          period_to: new Date(Date.UTC(year, month - 1, 28)),
          published: i % 4 !== 3,
          // Pairs deposited at the same instant: an order on the date alone leaves them in any order.
          created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 1000),
        };
      });
      for (let i = 0; i < files.length; i += 500)
        await db()
          .insertInto('deposit_files')
          .values(files.slice(i, i + 500))
          .execute();
      // Three jobs per version (published, unpublished, published again): the list gives the newest.
      const jobs = files.flatMap((f) =>
        (['publish', 'unpublish', 'publish'] as const).map((kind, k) => ({
          id: randomUUID(),
          kind,
          application_id: applicationId,
          file_id: f.id,
          status: 'done' as const,
          progress: k === 2 ? 1 : 0.5,
          payload: '{}',
          created_at: new Date(Date.UTC(2025, 1, 1) + k * 1000),
        })),
      );
      for (let i = 0; i < jobs.length; i += 500)
        await db()
          .insertInto('jobs')
          .values(jobs.slice(i, i + 500))
          .execute();
      const [all, statements, rowsRead] = await statementsOf(() => admin.get(`${APP}/filesOnRepository/counts`));
      expect(all.status).toBe(200);
      const newest = new Map<string, string>(jobs.filter((j) => j.progress === 1).map((j) => [j.file_id, j.id]));
      expect(
        (all.body as Array<{ id: string; job: { id: string } | null }>).every(
          (v) => v.id === model.id || v.job?.id === newest.get(v.id),
        ),
      ).toBe(true);
      // Each version and its newest job, not every job it ever had.
      expect(rowsRead).toBeLessThan(2 * 3_001 + 100);
      expect((all.body as Array<{ id: string }>).map((v) => v.id).sort()).toEqual(
        [model.id, ...files.map((f) => f.id)].sort(),
      );
      expect(statements).toBeLessThan(20);

      const account = await activeAccount(server, newIdentity('versions'));
      const granted = await admin.post(`${APP}/authorization`, {
        json: {
          name: 'lac blanc 2024',
          usersId: [account.login],
          authorizationsWithRestriction: {
            counts: {
              operationTypes: ['extraction'],
              requiredAuthorizations: { site: ['sitesKlac_blanc'] },
              timeScope: { fromDay: '2024-01-01', toDay: '2024-12-31' },
            },
          },
        },
      });
      expect(granted.status, granted.text).toBe(201);
      const reader = await signedIn(server, account);
      const mine = await reader.get(`${APP}/filesOnRepository/counts`);
      expect(mine.status).toBe(200);
      const expected = files
        .filter((f) => f.published && f.scope.includes('lac_blanc') && f.period_from.getUTCFullYear() === 2024)
        .map((f) => f.id);
      expect((mine.body as Array<{ id: string }>).map((v) => v.id).sort()).toEqual(expected.sort());
    },
  );
});

describe('rights requests', () => {
  it('pages 2,045 requests completely, and a requester pages exactly their own', { timeout: 120_000 }, async () => {
    const users = await insertUsers('asker', 1_000);
    const account = await activeAccount(server, newIdentity('requester'));
    const requester = await signedIn(server, account);
    const me = (await requester.get('/me')).body.id as string;
    const rules = JSON.stringify({ forAll: { sites: ['extraction'] }, restricted: {} });
    const rows = [
      ...users.flatMap((u, i) => [0, 1].map((k) => ({ user_id: u.id, at: Math.floor((2 * i + k) / 3) }))),
      ...Array.from({ length: 45 }, (_, i) => ({ user_id: me, at: i * 10 })),
    ].map(({ user_id, at }, i) => ({
      id: randomUUID(),
      application_id: applicationId,
      user_id,
      comment: 'c',
      fields: JSON.stringify({ purpose: `study ${i}` }),
      rules,
      // Three requests per instant: the order must break ties.
      created_at: new Date(Date.UTC(2025, 0, 1) + at * 1000),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db()
        .insertInto('rights_requests')
        .values(rows.slice(i, i + 500))
        .execute();
    const page = (client: ApiClient, params: object) =>
      client.get(`${APP}/rightsRequest?params=${encodeURIComponent(JSON.stringify(params))}`);
    const ids: string[] = [];
    const totals = new Set<number>();
    let most = 0;
    for (let offset = 0; ; offset += 30) {
      const [answer, statements] = await statementsOf(() => page(admin, { offset, limit: 30 }));
      most = Math.max(most, statements);
      expect(answer.status).toBe(200);
      totals.add(answer.body.total);
      const got = (answer.body.rightsRequests as Array<{ id: string }>).map((r) => r.id);
      ids.push(...got);
      if (got.length < 30) break;
    }
    expect(most).toBeLessThan(20);
    expect([...totals]).toEqual([rows.length]);
    expect(new Set(ids).size).toBe(rows.length);
    // A regular expression is run on the requests a page of them at a time: ties of the order at a page's end
    // neither lost nor given twice, and the same order as without it.
    const fifth = { fieldFilters: [{ field: 'purpose', filter: '^STUDY \\d*[05]$', isRegExp: true }] };
    const matched: string[] = [];
    for (let offset = 0; offset < rows.length; offset += 100) {
      const answer = await page(admin, { ...fifth, offset, limit: 100 });
      expect(answer.body.total).toBe(Math.ceil(rows.length / 5));
      matched.push(...(answer.body.rightsRequests as Array<{ id: string }>).map((r) => r.id));
    }
    const fifths = new Set<string>(rows.filter((_, i) => i % 5 === 0).map((r) => r.id));
    expect(matched).toEqual(ids.filter((id) => fifths.has(id)));
    const own: string[] = [];
    for (let offset = 0; offset < 90; offset += 30) {
      const answer = await page(requester, { offset, limit: 30 });
      expect(answer.body.total).toBe(45);
      own.push(...(answer.body.rightsRequests as Array<{ id: string }>).map((r) => r.id));
    }
    expect(own.sort()).toEqual(
      rows
        .filter((r) => r.user_id === me)
        .map((r) => r.id)
        .sort(),
    );
    for (const bad of [
      '{"offset":-1}',
      '{"limit":-3}',
      '{"limit":1.5}',
      '{"limit":"ten"}',
      '{"offset":1e300}',
      'nope',
    ]) {
      const answer = await admin.get(`${APP}/rightsRequest?params=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(400);
    }
    // A page of none gives the total alone (it gave every request).
    const none = await page(admin, { limit: 0 });
    expect(none.body.total).toBe(rows.length);
    expect(none.body.rightsRequests).toEqual([]);
    // Without a page, every request, as the original answers.
    const whole = await admin.get(`${APP}/rightsRequest`);
    expect(whole.body.rightsRequests).toHaveLength(rows.length);
  });
});

describe('authorizations', () => {
  it('lists 2,000 grants, and what may be granted to 3,000+ accounts', { timeout: 120_000 }, async () => {
    const users = await insertUsers('grantee', 2_000);
    const rules = JSON.stringify({ forAll: { sites: ['extraction'] }, restricted: {} });
    const grants = users.map((u, i) => ({
      id: randomUUID(),
      application_id: applicationId,
      name: `grant ${String(i % 700).padStart(4, '0')}`,
      rules,
    }));
    for (let i = 0; i < grants.length; i += 500)
      await db()
        .insertInto('authorizations')
        .values(grants.slice(i, i + 500))
        .execute();
    const links = grants.map((g, i) => ({ authorization_id: g.id, user_id: users[i].id }));
    for (let i = 0; i < links.length; i += 500)
      await db()
        .insertInto('authorization_users')
        .values(links.slice(i, i + 500))
        .execute();
    const [list, statements] = await statementsOf(() => admin.get(`${APP}/authorization`));
    expect(list.status).toBe(200);
    const listed = list.body.authorizationResults as Array<{
      uuid: string;
      name: string;
      users: Array<{ id: string }>;
    }>;
    const byId = new Map(listed.map((a) => [a.uuid, a]));
    // 2,000 grants under 700 names: the same order at every read (the screen pages them), by name then id.
    expect(listed.map((a) => a.uuid)).toEqual(
      [...listed]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0))
        .map((a) => a.uuid),
    );
    expect(
      grants.every(
        (g, i) =>
          byId
            .get(g.id)
            ?.users.map((u) => u.id)
            .join() === users[i].id,
      ),
    ).toBe(true);
    expect(statements).toBeLessThan(20);
    const everyone = await db().selectFrom('users').select('id').where('state', '=', 'active').execute();
    const [grantable, grantableStatements] = await statementsOf(() => admin.get(`${APP}/grantable`));
    expect(grantable.status).toBe(200);
    // Every active account, and _public_.
    expect(grantable.body.users).toHaveLength(everyone.length + 1);
    expect(grantableStatements).toBeLessThan(30);
    const [managers, managersStatements] = await statementsOf(() =>
      admin.get(`${APP}/authorizationAdminForApplication`),
    );
    expect(managers.body).toHaveLength(everyone.length);
    expect(managersStatements).toBeLessThan(20);
  });
});

describe('applications', () => {
  it('streams 1,200 applications', { timeout: 120_000 }, async () => {
    const { insertApplications } = await import('./applicationFixtures.ts');
    await insertApplications(
      server,
      Array.from({ length: 1_200 }, (_, i) => `many_${String(i).padStart(4, '0')}`),
    );
    const account = await activeAccount(server, newIdentity('browser'));
    const plain = await signedIn(server, account);
    const [answer, statements] = await statementsOf(() => plain.get('/applications'));
    const names = answer.text
      .split('\n')
      .filter((l) => l.includes('"type":"result"'))
      .map((l) => JSON.parse(l).result.name as string);
    expect(names).toEqual(
      ['fieldbook', 'surveys', ...Array.from({ length: 1_200 }, (_, i) => `many_${String(i).padStart(4, '0')}`)].sort(),
    );
    // Read a page at a time, not a statement per application.
    expect(statements).toBeLessThan(120);
  });
});

describe('additional files', () => {
  it(
    'pages 2,500 files of a type completely, with each one’s rights for a user who may delete only their own',
    { timeout: 120_000 },
    async () => {
      const FB = '/applications/fieldbook';

      const fieldbookId = await applicationIdOf('fieldbook');
      const account = await activeAccount(server, newIdentity('owner'));
      const owner = await signedIn(server, account);
      const ownerId = (await owner.get('/me')).body.id as string;
      const granted = await admin.post(`${FB}/additionalFiles/authorization`, {
        json: {
          uuid: null,
          name: 'deposit protocols',
          usersId: [account.login],
          additionalFiles: { depot: ['protocols'] },
        },
      });
      expect(granted.status, granted.text).toBe(201);
      const files = Array.from({ length: 2_500 }, (_, i) => ({
        id: randomUUID(),
        application_id: fieldbookId,
        file_type: 'protocols',
        // Names equal but for their case: the order must still be one.
        file_name: `${i % 2 ? 'P' : 'p'}rotocol ${String(Math.floor(i / 2)).padStart(4, '0')}.pdf`,
        name_key: `${i % 2 ? 'P' : 'p'}rotocol ${String(Math.floor(i / 2)).padStart(4, '0')}.pdf`.toLowerCase(),
        size: 10,
        content_id: randomUUID(),
        comment: 'c',
        fields: JSON.stringify({ title: `t${i}`, issued: '01/01/2024' }),
        owner_id: i % 5 === 0 ? ownerId : null,
      }));
      for (let i = 0; i < files.length; i += 500)
        await db()
          .insertInto('additional_files')
          .values(files.slice(i, i + 500))
          .execute();
      const page = (client: ApiClient, params: object) =>
        client.get(`${FB}/additionalFiles/protocols?params=${encodeURIComponent(JSON.stringify(params))}`);
      for (const size of [30, 500]) {
        const seen: Array<{ id: string; mayDelete: boolean; mayEdit: boolean }> = [];
        let most = 0;
        let mostRows = 0;
        for (let offset = 0; offset < 2_600; offset += size) {
          const [answer, statements, rows] = await statementsOf(() => page(owner, { offset, limit: size }));
          most = Math.max(most, statements);
          mostRows = Math.max(mostRows, rows);
          expect(answer.status, answer.text).toBe(200);
          expect(answer.body.totalCount).toBe(2_500);
          seen.push(...answer.body.additionalBinaryFiles);
        }
        expect(most).toBeLessThan(20);
        // The page and every name of the type (to warn of a name taken), not every file to cut a page from.
        expect(mostRows).toBeLessThan(2_500 + size + 100);
        expect(seen.map((f) => f.id).sort()).toEqual(files.map((f) => f.id).sort());
        expect(seen.filter((f) => f.mayDelete).length).toBe(500);
      }
      for (const bad of [
        { limit: 501 },
        { offset: -1 },
        { limit: 'x' },
        { offset: 0.5 },
        { offset: 1e300 },
        { fileNames: ['\u0000'] },
      ]) {
        const answer = await page(owner, bad);
        expect(answer.status, JSON.stringify(bad)).toBe(400);
        expect(answer.body.code).toBe('BAD_FILES_QUERY');
      }
      // The zip and the deletion read the same selection.
      const nul = encodeURIComponent(JSON.stringify({ filetype: '\u0000', fileNames: ['\u0000'] }));
      expect((await owner.get(`${FB}/additionalFiles?params=${nul}`)).status).toBe(400);
      expect((await owner.delete(`${FB}/additionalFiles?params=${nul}`)).status).toBe(400);
      // Without a page, every file, written as read a page of them at a time: the answer the pages give together.
      const paged: Array<{ id: string }> = [];
      for (let offset = 0; offset < 2_500; offset += 500)
        paged.push(...(await page(owner, { offset, limit: 500 })).body.additionalBinaryFiles);
      const [whole, wholeStatements] = await statementsOf(() => page(owner, {}));
      expect(whole.status).toBe(200);
      expect(answerMismatch(FilesPageSchema, whole.body)).toBeNull();
      expect(whole.body.additionalBinaryFiles).toEqual(paged);
      expect(whole.body).toMatchObject({ totalCount: 2_500, offset: 0, limit: null, additionalFileName: 'protocols' });
      expect(whole.body.fileNames).toHaveLength(2_500);
      expect(new Set(whole.body.users.map((u: { id: string }) => u.id))).toEqual(new Set([ownerId]));
      expect(wholeStatements).toBeGreaterThan(3);
      const rest = await page(owner, { offset: 1_234 });
      expect(rest.body.additionalBinaryFiles).toEqual(paged.slice(1_234));
      expect(rest.body.totalCount).toBe(2_500);
      const far = await page(owner, { offset: Number.MAX_SAFE_INTEGER, limit: 30 });
      expect([far.status, far.body.additionalBinaryFiles, far.body.totalCount]).toEqual([200, [], 2_500]);
      const none = await page(owner, { limit: 0 });
      expect([none.body.additionalBinaryFiles, none.body.totalCount]).toEqual([[], 2_500]);
      // A field filter pages the files it keeps, counted the same way.
      const filtered: string[] = [];
      const filter = { additionalFilesInfos: { protocols: { fieldFilters: [{ field: 'title', filter: 't1' }] } } };
      for (let offset = 0; offset < 1_200; offset += 100) {
        const answer = await page(owner, { ...filter, offset, limit: 100 });
        expect(answer.body.totalCount).toBe(files.filter((f) => f.fields.includes('"t1')).length);
        filtered.push(...(answer.body.additionalBinaryFiles as Array<{ id: string }>).map((f) => f.id));
      }
      expect(filtered.sort()).toEqual(
        files
          .filter((f) => f.fields.includes('"t1'))
          .map((f) => f.id)
          .sort(),
      );

      const users = await insertUsers('filer', 2_000);
      const auths = users.map((u, i) => ({
        id: randomUUID(),
        application_id: fieldbookId,
        name: `files ${i % 900}`,
        // One in three names the photos too: their administrator sees those only.
        rights: JSON.stringify({ extraction: i % 3 === 0 ? ['protocols', 'photos'] : ['protocols'] }),
      }));
      for (let i = 0; i < auths.length; i += 500)
        await db()
          .insertInto('additional_file_authorizations')
          .values(auths.slice(i, i + 500))
          .execute();
      const links = auths.map((a, i) => ({ authorization_id: a.id, user_id: users[i].id }));
      for (let i = 0; i < links.length; i += 500)
        await db()
          .insertInto('additional_file_authorization_users')
          .values(links.slice(i, i + 500))
          .execute();
      const [list, statements] = await statementsOf(() => admin.get(`${FB}/additionalFiles/authorization`));
      expect(list.status).toBe(200);
      const listed = list.body.authorizationResults as Array<{ uuid: string; users: Array<{ id: string }> }>;
      const byId = new Map(listed.map((a) => [a.uuid, a]));
      expect(
        auths.every(
          (a, i) =>
            byId
              .get(a.id)
              ?.users.map((u) => u.id)
              .join() === users[i].id,
        ),
      ).toBe(true);
      expect(statements).toBeLessThan(20);
      const one = await admin.get(`${FB}/additionalFiles/authorization/${users[7].login}`);
      expect(one.body.additionalFiles).toEqual({ extraction: ['protocols'] });
      const photoAdmin = await activeAccount(server, newIdentity('photoadmin'));
      const givenPhotos = await admin.post(`${FB}/additionalFiles/authorization`, {
        json: {
          uuid: null,
          name: 'photo administration',
          usersId: [photoAdmin.login],
          additionalFiles: { admin: ['photos'] },
        },
      });
      expect(givenPhotos.status, givenPhotos.text).toBe(201);
      const partial = await (await signedIn(server, photoAdmin)).get(`${FB}/additionalFiles/authorization`);
      expect(partial.status).toBe(200);
      expect((partial.body.authorizationResults as Array<{ uuid: string }>).map((a) => a.uuid).sort()).toEqual(
        [givenPhotos.body.authorizationId, ...auths.filter((_, i) => i % 3 === 0).map((a) => a.id)].sort(),
      );
    },
  );
});

describe('reference fields of forms', () => {
  it(
    'offer a reference of 5,000 rows as codes, not as a list sent with every page, label the values shown and check one value without reading the reference',
    { timeout: 120_000 },
    async () => {
      const FB = '/applications/fieldbook';
      const fieldbookId = await applicationIdOf('fieldbook');
      const sites = Array.from({ length: 5_000 }, (_, i) => ({
        id: randomUUID(),
        application_id: fieldbookId,
        data_name: 'sites',
        natural_key: `site_${String(i).padStart(4, '0')}`,
        hierarchical_key: `sitesKsite_${String(i).padStart(4, '0')}`,
        values: JSON.stringify({ code: `site_${String(i).padStart(4, '0')}`, label: `Site n° ${i}` }),
      }));
      for (let i = 0; i < sites.length; i += 1_000)
        await db()
          .insertInto('data_rows')
          .values(sites.slice(i, i + 1_000))
          .execute();
      const photos = Array.from({ length: 40 }, (_, i) => ({
        id: randomUUID(),
        application_id: fieldbookId,
        file_type: 'protocols',
        file_name: `sited ${String(i).padStart(2, '0')}.pdf`,
        name_key: `sited ${String(i).padStart(2, '0')}.pdf`.toLowerCase(),
        size: 10,
        content_id: randomUUID(),
        fields: JSON.stringify({
          title: `t${i}`,
          issued: '01/01/2024',
          site: `site_${String(i * 7).padStart(4, '0')}`,
        }),
      }));
      await db().insertInto('additional_files').values(photos).execute();
      const params = { additionalFilesInfos: { protocols: { fieldFilters: [{ field: 'title', filter: 't' }] } } };
      const [page, statements] = await statementsOf(() =>
        admin.get(
          `${FB}/additionalFiles/protocols?params=${encodeURIComponent(JSON.stringify({ ...params, fileNames: photos.map((p) => p.file_name), offset: 10, limit: 20 }))}`,
        ),
      );
      expect(page.status, page.text).toBe(200);
      expect(statements).toBeLessThan(20);
      // An answer of a page, not of every site (2.6 MB and half a second for 50,000 sites).
      expect(page.text.length).toBeLessThan(100_000);
      expect(page.body.fieldChoices.site).toBeUndefined();
      const shown = (page.body.additionalBinaryFiles as Array<{ additionalBinaryFileForm: { site: string } }>).map(
        (f) => f.additionalBinaryFileForm.site,
      );
      expect(shown).toHaveLength(20);
      expect(
        (page.body.valueLabels.site as Array<{ naturalKey: string; label: string }>)
          .map((c) => `${c.naturalKey}=${c.label}`)
          .sort(),
      ).toEqual(shown.map((key) => `${key}=Site n° ${Number(key.slice(5))}`).sort());
      const detail = await admin.get(`${FB}/additionalFiles/protocols/${photos[3].id}`);
      expect(detail.body.fieldChoices.site).toBeUndefined();
      expect(detail.body.valueLabels.site).toEqual([{ naturalKey: 'site_0021', label: 'Site n° 21' }]);
      // The code of one of the 5,000 rows is still checked when a file is sent.
      const send = (site: string) => {
        const data = new FormData();
        data.append(
          'params',
          JSON.stringify({
            id: null,
            fileName: `new ${site}.pdf`,
            comment: 'c',
            fields: { title: 'x', issued: '02/01/2024', site },
          }),
        );
        data.append('file', new Blob(['%PDF-1.4\n%%EOF\n']), 'p.pdf');
        return admin.post(`${FB}/additionalFiles/protocols`, { body: data });
      };
      // Checked by looking up what the value may designate, not by reading the 5,000 sites.
      const [known, , knownRowsRead] = await statementsOf(() => send('Site_4999'), 'data_rows');
      expect(known.status, known.text).toBe(201);
      expect(knownRowsRead).toBeLessThan(100);
      const [unknown, , unknownRowsRead] = await statementsOf(() => send('site_5000'), 'data_rows');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'INVALID_ADDITIONAL_FILE_FIELD', params: { field: 'site' } });
      expect(unknownRowsRead).toBeLessThan(100);

      // The rights-request form: the institutes, grown past the list's size, are typed as codes too.
      const small = await admin.get(`${APP}/rightsRequest/options`);
      expect(small.body.fieldChoices.institute.length).toBeGreaterThan(0);
      const institutes = Array.from({ length: 20_000 }, (_, i) => ({
        id: randomUUID(),
        application_id: applicationId,
        data_name: 'institutes',
        natural_key: `inst_${i}`,
        hierarchical_key: `institutesKinst_${i}`,
        values: JSON.stringify({ code: `inst_${i}`, label: `Institute ${i}` }),
      }));
      for (let i = 0; i < institutes.length; i += 1_000)
        await db()
          .insertInto('data_rows')
          .values(institutes.slice(i, i + 1_000))
          .execute();
      const large = await admin.get(`${APP}/rightsRequest/options`);
      expect(large.status).toBe(200);
      expect(large.body.fieldChoices.institute).toBeUndefined();
      const ask = (institute: string) =>
        admin.post(`${APP}/rightsRequest`, {
          json: {
            fields: { institute, purpose: 'p', orcid: '0000-0002-1825-0097', until: '31/12/2025' },
            rightsRequest: { authorizationForAll: { sites: ['extraction'] } },
            comment: 'For a thesis',
          },
        });
      const [asked, , askedRowsRead] = await statementsOf(() => ask('Inst_19999'), 'data_rows');
      expect(asked.status, asked.text).toBe(201);
      expect(askedRowsRead).toBeLessThan(100);
      // The grant screen names the institute by its label: the list gives the labels of the values it holds, read
      // from the rows they designate (the code was typed in another case), not from the 20,000 institutes.
      const id = (asked.body as { id: string }).id;
      const byId = encodeURIComponent(JSON.stringify({ uuids: [id] }));
      const [listed, , listedRowsRead] = await statementsOf(
        () => admin.get(`${APP}/rightsRequest?params=${byId}`, { headers: { 'accept-language': 'en' } }),
        'data_rows',
      );
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.valueLabels).toEqual({ institute: [{ naturalKey: 'Inst_19999', label: 'Institute 19999' }] });
      expect(listedRowsRead).toBeLessThan(10);
      const [refused, , refusedRowsRead] = await statementsOf(() => ask('inst_20000'), 'data_rows');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'INVALID_RIGHTS_REQUEST_FIELD',
        params: { field: 'institute', problem: 'invalidReferenceWithComponent' },
      });
      expect(refused.body.params.problemParams.referenceValues).toHaveLength(10);
      expect(refusedRowsRead).toBeLessThan(100);
    },
  );
});
