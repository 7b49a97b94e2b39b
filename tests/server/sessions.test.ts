import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectNoLeakInRecordedAnswers } from './apiClient.ts';
import {
  GENEROUS_RATE_LIMITS,
  activeAccount,
  setAccountState,
  signInStatus,
  signedIn,
  type Account,
} from './accountFixtures.ts';
import type { Answer } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { MAX_KEPT_DEVICES } from '../../server/services/sessions.ts';

/** Sessions: the cookie a browser keeps, the Bearer token a script sends, logout and idle expiry. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(GENEROUS_RATE_LIMITS);
});
afterAll(async () => {
  try {
    expectNoLeakInRecordedAnswers();
  } finally {
    await server?.close();
  }
});

/** The `Set-Cookie` line of the session cookie, if the answer has one. */
function sessionCookieLine(answer: Answer): string | undefined {
  return answer.headers.getSetCookie().find((line) => line.startsWith('terrain_session='));
}

function attributes(line: string): string[] {
  return line
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
}

async function signInAnswer(target: TestServer, account: Account) {
  const answer = await api(target).post('/login', { form: { login: account.login, password: account.password } });
  expect(answer.status, answer.text).toBe(200);
  const cookie = sessionCookieLine(answer)!;
  return {
    answer,
    cookieToken: cookie.slice('terrain_session='.length).split(';')[0],
    bearerToken: answer.headers.get('authorization')!.slice('Bearer '.length),
  };
}

const withBearer = (target: TestServer, token: string) => api(target, { authorization: `Bearer ${token}` });
const withCookie = (target: TestServer, token: string) => api(target, { cookie: `terrain_session=${token}` });

describe('sign-in session', () => {
  it('sets the cookie terrain_session, httpOnly, SameSite=Lax, for the whole site', async () => {
    const { answer } = await signInAnswer(server, await activeAccount(server));
    const line = sessionCookieLine(answer);
    expect(line).toBeDefined();
    expect(attributes(line!)).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'max-age=3600']));
  });

  it('lets the browser reach GET /me with the cookie alone', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    expect(client.cookieNames).toEqual(['terrain_session']);
    const me = await client.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(account.id);
  });

  it('answers the same token in an Authorization: Bearer header, usable instead of the cookie', async () => {
    const account = await activeAccount(server);
    const { answer, cookieToken, bearerToken } = await signInAnswer(server, account);
    expect(answer.headers.get('authorization')).toMatch(/^Bearer \S+$/);
    expect(bearerToken).toBe(cookieToken);
    const me = await withBearer(server, bearerToken).get('/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(account.id);
  });

  it('does not set a cookie for a script calling with a Bearer token', async () => {
    const { bearerToken } = await signInAnswer(server, await activeAccount(server));
    const me = await withBearer(server, bearerToken).get('/me');
    expect(sessionCookieLine(me)).toBeUndefined();
  });

  it('refuses a tampered or invented token with 401', async () => {
    const { bearerToken } = await signInAnswer(server, await activeAccount(server));
    const [id, signature] = bearerToken.split('.');
    const tampered = `${id}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const token of [tampered, `${id}x.${signature}`, 'invented', `${id}.${signature}.extra`]) {
      expect((await withBearer(server, token).get('/me')).status, token).toBe(401);
      expect((await withCookie(server, token).get('/me')).status, token).toBe(401);
    }
  });

  it('clears a cookie the server no longer recognises', async () => {
    const answer = await withCookie(server, 'invented.token').get('/me');
    expect(answer.status).toBe(401);
    const line = sessionCookieLine(answer);
    expect(line).toBeDefined();
    expect(line!.startsWith('terrain_session=;')).toBe(true);
  });

  it('stops working once the account is closed', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    await setAccountState(server, account.login, 'closed');
    expect((await client.get('/me')).status).toBe(401);
  });
});

describe('a change sent for someone (X-Terrain-Owner, as the outbox sends them)', () => {
  it('is applied in its owner’s session, refused with 409 CHANGE_OF_ANOTHER_USER in anyone else’s, and not applied', async () => {
    const [ana, ben] = [await activeAccount(server), await activeAccount(server)];
    const anaSession = await signedIn(server, ana);
    const newPassword = 'a-new-password-of-ana-1';
    const change = { login: ana.login, password: ana.password, newPassword, newPasswordConfirm: newPassword };
    for (const owner of [ben.login, encodeURIComponent(`${ana.login}é`), '%E0%A4%A', '']) {
      const refused = await anaSession.put('/users', { json: change, headers: { 'X-Terrain-Owner': owner } });
      expect([refused.status, refused.body.code], `${owner}: ${refused.text}`).toEqual([409, 'CHANGE_OF_ANOTHER_USER']);
    }
    expect(await signInStatus(server, ana.login, ana.password)).toBe(200);
    expect(await signInStatus(server, ana.login, newPassword)).toBe(401);

    const withoutSession = await api(server).get('/me', { headers: { 'X-Terrain-Owner': ana.login } });
    expect([withoutSession.status, withoutSession.body.code]).toEqual([401, 'NOT_AUTHENTICATED']);
    const applied = await anaSession.put('/users', {
      json: change,
      headers: { 'X-Terrain-Owner': encodeURIComponent(ana.login) },
    });
    expect(applied.status, applied.text).toBe(200);
    expect(await signInStatus(server, ana.login, newPassword)).toBe(200);
  });
});

describe('logout', () => {
  it('answers 200 and clears the session cookie', async () => {
    const client = await signedIn(server, await activeAccount(server));
    const answer = await client.delete('/logout');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Disconnected' });
    const line = sessionCookieLine(answer);
    expect(line).toBeDefined();
    expect(line!.startsWith('terrain_session=;')).toBe(true);
    expect(attributes(line!).some((a) => a === 'max-age=0' || a.startsWith('expires=thu, 01 jan 1970'))).toBe(true);
    expect(client.cookieNames).toEqual([]);
    expect((await client.get('/me')).status).toBe(401);
  });

  it('ends the session on the server: the token replayed as a cookie or as Bearer no longer works', async () => {
    const account = await activeAccount(server);
    const { cookieToken } = await signInAnswer(server, account);
    expect((await withCookie(server, cookieToken).delete('/logout')).status).toBe(200);
    expect((await withCookie(server, cookieToken).get('/me')).status).toBe(401);
    expect((await withBearer(server, cookieToken).get('/me')).status).toBe(401);
  });

  it('ends a session a script holds as a Bearer token', async () => {
    const { bearerToken } = await signInAnswer(server, await activeAccount(server));
    expect((await withBearer(server, bearerToken).delete('/logout')).status).toBe(200);
    expect((await withBearer(server, bearerToken).get('/me')).status).toBe(401);
  });

  it('leaves the account’s other sessions signed in', async () => {
    const account = await activeAccount(server);
    const laptop = await signedIn(server, account);
    const phone = await signedIn(server, account);
    await laptop.delete('/logout');
    expect((await phone.get('/me')).status).toBe(200);
  });

  it('answers 200 without a session too', async () => {
    const answer = await api(server).delete('/logout');
    expect(answer.status).toBe(200);
  });

  it('accepts the optional application name', async () => {
    const client = await signedIn(server, await activeAccount(server));
    expect((await client.delete('/logout?applicationName=ola')).status).toBe(200);
    expect((await client.get('/me')).status).toBe(401);
  });
});

describe('with sessions that expire after a minute idle', () => {
  let shortSessions: TestServer;
  beforeAll(async () => {
    shortSessions = await startTestServer({ ...GENEROUS_RATE_LIMITS, sessionIdleSeconds: 60 });
  });
  afterAll(() => shortSessions?.close());

  it('gives the cookie the idle lifetime and re-issues it on each authenticated call', async () => {
    const client = await signedIn(shortSessions, await activeAccount(shortSessions));
    const me = await client.get('/me');
    const line = sessionCookieLine(me);
    expect(line).toBeDefined();
    expect(attributes(line!)).toContain('max-age=60');
  });

  it('no longer accepts the cookie nor the Bearer token once the idle minute has passed', async () => {
    const { cookieToken } = await signInAnswer(shortSessions, await activeAccount(shortSessions));
    expect((await withCookie(shortSessions, cookieToken).get('/me')).status).toBe(200);
    shortSessions.clock.advance(61_000);
    expect((await withCookie(shortSessions, cookieToken).get('/me')).status).toBe(401);
    expect((await withBearer(shortSessions, cookieToken).get('/me')).status).toBe(401);
  });

  it('slides the expiry with activity: a call every 40 seconds keeps the session alive past the minute', async () => {
    const client = await signedIn(shortSessions, await activeAccount(shortSessions));
    for (let seconds = 40; seconds <= 160; seconds += 40) {
      shortSessions.clock.advance(40_000);
      expect((await client.get('/me')).status, `after ${seconds} s`).toBe(200);
    }
  });
});

describe('kept signed in on a device (sign-in with remember)', () => {
  const TABLET =
    'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const DAY = 24 * 3600 * 1000;
  let devices: TestServer;
  beforeAll(async () => {
    devices = await startTestServer({ ...GENEROUS_RATE_LIMITS, sessionIdleSeconds: 60, deviceSessionDays: 30 });
  });
  afterAll(() => devices?.close());

  async function rememberedSignIn(account: Account, remember: string | boolean = 'true') {
    const client = api(devices, { 'user-agent': TABLET });
    const answer =
      typeof remember === 'boolean'
        ? await client.post('/login', { json: { login: account.login, password: account.password, remember } })
        : await client.post('/login', { form: { login: account.login, password: account.password, remember } });
    expect(answer.status, answer.text).toBe(200);
    return sessionCookieLine(answer)!.slice('terrain_session='.length).split(';')[0];
  }

  it('lasts the device lifetime without use, slides with use, and ends after it', async () => {
    const account = await activeAccount(devices);
    const kept = await rememberedSignIn(account);
    const me = await withCookie(devices, kept).get('/me');
    expect(attributes(sessionCookieLine(me)!)).toContain(`max-age=${30 * 24 * 3600}`);
    devices.clock.advance(2 * 3600 * 1000);
    expect((await withCookie(devices, kept).get('/me')).status, 'two hours later').toBe(200);
    devices.clock.advance(29 * DAY);
    expect((await withCookie(devices, kept).get('/me')).status, 'used again within 30 days').toBe(200);
    devices.clock.advance(31 * DAY);
    expect((await withCookie(devices, kept).get('/me')).status, 'after 31 days without use').toBe(401);
  });

  it('is listed for its owner only, by browser and system, with the current one marked; an ordinary sign-in is not; past the cap the oldest ends', async () => {
    const owner = await activeAccount(devices);
    const other = await activeAccount(devices);
    const signIns = 25;
    const tokens: string[] = [];
    for (let i = 0; i < signIns; i++) tokens.push(await rememberedSignIn(owner, i % 2 === 0 ? 'on' : true));
    const ordinary = await signedIn(devices, owner);
    await rememberedSignIn(other);

    const listed = await withCookie(devices, tokens[10]).get('/me/devices');
    expect(listed.status, listed.text).toBe(200);
    const list = listed.body.devices as Array<{ id: string; device: string; current: boolean; expiresAt: string }>;
    expect(list).toHaveLength(MAX_KEPT_DEVICES);
    const dropped = signIns - MAX_KEPT_DEVICES;
    for (const token of tokens.slice(0, dropped))
      expect((await withCookie(devices, token).get('/me')).status, 'signed in before the newest ones').toBe(401);
    expect((await withCookie(devices, tokens[dropped]).get('/me')).status).toBe(200);
    expect(new Set(list.map((d) => d.device))).toEqual(new Set(['Chrome · Android']));
    expect(list.filter((d) => d.current)).toHaveLength(1);
    // The list names sessions by a digest: nothing in it is a token or a session id.
    for (const device of list) for (const token of tokens) expect(token).not.toContain(device.id);
    expect((await ordinary.get('/me/devices')).body.devices).toHaveLength(MAX_KEPT_DEVICES);
    expect((await api(devices).get('/me/devices')).status).toBe(401);
  });

  it('is ended from another session: the device is signed out, and ending it again says it is gone', async () => {
    const owner = await activeAccount(devices);
    const lost = await rememberedSignIn(owner);
    const desk = await signedIn(devices, owner);
    const [device] = (await desk.get('/me/devices')).body.devices as Array<{ id: string }>;
    const stranger = await signedIn(devices, await activeAccount(devices));
    expect((await stranger.delete(`/me/devices/${device.id}`)).body).toMatchObject({ code: 'NO_SUCH_DEVICE' });
    expect((await withCookie(devices, lost).get('/me')).status, 'a stranger cannot end it').toBe(200);

    const ended = await desk.delete(`/me/devices/${device.id}`);
    expect(ended.status, ended.text).toBe(200);
    expect((await withCookie(devices, lost).get('/me')).status).toBe(401);
    const again = await desk.delete(`/me/devices/${device.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'NO_SUCH_DEVICE' });
    expect((await desk.get('/me')).status, 'the desk session goes on').toBe(200);
  });

  it('answers 400 to a malformed device id or remember value, never 500', async () => {
    const desk = await signedIn(devices, await activeAccount(devices));
    for (const id of ['a'.repeat(65), 'x%2F..', '%00', 'a b'])
      expect((await desk.delete(`/me/devices/${id}`)).status, id).toBe(400);
    const account = await activeAccount(devices);
    const answer = await api(devices).post('/login', {
      json: { login: account.login, password: account.password, remember: 'forever' },
    });
    expect(answer.status).toBe(400);
  });
});
