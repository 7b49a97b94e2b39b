import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectNoLeakInRecordedAnswers, leaksIn, recordedAnswers, root } from './apiClient.ts';
import {
  GENEROUS_RATE_LIMITS,
  activeAccount,
  generatedAdmin,
  newIdentity,
  signedIn,
  type Account,
} from './accountFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { MAX_KEY_FAILURES, delayAfter } from '../../server/services/signInThrottle.ts';

/** What the server does with hostile or broken requests: CSRF, oversized and malformed bodies, floods, leaks. */

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

const error = (code: string) => expect.objectContaining({ code, message: code });
const EVIL = 'https://evil.example';

describe('CSRF guard', () => {
  it('refuses a POST whose Origin is another site with 403 CSRF_REFUSED, and does nothing', async () => {
    const identity = newIdentity();
    const answer = await api(server, { origin: EVIL }).post('/users', { form: { ...identity } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CSRF_REFUSED'));
    expect((await api(server).post('/users', { form: { ...identity } })).status).toBe(201);
  });

  it('refuses a PUT whose Origin is another site with 403 CSRF_REFUSED', async () => {
    const account = await activeAccount(server);
    const answer = await api(server, { origin: EVIL }).put('/users', {
      json: { login: account.login, email: account.email },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CSRF_REFUSED'));
  });

  it('refuses a DELETE whose Origin is another site with 403 CSRF_REFUSED: the session survives', async () => {
    const client = await signedIn(server, await activeAccount(server));
    const answer = await client.delete('/logout', { headers: { origin: EVIL } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CSRF_REFUSED'));
    expect((await client.get('/me')).status).toBe(200);
  });

  it('refuses a sign-in posted from another site, even with the right password', async () => {
    const account = await activeAccount(server);
    const client = api(server, { origin: EVIL });
    const answer = await client.post('/login', { form: { login: account.login, password: account.password } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CSRF_REFUSED'));
    expect(client.cookieNames).toEqual([]);
  });

  it('refuses a state-changing call whose only source header, Referer, names another site', async () => {
    const account = await activeAccount(server);
    const answer = await api(server, { referer: `${EVIL}/page.html` }).put('/users', {
      json: { login: account.login, email: account.email },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CSRF_REFUSED'));
  });

  it('refuses the opaque Origin "null" of sandboxed pages', async () => {
    const answer = await api(server, { origin: 'null' }).post('/users', { form: { ...newIdentity() } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CSRF_REFUSED'));
  });

  it('treats the same host on another port as another site', async () => {
    const other = new URL(server.url);
    other.port = String(Number(other.port) === 65535 ? 65534 : Number(other.port) + 1);
    const answer = await api(server, { origin: other.origin }).post('/users', { form: { ...newIdentity() } });
    expect(answer.status).toBe(403);
  });

  it('lets a call whose Origin is the portal itself through', async () => {
    const account = await activeAccount(server);
    const answer = await api(server, { origin: new URL(server.url).origin }).post('/login', {
      form: { login: account.login, password: account.password },
    });
    expect(answer.status).toBe(200);
  });

  it('lets a call whose Referer is a page of the portal through', async () => {
    const answer = await api(server, { referer: `${server.url}/login` }).post('/users', { form: { ...newIdentity() } });
    expect(answer.status).toBe(201);
  });

  it('lets a call with neither Origin nor Referer through, as scripts send them', async () => {
    const client = await signedIn(server, await activeAccount(server));
    const answer = await client.delete('/logout');
    expect(answer.status).toBe(200);
  });

  it('does not apply to reading calls', async () => {
    const client = await signedIn(server, await activeAccount(server));
    const answer = await client.get('/me', { headers: { origin: EVIL } });
    expect(answer.status).toBe(200);
  });
});

describe('broken or oversized requests', () => {
  it('refuses a JSON body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const answer = await api(server).post('/users', { json: { ...newIdentity(), login: 'x'.repeat(1024 * 1024) } });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(error('PAYLOAD_TOO_LARGE'));
  });

  it('refuses a form body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const answer = await api(server).post('/login', {
      form: { login: 'someone', password: 'p'.repeat(1024 * 1024 + 1) },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(error('PAYLOAD_TOO_LARGE'));
  });

  it('answers 404 NOT_FOUND as JSON for an unknown route under /api', async () => {
    const client = root(server);
    for (const [method, path] of [
      ['GET', '/api/v1/nothing-here'],
      ['POST', '/api/v1/nothing-here'],
      ['DELETE', '/api/v1/users'],
      ['GET', '/api/v2/users'],
      ['GET', '/api/'],
    ]) {
      const answer = await client.request(method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
      expect(answer.body, `${method} ${path}`).toEqual(error('NOT_FOUND'));
    }
  });

  it('answers 400 with a JSON error body to malformed JSON', async () => {
    for (const [method, path] of [
      ['POST', '/login'],
      ['POST', '/users'],
      ['PUT', '/users'],
    ]) {
      const answer = await api(server).request(method, path, {
        headers: { 'content-type': 'application/json' },
        body: '{"login": "abcd", ',
      });
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
      expect(answer.body, `${method} ${path}`).toEqual(error('BAD_REQUEST'));
    }
  });

  it('answers 400 BAD_REQUEST naming the field when a required field is missing', async () => {
    const answer = await api(server).post('/login', { json: { login: 'someone' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(error('BAD_REQUEST'));
    expect(JSON.stringify(answer.body.params)).toContain('password');
  });

  it('answers 400 BAD_REQUEST to a body that is not an object', async () => {
    for (const body of ['[1,2]', 'null', '"text"']) {
      const answer = await api(server).request('PUT', '/users', {
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(answer.status, body).toBe(400);
      expect(answer.body, body).toEqual(error('BAD_REQUEST'));
    }
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a body type the API does not read', async () => {
    const answer = await api(server).post('/login', {
      headers: { 'content-type': 'application/xml' },
      body: '<login/>',
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual(error('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('answers 400, not a server error, to text holding a NUL character', async () => {
    const admin = await signedIn(server, await generatedAdmin(server));
    const answers = [
      await api(server).post('/login', { json: { login: 'ab\u0000cd', password: 'whatever' } }),
      await api(server).post('/users', { json: { ...newIdentity(), login: 'ab\u0000cd' } }),
      await api(server).post('/users', { json: { ...newIdentity(), email: 'a\u0000b@example.org' } }),
      await api(server).put('/users', { json: { login: 'ab\u0000cd', email: 'someone@example.org' } }),
      await admin.get('/users/ab%00cd'),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body).toEqual(error('BAD_REQUEST'));
    }
  });

  it('marks every answer with the basic security headers', async () => {
    const answer = await api(server).get('/me');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(answer.headers.get('referrer-policy')).toBe('same-origin');
  });
});

describe('secrets in answers', () => {
  it('recognises what it looks for: a password hash, an argon2 hash, a stack trace', () => {
    expect(leaksIn('{"password_hash":"x"}')).not.toEqual([]);
    expect(leaksIn('"$argon2id$v=19$m=19456,t=2,p=1$abc$def"')).not.toEqual([]);
    expect(leaksIn('Error: boom\n    at signIn (/work/main/server/services/accounts.ts:95:11)')).not.toEqual([]);
    expect(leaksIn('{"code":"BAD_LOGIN_PASSWORD","message":"BAD_LOGIN_PASSWORD","params":{}}')).toEqual([]);
  });

  it('never shows a password hash through a whole account life cycle, the administrator’s views included', async () => {
    const from = recordedAnswers.length;
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    await client.get('/me');
    await client.get(`/users/${account.login}`);
    await client.put('/users', {
      json: { login: account.login, password: account.password, email: newIdentity().email },
    });
    await client.put('/users', {
      json: {
        login: account.login,
        password: account.password,
        newPassword: 'Other-password-1',
        newPasswordConfirm: 'Other-password-1',
      },
    });
    const admin = await signedIn(server, await generatedAdmin(server));
    await admin.get(`/users/${account.id}`);
    await admin.get('/me');
    await client.delete('/logout');
    const seen = recordedAnswers.slice(from);
    expect(seen.length).toBeGreaterThanOrEqual(11);
    expect(seen.filter((a) => leaksIn(a.text).length > 0)).toEqual([]);
  });
});

describe('OpenAPI document', () => {
  it('is served at /api/v1/openapi.json and lists every account call', async () => {
    const answer = await api(server).get('/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toMatch(/^3\./);
    const paths = answer.body.paths as Record<string, Record<string, unknown>>;
    const calls = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(calls).toEqual(
      expect.arrayContaining([
        'POST /api/v1/login',
        'DELETE /api/v1/logout',
        'GET /api/v1/me',
        'POST /api/v1/users',
        'PUT /api/v1/users',
        'GET /api/v1/users/{idOrLogin}',
      ]),
    );
  });
});

describe('rate limits', () => {
  // Behind a trusted proxy the client address comes from X-Forwarded-For, so each test can speak from its own
  // addresses on one shared server.
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      trustProxy: true,
      loginRateLimit: { perLogin: 3, perAddress: 5, global: 100_000, windowSeconds: 900 },
    });
  });
  afterAll(() => limited?.close());

  let addressCount = 0;
  const newAddress = () => `203.0.113.${(addressCount += 1)}`;
  const from = (address: string) => api(limited, { 'x-forwarded-for': address });
  const signIn = (address: string, login: string, password: string) =>
    from(address).post('/login', { form: { login, password } });

  async function registeredFrom(address: string, prefix: string): Promise<Account> {
    const identity = newIdentity(prefix);
    const answer = await from(address).post('/users', { form: { ...identity } });
    expect(answer.status, answer.text).toBe(201);
    return { ...identity, id: answer.body.id };
  }

  async function accountFrom(address: string): Promise<Account> {
    const account = await registeredFrom(address, 'limited');
    const verificationKey = await limited.lastKey(account.email);
    expect(
      (
        await from(address).put('/users', {
          json: { login: account.login, password: account.password, verificationKey },
        })
      ).status,
    ).toBe(200);
    return account;
  }

  const retryAfter = (answer: { headers: Headers }) => Number(answer.headers.get('retry-after'));

  it('slows down the failures of one login from one address, and says when to try again', async () => {
    const account = await accountFrom(newAddress());
    const guesser = newAddress();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await signIn(guesser, account.login, 'wrong password')).status, `attempt ${attempt}`).toBe(401);
    }
    // The fourth must wait: a second after the third failure. The right password is not even checked meanwhile.
    const refused = await signIn(guesser, account.login, account.password);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(retryAfter(refused)).toBe(1);
    const stored = await limited.server.ctx.db
      .selectFrom('sign_in_failures')
      .select(['bucket', 'failures'])
      .where('bucket', 'like', `pair:["${account.login.toLowerCase()}"%`)
      .execute();
    expect(stored.map((row) => row.failures)).toEqual([3]);
  });

  it('counts the passwords tried through PUT /users as sign-in failures: no second door for guessing, nor a takeover', async () => {
    const account = await accountFrom(newAddress());
    const guesser = newAddress();
    const guess = (password: string, extra: object = {}) =>
      from(guesser).put('/users', { json: { login: account.login, password, ...extra } });
    for (let attempt = 1; attempt <= 3; attempt += 1)
      expect((await guess(`wrong guess ${attempt}`)).body.code, `attempt ${attempt}`).toBe('BAD_CURRENT_PASSWORD');
    // The right password is not even checked now, on either door, nor a change of password made with it.
    const takeover = await guess(account.password, {
      newPassword: 'Attacker-pass-1',
      newPasswordConfirm: 'Attacker-pass-1',
    });
    expect([takeover.status, takeover.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    expect((await signIn(guesser, account.login, account.password)).status).toBe(429);
    // The owner, from their own address, is not held back, and their password is unchanged.
    expect((await signIn(newAddress(), account.login, account.password)).status).toBe(200);
  });

  it('doubles the wait with each further failure, up to a quarter of an hour', () => {
    expect([2, 3, 4, 5, 6, 13, 14, 40].map((failures) => delayAfter(failures, 3))).toEqual([
      0, 1, 2, 4, 8, 900, 900, 900,
    ]);
  });

  it('never holds the owner back: failures from elsewhere do not count against them, and their success clears their own', async () => {
    const account = await accountFrom(newAddress());
    const home = newAddress();
    for (let attempt = 1; attempt <= 8; attempt += 1) await signIn(newAddress(), account.login, 'wrong password');
    const attacker = newAddress();
    for (let attempt = 1; attempt <= 3; attempt += 1) await signIn(attacker, account.login, 'wrong password');
    expect((await signIn(attacker, account.login, 'wrong password')).status).toBe(429);
    // The owner, from their own address, after two typing mistakes.
    for (let attempt = 1; attempt <= 2; attempt += 1)
      expect((await signIn(home, account.login, 'typo')).status).toBe(401);
    expect((await signIn(home, account.login, account.password)).status).toBe(200);
    for (let attempt = 1; attempt <= 3; attempt += 1)
      expect((await signIn(home, account.login, 'typo')).status, `after the success, ${attempt}`).toBe(401);
  });

  it('counts successes for nothing: a team behind one address signs in as often as it likes', async () => {
    const office = newAddress();
    const team = await Promise.all([accountFrom(newAddress()), accountFrom(newAddress())]);
    for (let round = 0; round < 4; round += 1) {
      for (const member of team) expect((await signIn(office, member.login, member.password)).status).toBe(200);
    }
  });

  it('refuses sign-ins from one address past its failures of the window, whatever the login, with the rest of the window to wait', async () => {
    const address = newAddress();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await signIn(address, newIdentity('spray').login, 'guess')).status, `attempt ${attempt}`).toBe(401);
    }
    const refused = await signIn(address, newIdentity('spray').login, 'guess');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(retryAfter(refused)).toBeGreaterThan(800);
    const account = await accountFrom(newAddress());
    expect((await signIn(newAddress(), account.login, account.password)).status).toBe(200);
  });

  it('counts wrong keys per account: the live key dies at the last one allowed, and no key is checked until the window ends', async () => {
    const account = await registeredFrom(newAddress(), 'keyed');
    const activate = (verificationKey: string) =>
      from(newAddress()).put('/users', { json: { login: account.login, password: account.password, verificationKey } });
    for (let attempt = 1; attempt <= MAX_KEY_FAILURES; attempt += 1) {
      // A wrong key mails a fresh one while the account's mails allow it (429 TOO_MANY_REQUESTS after that).
      expect([422, 429], `attempt ${attempt}`).toContain((await activate('ABCDEFGHJK')).status);
    }
    const live = await limited.server.ctx.db
      .selectFrom('verification_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select('k.id')
      .where('u.login', '=', account.login)
      .where('k.used_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
    const refused = await activate(await limited.lastKey(account.email));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(retryAfter(refused)).toBeGreaterThan(800);
  });

  it('limits the key mails one account can trigger with 429 TOO_MANY_REQUESTS', async () => {
    const account = await registeredFrom(newAddress(), 'mailed');
    // The activation key was the first mail; two more are allowed within the window.
    for (let request = 1; request <= 2; request += 1) {
      expect(
        (await from(newAddress()).put('/users', { json: { login: account.login, email: account.email } })).status,
        `request ${request}`,
      ).toBe(200);
    }
    const refused = await from(newAddress()).put('/users', { json: { login: account.login, email: account.email } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(error('TOO_MANY_REQUESTS'));
    expect(retryAfter(refused)).toBeGreaterThan(800);
  });

  it('tells whether an address is taken through an address change as often as registering from one address may', async () => {
    const [owner, prober] = [await accountFrom(newAddress()), await accountFrom(newAddress())];
    const change = () =>
      from(newAddress()).put('/users', {
        json: { login: prober.login, password: prober.password, email: owner.email },
      });
    for (let attempt = 1; attempt <= 5; attempt += 1)
      expect((await change()).body.code, `attempt ${attempt}`).toBe('EXISTING_EMAIL');
    const refused = await change();
    expect([refused.status, refused.body.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
  });

  it('tells the owner of an address registered again a few times a window, and keeps their keys', async () => {
    const owner = await accountFrom(newAddress());
    const before = (await limited.mails()).filter((m) => m.to === owner.email).length;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const answer = await from(newAddress()).post('/users', { form: { ...newIdentity('again'), email: owner.email } });
      expect([answer.status, answer.body.code], `attempt ${attempt}`).toEqual([422, 'EXISTING_EMAIL']);
    }
    const notices = (await limited.mails()).filter((m) => m.to === owner.email).slice(before);
    expect(notices).toHaveLength(3);
    expect(notices.every((m) => m.key === undefined)).toBe(true);
    // The notices count apart from the key mails: a stranger registering the address cannot keep its keys away.
    const lost = await from(newAddress()).put('/users', { json: { login: owner.login, email: owner.email } });
    expect(lost.status, lost.text).toBe(200);
  });
});

describe('the platform-wide limit on failed sign-ins', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({
      trustProxy: true,
      loginRateLimit: { perLogin: 100, perAddress: 100, global: 3, windowSeconds: 900 },
    });
  });
  afterAll(() => guarded?.close());
  const signIn = (address: string, login: string, password: string) =>
    api(guarded, { 'x-forwarded-for': address }).post('/login', { form: { login, password } });

  it('holds back the addresses that failed once it is reached, never one that did not', async () => {
    const account = await activeAccount(guarded);
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      expect((await signIn(address, newIdentity('spray').login, 'guess')).status).toBe(401);
    const refused = await signIn('198.51.100.1', newIdentity('spray').login, 'guess');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await signIn('198.51.100.9', account.login, account.password)).status).toBe(200);
  });
});
