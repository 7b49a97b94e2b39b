import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS, activeAccount, newIdentity } from './accountFixtures.ts';
import { api, expectNoLeakInRecordedAnswers, type ApiClient } from './apiClient.ts';
import {
  createApplication,
  creatorUser,
  fixture,
  plainUser,
  refusal,
  sessionOf,
  uploadForm,
  type SignedInUser,
} from './applicationFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Platform roles over HTTP: the administrator's user list, application-creator patterns, the administrator flag,
 * and the per-application roles (applicationManager, userManager) granted by the administrator or a manager.
 */

const ADMIN = { login: 'root', password: 'root-password', email: 'root@terrain.test' };

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startTestServer({ admin: ADMIN, ...GENEROUS_RATE_LIMITS });
  const session = await sessionOf(server, { ...ADMIN, id: '' });
  admin = session.client;
  adminId = (await admin.get('/me')).body.id;
});
afterAll(async () => {
  try {
    expectNoLeakInRecordedAnswers();
  } finally {
    await server?.close();
  }
});

/** `PUT|DELETE /authorization/{role}?…` with repeatable `applicationPattern`. */
function roleCall(
  by: ApiClient,
  method: 'PUT' | 'DELETE',
  role: string,
  query: { user: string; patterns?: string[]; application?: string },
) {
  const params = new URLSearchParams({ userIdOrLogin: query.user });
  for (const pattern of query.patterns ?? []) params.append('applicationPattern', pattern);
  if (query.application !== undefined) params.append('applicationNameOrId', query.application);
  return by.request(method, `/authorization/${role}?${params}`);
}
const grant = (by: ApiClient, role: string, query: Parameters<typeof roleCall>[3]) => roleCall(by, 'PUT', role, query);
const revoke = (by: ApiClient, role: string, query: Parameters<typeof roleCall>[3]) =>
  roleCall(by, 'DELETE', role, query);

/** The account as the administrator's list shows it. */
async function listedUser(login: string) {
  const answer = await admin.get('/authorizationForAdmin');
  expect(answer.status).toBe(200);
  return answer.body.find((u: { login: string }) => u.login === login);
}

const canCreate = async (user: SignedInUser, name: string) =>
  (
    await user.client.post(`/applications/${name}`, {
      body: uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
    })
  ).status;

describe('the administrator’s user list (GET /authorizationForAdmin)', () => {
  it('lists every account with its state, patterns and roles, never a password', async () => {
    const account = await activeAccount(server, newIdentity('listed'));
    const answer = await admin.get('/authorizationForAdmin');
    expect(answer.status).toBe(200);
    const logins = answer.body.map((u: { login: string }) => u.login);
    expect(logins).toEqual(expect.arrayContaining([ADMIN.login, account.login]));
    expect(await listedUser(account.login)).toEqual({
      id: account.id,
      login: account.login,
      email: account.email,
      state: 'active',
      authorizedForApplicationCreation: false,
      terrainAdmin: false,
      authorizations: [],
      chartes: {},
      currentUserRoles: expect.objectContaining({
        applicationRoles: {},
        userId: account.id,
        isTerrainAdmin: false,
        isApplicationCreator: false,
      }),
    });
    expect(answer.text).not.toContain('password');
  });

  it('lists accounts in login order, whatever the case', async () => {
    const logins: string[] = (await admin.get('/authorizationForAdmin')).body.map((u: { login: string }) => u.login);
    expect(logins).toEqual([...logins].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it('refuses a user who is not administrator with 403 TERRAIN_ADMIN_REQUIRED_FOR_OPERATION', async () => {
    for (const user of [await plainUser(server), await creatorUser(server, admin, ['any_.*'])]) {
      const answer = await user.client.get('/authorizationForAdmin');
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal('TERRAIN_ADMIN_REQUIRED_FOR_OPERATION'));
    }
  });

  it('refuses a caller without session with 401', async () => {
    expect((await api(server).get('/authorizationForAdmin')).body).toEqual(refusal('NOT_AUTHENTICATED'));
  });
});

describe('application-creator patterns (PUT|DELETE /authorization/applicationCreator)', () => {
  it('adds the patterns to the account and answers the updated user', async () => {
    const account = await activeAccount(server, newIdentity('patterned'));
    const answer = await grant(admin, 'applicationCreator', { user: account.login, patterns: ['si_.*'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      login: account.login,
      authorizations: ['si_.*'],
      authorizedForApplicationCreation: true,
      terrainAdmin: false,
    });
    expect(answer.body.currentUserRoles).toMatchObject({
      isApplicationCreator: true,
      memberOf: ['applicationCreator'],
    });
  });

  it('takes several patterns in one call (repeated applicationPattern)', async () => {
    const account = await activeAccount(server);
    const answer = await grant(admin, 'applicationCreator', {
      user: account.login,
      patterns: ['a_.*', 'b_.*', 'exact'],
    });
    expect(answer.body.authorizations).toEqual(['a_.*', 'b_.*', 'exact']);
  });

  it('adds to the patterns already held, without duplicates', async () => {
    const account = await activeAccount(server);
    await grant(admin, 'applicationCreator', { user: account.login, patterns: ['a_.*'] });
    const answer = await grant(admin, 'applicationCreator', { user: account.login, patterns: ['a_.*', 'b_.*'] });
    expect(answer.body.authorizations).toEqual(['a_.*', 'b_.*']);
  });

  it('addresses the account by id as well as by login', async () => {
    const account = await activeAccount(server);
    const answer = await grant(admin, 'applicationCreator', { user: account.id, patterns: ['by_id_.*'] });
    expect(answer.body).toMatchObject({ id: account.id, authorizations: ['by_id_.*'] });
  });

  it('removes only the patterns named, and the creator role with the last one', async () => {
    const account = await activeAccount(server);
    await grant(admin, 'applicationCreator', { user: account.login, patterns: ['a_.*', 'b_.*'] });
    const once = await revoke(admin, 'applicationCreator', { user: account.login, patterns: ['a_.*'] });
    expect(once.status).toBe(200);
    expect(once.body).toMatchObject({ authorizations: ['b_.*'], authorizedForApplicationCreation: true });
    const twice = await revoke(admin, 'applicationCreator', { user: account.login, patterns: ['b_.*'] });
    expect(twice.body).toMatchObject({ authorizations: [], authorizedForApplicationCreation: false });
  });

  it('takes effect on the user’s open session: the grant allows creation, the revocation forbids it', async () => {
    const user = await plainUser(server, 'live');
    expect(await canCreate(user, 'live_one')).toBe(403);
    await grant(admin, 'applicationCreator', { user: user.login, patterns: ['live_.*'] });
    expect(await canCreate(user, 'live_one')).toBe(200);
    await revoke(admin, 'applicationCreator', { user: user.login, patterns: ['live_.*'] });
    expect(await canCreate(user, 'live_two')).toBe(403);
  });

  it('refuses a pattern that is not a regular expression with 400 BAD_APPLICATION_PATTERN, changing nothing', async () => {
    const account = await activeAccount(server);
    const answer = await grant(admin, 'applicationCreator', {
      user: account.login,
      patterns: ['ok_.*', 'fn_(unclosed'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusal('BAD_APPLICATION_PATTERN', { pattern: 'fn_(unclosed' }));
    expect((await listedUser(account.login)).authorizations).toEqual([]);
  });

  it('refuses a caller who is not administrator with 403, changing nothing', async () => {
    const creator = await creatorUser(server, admin, ['mine_.*']);
    const other = await activeAccount(server);
    const answer = await grant(creator.client, 'applicationCreator', { user: other.login, patterns: ['.*'] });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(refusal('TERRAIN_ADMIN_REQUIRED_FOR_OPERATION'));
    expect((await listedUser(other.login)).authorizations).toEqual([]);
    expect((await grant(creator.client, 'applicationCreator', { user: creator.login, patterns: ['.*'] })).status).toBe(
      403,
    );
  });

  it('answers 404 UNKNOWN_USER for an account that does not exist', async () => {
    for (const user of ['nobody_here', '00000000-0000-4000-8000-000000000000', '-'.repeat(36)]) {
      const answer = await grant(admin, 'applicationCreator', { user, patterns: ['x_.*'] });
      expect(answer.status, user).toBe(404);
      expect(answer.body).toEqual(refusal('UNKNOWN_USER', { user }));
    }
  });

  it('refuses an unknown role with 400', async () => {
    const account = await activeAccount(server);
    expect((await grant(admin, 'superUser', { user: account.login })).status).toBe(400);
  });

  it('refuses a request without userIdOrLogin with 400', async () => {
    expect((await admin.put('/authorization/applicationCreator?applicationPattern=x_.*')).status).toBe(400);
  });
});

describe('the administrator flag (PUT|DELETE /authorization/terrainAdmin)', () => {
  it('sets the flag with the every-application pattern .*', async () => {
    const account = await activeAccount(server, newIdentity('promoted'));
    const answer = await grant(admin, 'terrainAdmin', { user: account.login });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      terrainAdmin: true,
      authorizations: ['.*'],
      authorizedForApplicationCreation: true,
    });
    expect(answer.body.currentUserRoles).toMatchObject({ isTerrainAdmin: true });
  });

  it('gives the new administrator the administrator’s calls', async () => {
    const user = await plainUser(server, 'newadmin');
    expect((await user.client.get('/authorizationForAdmin')).status).toBe(403);
    await grant(admin, 'terrainAdmin', { user: user.login });
    expect((await user.client.get('/authorizationForAdmin')).status).toBe(200);
    const other = await activeAccount(server);
    expect((await grant(user.client, 'applicationCreator', { user: other.login, patterns: ['o_.*'] })).status).toBe(
      200,
    );
  });

  it('removes the flag and the .* pattern, keeping the other patterns', async () => {
    const account = await activeAccount(server, newIdentity('demoted'));
    await grant(admin, 'applicationCreator', { user: account.login, patterns: ['keep_.*'] });
    await grant(admin, 'terrainAdmin', { user: account.login });
    const answer = await revoke(admin, 'terrainAdmin', { user: account.login });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ terrainAdmin: false, authorizations: ['keep_.*'] });
  });

  it('takes the administrator’s calls away from a revoked administrator', async () => {
    const user = await plainUser(server, 'exadmin');
    await grant(admin, 'terrainAdmin', { user: user.login });
    await revoke(admin, 'terrainAdmin', { user: user.login });
    expect((await user.client.get('/authorizationForAdmin')).status).toBe(403);
  });

  it('leaves one of two administrators revoking each other at once', async () => {
    const [first, second] = [await plainUser(server, 'twin_a'), await plainUser(server, 'twin_b')];
    for (const user of [first, second])
      expect((await grant(admin, 'terrainAdmin', { user: user.login })).status).toBe(200);
    const answers = await Promise.all([
      revoke(first.client, 'terrainAdmin', { user: second.login }),
      revoke(second.client, 'terrainAdmin', { user: first.login }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    expect(answers.find((answer) => answer.status === 403)?.body).toEqual(
      refusal('TERRAIN_ADMIN_REQUIRED_FOR_OPERATION'),
    );
    const flags = await Promise.all([first, second].map(async (user) => (await listedUser(user.login)).terrainAdmin));
    expect(flags.filter(Boolean)).toHaveLength(1);
  });

  it('refuses an administrator revoking himself with 403 CANT_SELF_REVOKE_ADMIN', async () => {
    for (const user of [ADMIN.login, adminId]) {
      const answer = await revoke(admin, 'terrainAdmin', { user });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal('CANT_SELF_REVOKE_ADMIN'));
    }
    expect((await listedUser(ADMIN.login)).terrainAdmin).toBe(true);
  });

  it('lets an administrator revoke another administrator', async () => {
    const second = await plainUser(server, 'second');
    await grant(admin, 'terrainAdmin', { user: second.login });
    const revoked = await revoke(second.client, 'terrainAdmin', { user: ADMIN.login });
    expect(revoked.status).toBe(200);
    expect(revoked.body.terrainAdmin).toBe(false);
    expect((await admin.get('/authorizationForAdmin')).status).toBe(403);
    // Put the file's administrator back for the tests that follow.
    expect((await grant(second.client, 'terrainAdmin', { user: ADMIN.login })).body.terrainAdmin).toBe(true);
    expect((await admin.get('/authorizationForAdmin')).status).toBe(200);
  });

  it('refuses a caller who is not administrator with 403', async () => {
    const user = await plainUser(server);
    const answer = await grant(user.client, 'terrainAdmin', { user: user.login });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(refusal('TERRAIN_ADMIN_REQUIRED_FOR_OPERATION'));
  });
});

describe('application roles (PUT|DELETE /authorization/applicationManager|userManager)', () => {
  let applicationId: string;
  let manager: SignedInUser;
  beforeAll(async () => {
    ({ id: applicationId } = await createApplication(admin, 'roles_app'));
    manager = await plainUser(server, 'appmanager');
    await grant(admin, 'applicationManager', { user: manager.login, application: 'roles_app' });
  });

  const rolesOn = async (login: string) =>
    (await listedUser(login)).currentUserRoles.applicationRoles[applicationId] ?? [];

  it('lets the administrator grant applicationManager, shown in the user’s roles by application id', async () => {
    const account = await activeAccount(server);
    const answer = await grant(admin, 'applicationManager', { user: account.login, application: 'roles_app' });
    expect(answer.status).toBe(200);
    expect(answer.body.currentUserRoles.applicationRoles).toEqual({ [applicationId]: ['applicationManager'] });
  });

  it('addresses the application by id as well as by name', async () => {
    const account = await activeAccount(server);
    expect((await grant(admin, 'userManager', { user: account.login, application: applicationId })).status).toBe(200);
    expect(await rolesOn(account.login)).toEqual(['userManager']);
  });

  it('lets a manager of the application grant and revoke userManager', async () => {
    const account = await activeAccount(server);
    expect((await grant(manager.client, 'userManager', { user: account.login, application: 'roles_app' })).status).toBe(
      200,
    );
    expect(await rolesOn(account.login)).toEqual(['userManager']);
    expect(
      (await revoke(manager.client, 'userManager', { user: account.login, application: 'roles_app' })).status,
    ).toBe(200);
    expect(await rolesOn(account.login)).toEqual([]);
  });

  it('lets a manager make another manager', async () => {
    const account = await activeAccount(server);
    expect(
      (await grant(manager.client, 'applicationManager', { user: account.login, application: 'roles_app' })).status,
    ).toBe(200);
    expect(await rolesOn(account.login)).toEqual(['applicationManager']);
  });

  it('keeps a role granted twice once', async () => {
    const account = await activeAccount(server);
    await grant(admin, 'userManager', { user: account.login, application: 'roles_app' });
    expect((await grant(admin, 'userManager', { user: account.login, application: 'roles_app' })).status).toBe(200);
    expect(await rolesOn(account.login)).toEqual(['userManager']);
  });

  it('gives the granted manager the update of the application', async () => {
    const account = await activeAccount(server);
    const user = await sessionOf(server, account);
    await grant(admin, 'applicationManager', { user: account.login, application: 'roles_app' });
    expect((await user.client.get('/applications/roles_app')).body).toMatchObject({
      isMember: true,
      isAdministrator: true,
    });
  });

  it('refuses a caller who neither manages the application nor administers the platform with 403', async () => {
    const account = await activeAccount(server);
    for (const caller of [await plainUser(server), await creatorUser(server, admin, ['other_.*'])]) {
      const answer = await grant(caller.client, 'userManager', { user: account.login, application: 'roles_app' });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal('NO_RIGHT_FOR_APPLICATION_MANAGEMENT', { name: 'roles_app' }));
    }
    expect(await rolesOn(account.login)).toEqual([]);
  });

  it('refuses a userManager granting roles with 403', async () => {
    const userManager = await plainUser(server, 'usermanager');
    await grant(admin, 'userManager', { user: userManager.login, application: 'roles_app' });
    const account = await activeAccount(server);
    expect(
      (await grant(userManager.client, 'userManager', { user: account.login, application: 'roles_app' })).status,
    ).toBe(403);
  });

  it('refuses a manager revoking his own manager role with 403 CANT_SELF_REVOKE_APPLICATION_ROLE', async () => {
    const answer = await revoke(manager.client, 'applicationManager', {
      user: manager.login,
      application: 'roles_app',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(refusal('CANT_SELF_REVOKE_APPLICATION_ROLE', { role: 'applicationManager' }));
    expect(await rolesOn(manager.login)).toEqual(['applicationManager']);
  });

  it('lets the administrator revoke a manager', async () => {
    const account = await activeAccount(server);
    await grant(admin, 'applicationManager', { user: account.login, application: 'roles_app' });
    expect((await revoke(admin, 'applicationManager', { user: account.login, application: 'roles_app' })).status).toBe(
      200,
    );
    expect(await rolesOn(account.login)).toEqual([]);
  });

  it('refuses a request without applicationNameOrId with 400 MISSING_APPLICATION', async () => {
    const account = await activeAccount(server);
    const answer = await grant(admin, 'applicationManager', { user: account.login });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusal('MISSING_APPLICATION', { role: 'applicationManager' }));
  });

  it.each([
    'never_created',
    '00000000-0000-4000-8000-000000000000',
    '-'.repeat(36),
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  ])('answers 404 NO_SUCH_APPLICATION for the application %s', async (application) => {
    const account = await activeAccount(server);
    const answer = await grant(admin, 'applicationManager', { user: account.login, application });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(refusal('NO_SUCH_APPLICATION', { name: application }));
  });
});
