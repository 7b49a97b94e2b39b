import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { api, expectNoLeakInRecordedAnswers } from './apiClient.ts';
import { GENEROUS_RATE_LIMITS, generatedAdmin, signInStatus, signedIn } from './accountFixtures.ts';
import { restartOnSameData, startTestServer, type TestServer } from './harness.ts';

/** The platform administrator exists from the first start, generated or configured, and survives restarts unchanged. */

afterAll(() => expectNoLeakInRecordedAnswers());

const credentialsFile = (server: TestServer) => path.join(server.dataDir, 'admin-credentials.txt');

describe('first start without TERRAIN_ADMIN_* settings', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(GENEROUS_RATE_LIMITS);
  });
  afterAll(() => server?.close());

  it('writes the generated credentials of the account `admin` to admin-credentials.txt in the data folder', async () => {
    const credentials = await generatedAdmin(server);
    expect(credentials.login).toBe('admin');
    expect(credentials.password.length).toBeGreaterThanOrEqual(12);
  });

  it('makes the credentials file readable and writable by its owner only (mode 600)', async () => {
    const { mode } = await stat(credentialsFile(server));
    expect((mode & 0o777).toString(8)).toBe('600');
  });

  it('lets the generated password sign in as platform administrator', async () => {
    const answer = await api(server).post('/login', { form: { ...(await generatedAdmin(server)) } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      login: 'admin',
      state: 'active',
      terrainAdmin: true,
      authorizedForApplicationCreation: true,
      currentUserRoles: { isTerrainAdmin: true },
    });
  });

  describe('then a second start on the same data', () => {
    let restarted: TestServer;
    let fileBefore: string;
    let adminBefore: { id: string; creationDate: string };
    beforeAll(async () => {
      fileBefore = await readFile(credentialsFile(server), 'utf8');
      const admin = await signedIn(server, await generatedAdmin(server));
      adminBefore = (await admin.get('/users/admin')).body;
      restarted = await restartOnSameData(server);
    });
    afterAll(() => restarted?.close());

    it('leaves the credentials file as it was', async () => {
      expect(await readFile(credentialsFile(restarted), 'utf8')).toBe(fileBefore);
      expect(((await stat(credentialsFile(restarted))).mode & 0o777).toString(8)).toBe('600');
    });

    it('keeps the password: the one generated at first start still signs in', async () => {
      const answer = await api(restarted).post('/login', { form: { ...(await generatedAdmin(restarted)) } });
      expect(answer.status).toBe(200);
      expect(answer.body.terrainAdmin).toBe(true);
    });

    it('keeps the same administrator account instead of creating another', async () => {
      const admin = await signedIn(restarted, await generatedAdmin(restarted));
      const now = await admin.get('/users/admin');
      expect(now.status).toBe(200);
      expect(now.body).toMatchObject({
        id: adminBefore.id,
        creationDate: adminBefore.creationDate,
        terrainAdmin: true,
      });
    });
  });
});

describe('first start with TERRAIN_ADMIN_LOGIN, _PASSWORD and _EMAIL', () => {
  const configured = { login: 'chief', password: 'Chief-password-1', email: 'chief@example.org' };
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...GENEROUS_RATE_LIMITS, admin: configured });
  });
  afterAll(() => server?.close());

  it('creates that account as platform administrator, signing in with the configured password', async () => {
    const answer = await api(server).post('/login', {
      form: { login: configured.login, password: configured.password },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      login: 'chief',
      email: 'chief@example.org',
      state: 'active',
      terrainAdmin: true,
    });
  });

  it('creates no `admin` account', async () => {
    const chief = await signedIn(server, configured);
    const answer = await chief.get('/users/admin');
    expect(answer.status).toBe(404);
  });

  it('writes no credentials file, since no password was generated', async () => {
    await expect(stat(credentialsFile(server))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  describe('then a second start on the same data with another TERRAIN_ADMIN_PASSWORD', () => {
    let restarted: TestServer;
    let idBefore: string;
    beforeAll(async () => {
      idBefore = (await (await signedIn(server, configured)).get('/me')).body.id;
      restarted = await restartOnSameData(server, { admin: { ...configured, password: 'Another-password-2' } });
    });
    afterAll(() => restarted?.close());

    it('keeps the stored password: the first one signs in, the new setting does not', async () => {
      expect(await signInStatus(restarted, configured.login, configured.password)).toBe(200);
      expect(await signInStatus(restarted, configured.login, 'Another-password-2')).toBe(401);
    });

    it('keeps the same administrator account', async () => {
      const me = await (await signedIn(restarted, configured)).get('/me');
      expect(me.body).toMatchObject({ id: idBefore, terrainAdmin: true });
    });
  });
});

describe('TERRAIN_ADMIN_* settings the account rules refuse', () => {
  it('stop the start with a word, before any account is made', () => {
    expect(() => loadConfig({ TERRAIN_ADMIN_LOGIN: 'chief', TERRAIN_ADMIN_PASSWORD: 'short12' })).toThrow(
      'TERRAIN_ADMIN_PASSWORD needs 8 characters or more',
    );
    expect(() =>
      loadConfig({ TERRAIN_ADMIN_LOGIN: 'chief', TERRAIN_ADMIN_EMAIL: 'Chief <chief@example.org>' }),
    ).toThrow('TERRAIN_ADMIN_EMAIL is not one valid e-mail address');
    expect(
      loadConfig({
        TERRAIN_ADMIN_LOGIN: 'chief',
        TERRAIN_ADMIN_PASSWORD: 'long enough',
        TERRAIN_ADMIN_EMAIL: 'chief@example.org',
      }).admin,
    ).toEqual({
      login: 'chief',
      password: 'long enough',
      email: 'chief@example.org',
    });
  });
});
