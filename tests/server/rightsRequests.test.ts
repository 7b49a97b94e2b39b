import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, mailsTo, signedIn, type Account } from './accountFixtures.ts';
import { api, expectNoLeakInRecordedAnswers, type ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Rights requests over HTTP on surveys-requests.yaml (the surveys application with a request form: an institute
 * from a reference, a purpose, an ORCID identifier with a pattern and a date): a user asks, sees their own
 * requests and modifies an open one; managers and user managers see them all, grant them (one step: the
 * authorization is created for the requester, never beyond what the granter may give) or close them; mails
 * tell managers of a new request and the requester of the outcome, in the requester's language.
 */

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));
const APP = '/applications/surveys';

function form(fileName: string, bytes: Uint8Array | string, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), fileName);
  return data;
}

const header = 'project;site;species;day;individuals\n';
const dataset = (project: string, site: string, from: string, to: string) => ({
  binaryfiledataset: { datatype: 'counts', requiredAuthorizations: { project, site }, from, to },
  topublish: true,
});

let server: TestServer;
let admin: ApiClient;

async function publish(name: string, lines: string[], params: object) {
  const answer = await admin.post(`${APP}/data/counts`, { body: form(name, header + lines.join('\n') + '\n', params) });
  expect(answer.status, answer.text).toBe(202);
  for (let i = 0; i < 200; i++) {
    const state = (await admin.get(`${APP}/file/${answer.body.fileId}/publication-state`)).body;
    if (state.job?.status === 'done') return;
    if (state.job?.status === 'failed') throw new Error(JSON.stringify(state.job.error));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('publication did not end');
}

const FIELDS = {
  institute: 'inrae',
  purpose: 'A thesis on rock ptarmigans',
  orcid: '0000-0002-1825-0097',
  until: '31/12/2025',
};
/** Reading the counts of Lac Blanc, as the request form sends it. */
const LAC_BLANC = {
  authorizationsWithRestriction: {
    counts: { operationTypes: ['extraction'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
  },
};

const ask = (client: ApiClient, body: object, language = 'fr') =>
  client.post(`${APP}/rightsRequest`, { json: body, headers: { 'Accept-Language': language } });
const list = (client: ApiClient, params?: object) =>
  client.get(`${APP}/rightsRequest${params ? `?params=${encodeURIComponent(JSON.stringify(params))}` : ''}`);
const countKeys = async (client: ApiClient) => {
  const answer = await client.get(
    `${APP}/data/counts/json?downloadDatasetQuery=${encodeURIComponent(JSON.stringify({ limit: 100 }))}`,
  );
  return answer.status === 200
    ? (answer.body.rows as Array<{ naturalKey: string }>).map((r) => r.naturalKey).sort()
    : answer.status;
};

beforeAll(async () => {
  server = await startTestServer({
    admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
    ...GENEROUS_RATE_LIMITS,
  });
  admin = await signedIn(server, { login: 'root', password: 'root-password' });
  expect(
    (await admin.post(APP, { body: form('surveys-requests.yaml', file('configurations/surveys-requests.yaml')) }))
      .status,
  ).toBe(200);
  for (const reference of ['institutes', 'projects', 'sites', 'species']) {
    const loaded = await admin.post(`${APP}/references/${reference}`, {
      body: form(`surveys-${reference}.csv`, file(`csv/surveys-${reference}.csv`)),
    });
    expect(loaded.status, loaded.text).toBe(201);
  }
  await publish(
    'a.csv',
    ['alps;lac_blanc;tichodroma;02/06/2024;3', 'alps;lac_blanc;lagopus;12/06/2024;5'],
    dataset('alps', 'lac_blanc', '2024-06-01', '2024-06-30'),
  );
  await publish(
    'c.csv',
    ['pyrenees;mont_joly;lagopus;05/06/2024;7'],
    dataset('pyrenees', 'mont_joly', '2024-06-01', '2024-06-30'),
  );
});
afterAll(async () => {
  expectNoLeakInRecordedAnswers();
  await server?.close();
});

describe('a user asking for rights', () => {
  let account: Account;
  let user: ApiClient;
  let requestId: string;

  beforeAll(async () => {
    account = await activeAccount(server);
    user = await signedIn(server, account);
  });

  it('gets the form’s choices and the scope trees, without managing anything', async () => {
    const options = await user.get(`${APP}/rightsRequest/options`);
    expect(options.status).toBe(200);
    expect(options.body.fieldChoices.institute.map((c: { naturalKey: string }) => c.naturalKey)).toEqual([
      'cnrs',
      'inrae',
      'univ_savoie',
    ]);
    expect(options.body.referenceScopes.counts.map((s: { id: string }) => s.id)).toEqual(['project', 'site']);
    expect(options.body.authorizationsForUser).toMatchObject({ isAdministrator: false, treatsRequests: false });
  });

  it('sends a request: it is open, theirs, and the managers are told in the application’s language', async () => {
    const before = (await mailsTo(server, 'root@terrain.test')).length;
    const created = await ask(
      user,
      { id: null, fields: FIELDS, rightsRequest: LAC_BLANC, comment: '  I need the June counts.  ' },
      'en',
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', authorizationId: null });
    requestId = created.body.id;

    const own = await list(user);
    expect(own.body.total).toBe(1);
    expect(own.body.rightsRequests[0]).toMatchObject({
      id: requestId,
      user: account.id,
      userLogin: account.login,
      userEmail: account.email,
      comment: 'I need the June counts.',
      rightsRequestForm: FIELDS,
      rightsRequest: {
        counts: [
          {
            operationTypes: ['extraction'],
            requiredAuthorizations: { site: ['sitesKlac_blanc'] },
            fromDay: null,
            toDay: null,
          },
        ],
      },
      setted: false,
      status: 'open',
      treatmentDecision: null,
    });
    expect(own.body.description.fields.map((f: { name: string }) => f.name)).toEqual([
      'institute',
      'purpose',
      'orcid',
      'until',
    ]);

    const mails = (await mailsTo(server, 'root@terrain.test')).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Terrain\u00a0: demande de droits de ${account.login} sur Suivis de sites`);
    expect(mails[0].text).toContain('I need the June counts.');
    expect(mails[0].text).toContain(`/applications/surveys/authorizationsRequest/${requestId}`);
  });

  it('does not see the requests of others, and cannot change them', async () => {
    const other = await signedIn(server, await activeAccount(server));
    expect((await list(other)).body).toMatchObject({ total: 0, rightsRequests: [] });
    const changed = await ask(other, { id: requestId, fields: FIELDS, rightsRequest: LAC_BLANC, comment: 'mine now' });
    expect(changed.status).toBe(403);
    expect(changed.body.code).toBe('NO_RIGHT_FOR_RIGHTS_REQUEST');
  });

  it('modifies their open request', async () => {
    const before = (await list(user)).body.rightsRequests[0];
    server.clock.advance(1_000);
    const modified = await ask(
      user,
      {
        id: requestId,
        fields: { ...FIELDS, purpose: 'A thesis and a paper' },
        rightsRequest: { authorizationForAll: { counts: ['extraction'] } },
        comment: 'All the counts, please.',
      },
      'en',
    );
    expect(modified.status, modified.text).toBe(200);
    expect(modified.body).toMatchObject({ id: requestId, status: 'open' });
    const after = (await list(user)).body.rightsRequests[0];
    expect(after).toMatchObject({
      comment: 'All the counts, please.',
      rightsRequestForm: { purpose: 'A thesis and a paper' },
      rightsRequest: { counts: [{ operationTypes: ['extraction'], requiredAuthorizations: {} }] },
    });
    expect(after.createDate).toBe(before.createDate);
    expect(after.updateDate > before.updateDate).toBe(true);
  });

  it('is refused, with a code, what the form or the rules do not allow', async () => {
    const refusal = async (body: object) => {
      const answer = await ask(user, {
        id: null,
        fields: FIELDS,
        rightsRequest: LAC_BLANC,
        comment: 'A fine comment',
        ...body,
      });
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      return {
        status: answer.status,
        code: answer.body.code as string,
        params: answer.body.params as Record<string, unknown>,
      };
    };
    expect(await refusal({ comment: '' })).toMatchObject({ status: 400, code: 'RIGHTS_REQUEST_COMMENT_REQUIRED' });
    expect(await refusal({ comment: ' ab ' })).toMatchObject({
      status: 400,
      code: 'RIGHTS_REQUEST_COMMENT_LENGTH',
      params: { min: 3, max: 255 },
    });
    expect(await refusal({ comment: 'x'.repeat(256) })).toMatchObject({
      status: 400,
      code: 'RIGHTS_REQUEST_COMMENT_LENGTH',
    });
    expect(await refusal({ fields: { ...FIELDS, orcid: '0000' } })).toMatchObject({
      status: 400,
      code: 'INVALID_RIGHTS_REQUEST_FIELD',
      params: { field: 'orcid', problem: 'patternNotMatchedWithComponent' },
    });
    expect(await refusal({ fields: { ...FIELDS, institute: 'ird' } })).toMatchObject({
      status: 400,
      code: 'INVALID_RIGHTS_REQUEST_FIELD',
      params: { field: 'institute', problem: 'invalidReferenceWithComponent' },
    });
    expect(await refusal({ fields: { ...FIELDS, until: '' } })).toMatchObject({
      status: 400,
      code: 'INVALID_RIGHTS_REQUEST_FIELD',
      params: { field: 'until', problem: 'requiredValueWithComponent' },
    });
    expect(await refusal({ fields: { ...FIELDS, budget: '10' } })).toMatchObject({
      status: 400,
      code: 'UNKNOWN_RIGHTS_REQUEST_FIELD',
      params: { field: 'budget' },
    });
    expect(await refusal({ rightsRequest: { authorizationForAll: { counts: ['depot'] } } })).toMatchObject({
      status: 400,
      code: 'RIGHTS_REQUEST_OPERATION_NOT_ALLOWED',
      params: { dataName: 'counts', operation: 'depot' },
    });
    expect(await refusal({ rightsRequest: {} })).toMatchObject({ status: 400, code: 'NOTHING_REQUESTED' });
    expect(await refusal({ rightsRequest: { authorizationForAll: { birds: ['extraction'] } } })).toMatchObject({
      status: 400,
      code: 'UNKNOWN_DATA',
      params: { dataName: 'birds' },
    });
    expect(
      await refusal({
        rightsRequest: {
          authorizationsWithRestriction: {
            counts: { operationTypes: ['extraction'], fromDay: '2024-06-30', toDay: '2024-06-01' },
          },
        },
      }),
    ).toMatchObject({ status: 400, code: 'BAD_PERIOD' });
    expect(await refusal({ setted: true })).toMatchObject({
      status: 403,
      code: 'NO_RIGHT_FOR_RIGHTS_REQUEST_TREATMENT',
    });
    expect(await refusal({ id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      status: 404,
      code: 'NO_SUCH_RIGHTS_REQUEST',
    });
    expect(await refusal({ id: 'not-an-id' })).toMatchObject({ status: 404, code: 'NO_SUCH_RIGHTS_REQUEST' });
    const visitor = await api(server).post(`${APP}/rightsRequest`, {
      json: { fields: FIELDS, rightsRequest: LAC_BLANC, comment: 'anonymous' },
    });
    expect(visitor.status).toBe(401);
    expect((await list(user)).body.total).toBe(1);
  });

  it('is applied once when the same change is sent again with its Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `request-${account.login}`, 'Accept-Language': 'fr' };
    const body = {
      id: null,
      fields: FIELDS,
      rightsRequest: { authorizationForAll: { sites: ['extraction'] } },
      comment: 'Sent twice by a flaky network',
    };
    const first = await user.post(`${APP}/rightsRequest`, { json: body, headers });
    const again = await user.post(`${APP}/rightsRequest`, { json: body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const own = (await list(user)).body.rightsRequests as Array<{ comment: string }>;
    expect(own.filter((r) => r.comment === body.comment)).toHaveLength(1);
  });

  it('is granted by a manager in one step: the authorization is made, the user reads the data, and is told in English', async () => {
    expect(await countKeys(user)).toBe(403);
    const seen = await list(admin, { setted: false });
    expect(seen.body.rightsRequests.map((r: { id: string }) => r.id)).toContain(requestId);
    // As long as a comment may be, with a character outside the basic plane where a cut at 200 fell.
    const comment = `Granted for Lac Blanc only. ${'x'.repeat(171)}🐦${'y'.repeat(54)}`;
    expect(comment).toHaveLength(255);
    const granted = await ask(admin, {
      id: requestId,
      setted: true,
      comment,
      rightsRequest: { name: 'Lac Blanc reading', ...LAC_BLANC },
    });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body).toMatchObject({ id: requestId, status: 'granted' });

    expect(await countKeys(user)).toEqual([
      'alps__lac_blanc__lagopus__12_06_2024',
      'alps__lac_blanc__tichodroma__02_06_2024',
    ]);
    const authorization = await admin.get(`${APP}/authorization/${granted.body.authorizationId}`);
    expect(authorization.body).toMatchObject({
      name: 'Lac Blanc reading',
      description: comment,
      users: [{ id: account.id }],
    });

    const treated = (await list(user, { uuids: [requestId] })).body.rightsRequests[0];
    expect(treated).toMatchObject({
      setted: true,
      status: 'granted',
      treatmentDecision: 'APPROVED',
      treatmentComment: comment,
      treatedByLogin: 'root',
      comment: 'All the counts, please.',
      rightsRequest: { counts: [{ operationTypes: ['extraction'], requiredAuthorizations: {} }] },
      linkedAuthorizationIds: [granted.body.authorizationId],
    });
    expect((await list(admin, { setted: false })).body.rightsRequests.map((r: { id: string }) => r.id)).not.toContain(
      requestId,
    );

    const told = (await mailsTo(server, account.email)).filter((m) => m.subject.includes('granted'));
    expect(told).toHaveLength(1);
    expect(told[0].subject).toBe('Terrain: your rights on Site surveys are granted');
    expect(told[0].text).toContain('Granted for Lac Blanc only.');

    const again = await ask(admin, { id: requestId, setted: true, comment: 'Twice', rightsRequest: LAC_BLANC });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('RIGHTS_REQUEST_ALREADY_TREATED');
    expect(
      (await ask(user, { id: requestId, fields: FIELDS, rightsRequest: LAC_BLANC, comment: 'Changed my mind' })).body
        .code,
    ).toBe('RIGHTS_REQUEST_ALREADY_TREATED');
  });
});

describe('treating requests', () => {
  it('is closing them when nothing is granted: the requester is told in French, no authorization is made', async () => {
    const account = await activeAccount(server);
    const user = await signedIn(server, account);
    const created = await ask(user, {
      fields: FIELDS,
      rightsRequest: { authorizationForAll: { species: ['extraction'] } },
      comment: 'Les espèces, svp.',
    });
    const authorizations = (await admin.get(`${APP}/authorization`)).body.authorizationResults.length;
    const closed = await ask(
      admin,
      { id: created.body.id, setted: true, comment: 'Les espèces sont publiques ailleurs.', rightsRequest: null },
      'en',
    );
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toEqual({ id: created.body.id, status: 'closed', authorizationId: null });
    expect((await admin.get(`${APP}/authorization`)).body.authorizationResults).toHaveLength(authorizations);
    expect((await list(user)).body.rightsRequests[0]).toMatchObject({
      status: 'closed',
      treatmentDecision: 'REJECTED',
      setted: true,
      linkedAuthorizationIds: [],
    });
    const told = await mailsTo(server, account.email);
    expect(told.at(-1)?.subject).toBe('Terrain\u00a0: votre demande de droits sur Suivis de sites est close');
    expect(told.at(-1)?.text).toContain('Les espèces sont publiques ailleurs.');
  });

  it('needs a comment, like every save; granting nothing closes it, never with an authorization that grants nothing', async () => {
    const user = await signedIn(server, await activeAccount(server));
    const created = await ask(user, { fields: FIELDS, rightsRequest: LAC_BLANC, comment: 'Lac Blanc' });
    const blank = await ask(admin, { id: created.body.id, setted: true, comment: '   ', rightsRequest: LAC_BLANC });
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('RIGHTS_REQUEST_COMMENT_REQUIRED');
    const authorizations = (await admin.get(`${APP}/authorization`)).body.authorizationResults.length;
    const nothing = await ask(admin, {
      id: created.body.id,
      setted: true,
      comment: 'Nothing to give.',
      rightsRequest: { name: 'empty', authorizationForAll: { species: [] } },
    });
    expect(nothing.status, nothing.text).toBe(200);
    expect(nothing.body).toEqual({ id: created.body.id, status: 'closed', authorizationId: null });
    expect((await admin.get(`${APP}/authorization`)).body.authorizationResults).toHaveLength(authorizations);
  });

  it('never gives more than the granter holds: a user manager reading Lac Blanc grants it, not all the counts nor deposits, and a refusal changes nothing', async () => {
    const managerAccount = await activeAccount(server);
    expect(
      (await admin.put(`/authorization/userManager?userIdOrLogin=${managerAccount.login}&applicationNameOrId=surveys`))
        .status,
    ).toBe(200);
    // Giving a right takes holding it with admin (spec §6): the user manager may pass reading Lac Blanc on.
    const held = {
      counts: { operationTypes: ['extraction', 'admin'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
    };
    await admin.post(`${APP}/authorization`, {
      json: {
        name: 'manager reads Lac Blanc',
        description: 'x',
        usersId: [managerAccount.id],
        authorizationsWithRestriction: held,
      },
    });
    const manager = await signedIn(server, managerAccount);
    const requesterAccount = await activeAccount(server);
    const requester = await signedIn(server, requesterAccount);
    const created = await ask(requester, {
      fields: FIELDS,
      rightsRequest: { authorizationForAll: { counts: ['extraction'] } },
      comment: 'Everything',
    });
    expect((await list(manager, { uuids: [created.body.id] })).body.total).toBe(1);

    const authorizations = (await admin.get(`${APP}/authorization`)).body.authorizationResults.length;
    const beyond = await ask(manager, {
      id: created.body.id,
      setted: true,
      comment: 'All of it',
      rightsRequest: { authorizationForAll: { counts: ['extraction'] } },
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.code).toBe('NO_RIGHT_FOR_SET_RIGHTS_APPLICATION');
    expect((await admin.get(`${APP}/authorization`)).body.authorizationResults).toHaveLength(authorizations);
    expect((await list(requester)).body.rightsRequests[0]).toMatchObject({ status: 'open', setted: false });
    const depot = await ask(manager, {
      id: created.body.id,
      setted: true,
      comment: 'Deposits',
      rightsRequest: {
        authorizationsWithRestriction: {
          counts: { operationTypes: ['depot'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
        },
      },
    });
    expect(depot.status).toBe(403);

    const within = await ask(manager, {
      id: created.body.id,
      setted: true,
      comment: 'Lac Blanc is what I can give.',
      rightsRequest: LAC_BLANC,
    });
    expect(within.status, within.text).toBe(200);
    expect(within.body.status).toBe('granted');
    expect(await countKeys(requester)).toEqual([
      'alps__lac_blanc__lagopus__12_06_2024',
      'alps__lac_blanc__tichodroma__02_06_2024',
    ]);
  });

  it('lets a manager give more than reading when granting', async () => {
    const account = await activeAccount(server);
    const user = await signedIn(server, account);
    const created = await ask(user, { fields: FIELDS, rightsRequest: LAC_BLANC, comment: 'Reading Lac Blanc' });
    const granted = await ask(admin, {
      id: created.body.id,
      setted: true,
      comment: 'You will also deposit there.',
      rightsRequest: {
        authorizationsWithRestriction: {
          counts: { operationTypes: ['depot'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
        },
      },
    });
    expect(granted.status, granted.text).toBe(200);
    const authorization = (await admin.get(`${APP}/authorization/${granted.body.authorizationId}`)).body;
    expect(authorization.authorizationsWithRestriction.counts[0].operationTypes.sort()).toEqual([
      'depot',
      'extraction',
    ]);
    expect(authorization.name).toMatch(
      new RegExp(`^Demande de droits de ${account.login} \\(\\d{4}-\\d{2}-\\d{2}\\)$`),
    );
  });
});

describe('the list of requests', () => {
  it('shows managers every request, filtered by status, form field and requester, page by page', async () => {
    const all = await list(admin);
    expect(all.status).toBe(200);
    const total = all.body.total as number;
    expect(total).toBe(6);
    expect(all.body.rightsRequests).toHaveLength(total);
    const dates = (all.body.rightsRequests as Array<{ createDate: string }>).map((r) => r.createDate);
    expect([...dates].sort().reverse()).toEqual(dates);

    const open = await list(admin, { setted: false });
    const treated = await list(admin, { setted: true });
    expect(open.body.total + treated.body.total).toBe(total);
    expect((open.body.rightsRequests as Array<{ status: string }>).every((r) => r.status === 'open')).toBe(true);
    expect((treated.body.rightsRequests as Array<{ status: string }>).every((r) => r.status !== 'open')).toBe(true);

    const page = await list(admin, { offset: 2, limit: 2 });
    expect(page.body.total).toBe(total);
    expect(page.body.rightsRequests.map((r: { id: string }) => r.id)).toEqual(
      all.body.rightsRequests.slice(2, 4).map((r: { id: string }) => r.id),
    );

    const paper = await list(admin, { fieldFilters: [{ field: 'purpose', filter: 'PAPER' }] });
    expect(paper.body.rightsRequests.map((r: { comment: string }) => r.comment)).toEqual(['All the counts, please.']);
    const regexp = await list(admin, { fieldFilters: [{ field: 'purpose', filter: '^a thesis and', isRegExp: true }] });
    expect(regexp.body.total).toBe(1);
    const espèces = await list(admin, { search: 'espèces' });
    expect(espèces.body.rightsRequests.map((r: { comment: string }) => r.comment)).toEqual(['Les espèces, svp.']);
    const someone = all.body.rightsRequests[0] as { userLogin: string; user: string };
    const byLogin = await list(admin, { search: someone.userLogin });
    expect((byLogin.body.rightsRequests as Array<{ user: string }>).every((r) => r.user === someone.user)).toBe(true);
    expect(byLogin.body.users).toEqual([{ id: someone.user, label: someone.userLogin }]);
  });

  it('refuses malformed parameters with 400 BAD_REQUEST, whichever field is of the wrong type', async () => {
    for (const params of [
      '{',
      '[]',
      'null',
      '5',
      JSON.stringify({ offset: -1 }),
      JSON.stringify({ offset: 0.5 }),
      JSON.stringify({ limit: '10' }),
      JSON.stringify({ setted: 'yes' }),
      JSON.stringify({ uuids: [5] }),
      JSON.stringify({ uuids: 'abc' }),
      JSON.stringify({ search: {} }),
      JSON.stringify({ fieldFilters: {} }),
      JSON.stringify({ fieldFilters: [null] }),
      JSON.stringify({ fieldFilters: [{ field: 5 }] }),
      JSON.stringify({ fieldFilters: [{ field: 'purpose', filter: 5 }] }),
      JSON.stringify({ fieldFilters: [{ field: 'purpose', filter: 'a', isRegExp: 'yes' }] }),
      JSON.stringify({ fieldFilters: [{ field: 'purpose', filter: '(', isRegExp: true }] }),
    ]) {
      const answer = await admin.get(`${APP}/rightsRequest?params=${encodeURIComponent(params)}`);
      expect(answer.status, params).toBe(400);
      expect(answer.body.code).toBe('BAD_REQUEST');
    }
    expect((await admin.get(`${APP}/rightsRequest?params=undefined`)).status).toBe(200);
    const nulls = { uuids: null, setted: null, fieldFilters: null, search: null, offset: null, limit: null };
    expect((await admin.get(`${APP}/rightsRequest?params=${encodeURIComponent(JSON.stringify(nulls))}`)).status).toBe(
      200,
    );
    expect((await admin.get('/applications/nowhere/rightsRequest')).status).toBe(404);
  });
});

describe('a user asking again and again', () => {
  it('is refused past the requests of an hour, with when to try again; managers treating requests are not counted', async () => {
    const account = await activeAccount(server);
    const user = await signedIn(server, account);
    const perHour = server.server.ctx.config.rightsRequestsPerHour;
    for (let request = 1; request <= perHour; request += 1) {
      expect(
        (await ask(user, { id: null, fields: FIELDS, rightsRequest: LAC_BLANC, comment: `Request ${request}` })).status,
        `request ${request}`,
      ).toBe(201);
    }
    const refused = await ask(user, { id: null, fields: FIELDS, rightsRequest: LAC_BLANC, comment: 'One more' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_000);
    const mine = await list(admin, { search: account.login });
    expect(mine.body.total).toBe(perHour);
    const close = await ask(admin, { id: mine.body.rightsRequests[0].id, setted: true, comment: 'Closed.' });
    expect(close.status, close.text).toBe(200);
  });
});
