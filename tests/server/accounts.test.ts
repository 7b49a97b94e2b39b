import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectNoLeakInRecordedAnswers } from './apiClient.ts';
import {
  GENEROUS_RATE_LIMITS,
  KEY_SHAPE,
  NEVER_ISSUED_KEY,
  activeAccount,
  generatedAdmin,
  mailsTo,
  newIdentity,
  registerAccount,
  setAccountState,
  signInStatus,
  signedIn,
} from './accountFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** The account life cycle over HTTP: registration, activation, sign-in, reading, password and e-mail changes. */

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

describe('registration', () => {
  it('answers 201 with the location and id of the new account', async () => {
    const identity = newIdentity();
    const answer = await api(server).post('/users', { form: { ...identity } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(answer.headers.get('location')).toBe(`/api/v1/users/${answer.body.id}`);
  });

  it('mails one 10-character key from the unambiguous alphabet to the new address', async () => {
    const account = await registerAccount(server);
    const mails = await mailsTo(server, account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].key).toMatch(KEY_SHAPE);
    expect(mails[0].text).toContain(account.login);
  });

  it('accepts the registration as JSON as well as form fields', async () => {
    const identity = newIdentity();
    const answer = await api(server).post('/users', { json: identity });
    expect(answer.status).toBe(201);
    expect(await server.lastKey(identity.email)).toMatch(KEY_SHAPE);
  });

  it('does not sign the new account in', async () => {
    const client = api(server);
    await client.post('/users', { form: { ...newIdentity() } });
    expect(client.cookieNames).toEqual([]);
    expect((await client.get('/me')).status).toBe(401);
  });

  it('refuses a login already taken with 412 EXISTING_LOGIN', async () => {
    const taken = await registerAccount(server);
    const answer = await api(server).post('/users', { form: { ...newIdentity(), login: taken.login } });
    expect(answer.status).toBe(412);
    expect(answer.body).toEqual(error('EXISTING_LOGIN'));
  });

  it('treats logins without regard to case: "Alice" is taken once "alice" exists', async () => {
    const lower = newIdentity('alice');
    await registerAccount(server, lower);
    const capitalised = { ...newIdentity(), login: lower.login.replace('alice', 'Alice') };
    const answer = await api(server).post('/users', { form: capitalised });
    expect(answer.status).toBe(412);
    expect(answer.body).toEqual(error('EXISTING_LOGIN'));
  });

  it('refuses an address already used, whatever its case, with 422 EXISTING_EMAIL, creating nothing and telling its owner by mail', async () => {
    const taken = await activeAccount(server);
    const identity = { ...newIdentity('intruder'), email: taken.email.toUpperCase() };
    const mailed = (await mailsTo(server, taken.email)).length;
    const client = api(server, { 'Accept-Language': 'en' });
    const answer = await client.post('/users', { form: identity });
    expect([answer.status, answer.body], answer.text).toEqual([422, error('EXISTING_EMAIL')]);
    expect(client.cookieNames).toEqual([]);
    expect(await signInStatus(server, identity.login, identity.password)).toBe(401);
    const users = await server.server.ctx.db.selectFrom('users').select('login').execute();
    expect(users.map((u) => u.login)).not.toContain(identity.login);
    // The owner learns that someone tried, in the caller's language, with no key and no word of the other login.
    const mails = (await mailsTo(server, taken.email)).slice(mailed);
    expect(mails).toHaveLength(1);
    expect(mails[0].key).toBeUndefined();
    expect(mails[0].subject).toMatch(/^Terrain: /);
    expect(mails[0].text).toContain(taken.login);
    expect(mails[0].text).toContain('Lost password?');
    expect(mails[0].text).not.toContain(identity.login);
    // The login stays free for whoever registers it with an address of their own.
    expect((await api(server).post('/users', { form: { ...identity, email: newIdentity().email } })).status).toBe(201);
  });

  it('answers registrations racing for one new address with one account and EXISTING_EMAIL, telling the address the others', async () => {
    const { email } = newIdentity('raced');
    const identities = Array.from({ length: 4 }, () => ({ ...newIdentity('racer'), email }));
    const answers = await Promise.all(identities.map((identity) => api(server).post('/users', { form: identity })));
    expect(answers.map((a) => [a.status, a.body.code]).sort()).toEqual([
      [201, undefined],
      [422, 'EXISTING_EMAIL'],
      [422, 'EXISTING_EMAIL'],
      [422, 'EXISTING_EMAIL'],
    ]);
    const owners = await server.server.ctx.db.selectFrom('users').select('login').where('email', '=', email).execute();
    expect(owners).toHaveLength(1);
    const mails = await mailsTo(server, email);
    expect(mails.filter((m) => m.key)).toHaveLength(1);
    expect(mails.filter((m) => !m.key)).toHaveLength(3);
  });

  it('refuses a login shorter than 4 characters with 422 INVALID_FIELDS', async () => {
    const identity = { ...newIdentity(), login: 'abc' };
    const answer = await api(server).post('/users', { form: identity });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('INVALID_FIELDS'));
    expect(answer.body.params.fields).toEqual([{ field: 'login', rule: 'loginTooShort' }]);
    expect(await mailsTo(server, identity.email)).toEqual([]);
  });

  it('refuses a malformed address with 422 INVALID_FIELDS', async () => {
    for (const email of ['not-an-address', 'two@@example.org', 'nobody@nowhere', 'spaced out@example.org']) {
      const answer = await api(server).post('/users', { form: { ...newIdentity(), email } });
      expect(answer.status, email).toBe(422);
      expect(answer.body, email).toEqual(error('INVALID_FIELDS'));
      expect(answer.body.params.fields, email).toEqual([{ field: 'email', rule: 'invalidEmail' }]);
    }
  });

  it('refuses an empty password with 422 INVALID_FIELDS', async () => {
    const answer = await api(server).post('/users', { form: { ...newIdentity(), password: '' } });
    expect(answer.status).toBe(422);
    expect(answer.body.params.fields).toEqual([{ field: 'password', rule: 'required' }]);
  });

  it('refuses a password of fewer than 8 characters (as people count them) with 422 INVALID_FIELDS, mailing nothing', async () => {
    for (const password of ['1234567', '🌲🌲🌲🌲🌲🌲🌲']) {
      const identity = { ...newIdentity(), password };
      const answer = await api(server).post('/users', { json: identity });
      expect(answer.status, password).toBe(422);
      expect(answer.body.params.fields, password).toEqual([{ field: 'password', rule: 'passwordTooShort' }]);
      expect(await mailsTo(server, identity.email)).toEqual([]);
    }
    expect(
      (await api(server).post('/users', { json: { ...newIdentity(), password: '🌲🌲🌲🌲🌲🌲🌲🌲' } })).status,
    ).toBe(201);
  });

  it('refuses an address the mail transport would not read as that one address with 422 INVALID_FIELDS', async () => {
    const { email } = newIdentity();
    // A list, a display name, a comment, and a control character the transport drops (the forms' own rule lets it through).
    for (const given of [`x,${email}`, `Ann <${email}>`, `(x)${email}`, `\u0001${email}`]) {
      const answer = await api(server).post('/users', { json: { ...newIdentity(), email: given } });
      expect(answer.status, given).toBe(422);
      expect(answer.body, given).toEqual(error('INVALID_FIELDS'));
      expect(answer.body.params.fields, given).toEqual([{ field: 'email', rule: 'invalidEmail' }]);
    }
    expect(await mailsTo(server, email)).toEqual([]);
  });
});

describe('activation', () => {
  it('activates the account with PUT /users {login, password, verificationKey}', async () => {
    const account = await registerAccount(server);
    const verificationKey = await server.lastKey(account.email);
    const answer = await api(server).put('/users', {
      json: { login: account.login, password: account.password, verificationKey },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      userId: account.id,
      login: account.login,
      email: account.email,
      accountState: 'active',
      chartes: {},
    });
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
  });

  it('accepts the key typed in lower case with spaces around it', async () => {
    const account = await registerAccount(server);
    const verificationKey = ` ${(await server.lastKey(account.email)).toLowerCase()} `;
    const answer = await api(server).put('/users', {
      json: { login: account.login, password: account.password, verificationKey },
    });
    expect(answer.status).toBe(200);
  });

  it('refuses a wrong key with 422 BAD_VALIDATION_KEY and mails a new key that works', async () => {
    const account = await registerAccount(server);
    const first = await server.lastKey(account.email);
    const wrong = first === NEVER_ISSUED_KEY ? 'ZZZZZZZZZZ' : NEVER_ISSUED_KEY;
    const refused = await api(server).put('/users', {
      json: { login: account.login, password: account.password, verificationKey: wrong },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(error('BAD_VALIDATION_KEY'));

    expect(await mailsTo(server, account.email)).toHaveLength(2);
    const fresh = await server.lastKey(account.email);
    expect(fresh).toMatch(KEY_SHAPE);
    const accepted = await api(server).put('/users', {
      json: { login: account.login, password: account.password, verificationKey: fresh },
    });
    expect(accepted.status).toBe(200);
  });

  it('refuses a key of the wrong length with 422 BAD_VALIDATION_KEY', async () => {
    const account = await registerAccount(server);
    const answer = await api(server).put('/users', {
      json: { login: account.login, password: account.password, verificationKey: 'ABC' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('BAD_VALIDATION_KEY'));
  });

  it('refuses the right key with a wrong password with 422 BAD_CURRENT_PASSWORD', async () => {
    const account = await registerAccount(server);
    const verificationKey = await server.lastKey(account.email);
    const answer = await api(server).put('/users', {
      json: { login: account.login, password: 'not the password', verificationKey },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('BAD_CURRENT_PASSWORD'));
    expect(await signInStatus(server, account.login, account.password)).toBe(402);
  });

  it('takes only the newest key once a fresh one has been mailed', async () => {
    const account = await registerAccount(server);
    const first = await server.lastKey(account.email);
    expect(await signInStatus(server, account.login, account.password)).toBe(402);
    const stale = await api(server).put('/users', {
      json: { login: account.login, password: account.password, verificationKey: first },
    });
    expect(stale.status).toBe(422);
    expect(stale.body).toEqual(error('BAD_VALIDATION_KEY'));
  });

  describe('with keys valid for one minute', () => {
    let shortKeys: TestServer;
    beforeAll(async () => {
      shortKeys = await startTestServer({ ...GENEROUS_RATE_LIMITS, keyValiditySeconds: 60 });
    });
    afterAll(() => shortKeys?.close());

    it('refuses an expired key with 422 EXPIRED_VALIDATION_KEY and mails a new key', async () => {
      const account = await registerAccount(shortKeys);
      const old = await shortKeys.lastKey(account.email);
      shortKeys.clock.advance(61_000);
      const refused = await api(shortKeys).put('/users', {
        json: { login: account.login, password: account.password, verificationKey: old },
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(error('EXPIRED_VALIDATION_KEY'));

      const mails = await mailsTo(shortKeys, account.email);
      expect(mails).toHaveLength(2);
      expect(mails[1].key).toMatch(KEY_SHAPE);
      expect(mails[1].key).not.toBe(old);
    });
  });
});

describe('sign-in', () => {
  it('refuses an account not yet activated with 402 INACTIVE_ACCOUNT and mails a fresh key', async () => {
    const account = await registerAccount(server);
    const answer = await api(server).post('/login', { form: { login: account.login, password: account.password } });
    expect(answer.status).toBe(402);
    expect(answer.body).toEqual(error('INACTIVE_ACCOUNT'));
    const mails = await mailsTo(server, account.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].key).toMatch(KEY_SHAPE);
    expect(mails[1].key).not.toBe(mails[0].key);
  });

  it('activates with the key mailed after a 402, then signs in', async () => {
    const account = await registerAccount(server);
    expect(await signInStatus(server, account.login, account.password)).toBe(402);
    const verificationKey = await server.lastKey(account.email);
    expect(
      (await api(server).put('/users', { json: { login: account.login, password: account.password, verificationKey } }))
        .status,
    ).toBe(200);
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
  });

  it('answers 200 with the user, including its id', async () => {
    const account = await activeAccount(server);
    const answer = await api(server).post('/login', { form: { login: account.login, password: account.password } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: account.id,
      login: account.login,
      email: account.email,
      state: 'active',
      terrainAdmin: false,
      authorizedForApplicationCreation: false,
      authorizations: [],
      chartes: {},
      currentUserRoles: {
        userId: account.id,
        userLogin: account.login,
        isTerrainAdmin: false,
        isApplicationCreator: false,
      },
    });
  });

  it('accepts the credentials as JSON as well as form fields', async () => {
    const account = await activeAccount(server);
    const answer = await api(server).post('/login', { json: { login: account.login, password: account.password } });
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(account.id);
  });

  it('accepts the login in another case', async () => {
    const account = await activeAccount(server);
    expect(await signInStatus(server, account.login.toUpperCase(), account.password)).toBe(200);
  });

  it('refuses a wrong password with 401 BAD_LOGIN_PASSWORD', async () => {
    const account = await activeAccount(server);
    const answer = await api(server).post('/login', {
      form: { login: account.login, password: `${account.password}x` },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(error('BAD_LOGIN_PASSWORD'));
  });

  it('refuses an unknown login with the same 401 BAD_LOGIN_PASSWORD', async () => {
    const answer = await api(server).post('/login', { form: { login: 'nobody-here', password: 'whatever' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(error('BAD_LOGIN_PASSWORD'));
  });

  it('refuses an empty password with 401 BAD_LOGIN_PASSWORD', async () => {
    const account = await activeAccount(server);
    expect(await signInStatus(server, account.login, '')).toBe(401);
  });

  it('answers 401 to a wrong password on an inactive account, without telling its state or mailing a key', async () => {
    const account = await registerAccount(server);
    const answer = await api(server).post('/login', { form: { login: account.login, password: 'wrong password' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(error('BAD_LOGIN_PASSWORD'));
    expect(await mailsTo(server, account.email)).toHaveLength(1);
  });

  it('refuses a pending account with 402 PENDING_ACCOUNT and mails a key that activates it', async () => {
    const account = await activeAccount(server);
    await setAccountState(server, account.login, 'pending');
    const before = (await mailsTo(server, account.email)).length;

    const answer = await api(server).post('/login', { form: { login: account.login, password: account.password } });
    expect(answer.status).toBe(402);
    expect(answer.body).toEqual(error('PENDING_ACCOUNT'));
    expect(await mailsTo(server, account.email)).toHaveLength(before + 1);

    const verificationKey = await server.lastKey(account.email);
    expect(
      (await api(server).put('/users', { json: { login: account.login, password: account.password, verificationKey } }))
        .status,
    ).toBe(200);
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
  });

  it('refuses a closed account with 403 CLOSED_ACCOUNT and mails nothing', async () => {
    const account = await activeAccount(server);
    await setAccountState(server, account.login, 'closed');
    const before = (await mailsTo(server, account.email)).length;
    const answer = await api(server).post('/login', { form: { login: account.login, password: account.password } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CLOSED_ACCOUNT'));
    expect(await mailsTo(server, account.email)).toHaveLength(before);
  });
});

describe('reading accounts', () => {
  it('GET /me answers the signed-in user', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const answer = await client.get('/me');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: account.id, login: account.login, email: account.email, state: 'active' });
  });

  it('GET /me without a session answers 401', async () => {
    const answer = await api(server).get('/me');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(error('NOT_AUTHENTICATED'));
  });

  it('GET /users/{login} and GET /users/{id} answer one’s own stored account', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    for (const idOrLogin of [account.login, account.id]) {
      const answer = await client.get(`/users/${idOrLogin}`);
      expect(answer.status, idOrLogin).toBe(200);
      expect(answer.body, idOrLogin).toMatchObject({
        id: account.id,
        login: account.login,
        email: account.email,
        accountstate: 'active',
        pendingEmail: null,
        terrainAdmin: false,
        creationDate: expect.any(String),
        updateDate: expect.any(String),
      });
    }
  });

  it('GET /users/{idOrLogin} without a session answers 401', async () => {
    const account = await activeAccount(server);
    expect((await api(server).get(`/users/${account.login}`)).status).toBe(401);
  });

  it('refuses to show another user’s account with 403 BAD_LOGIN_FOR_ACTION', async () => {
    const other = await activeAccount(server);
    const client = await signedIn(server, await activeAccount(server));
    for (const idOrLogin of [other.login, other.id]) {
      const answer = await client.get(`/users/${idOrLogin}`);
      expect(answer.status, idOrLogin).toBe(403);
      expect(answer.body, idOrLogin).toEqual(error('BAD_LOGIN_FOR_ACTION'));
    }
  });

  it('does not tell a regular user whether some other login exists', async () => {
    const client = await signedIn(server, await activeAccount(server));
    const answer = await client.get('/users/no-such-login');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('BAD_LOGIN_FOR_ACTION'));
  });

  it('lets the platform administrator read any account', async () => {
    const account = await activeAccount(server);
    const admin = await signedIn(server, await generatedAdmin(server));
    for (const idOrLogin of [account.login, account.id]) {
      const answer = await admin.get(`/users/${idOrLogin}`);
      expect(answer.status, idOrLogin).toBe(200);
      expect(answer.body, idOrLogin).toMatchObject({ id: account.id, login: account.login });
    }
  });

  it('answers 404 UNKNOWN_USER to the administrator for an unknown login or id', async () => {
    const admin = await signedIn(server, await generatedAdmin(server));
    for (const idOrLogin of ['no-such-login', '00000000-0000-4000-8000-000000000000']) {
      const answer = await admin.get(`/users/${idOrLogin}`);
      expect(answer.status, idOrLogin).toBe(404);
      expect(answer.body, idOrLogin).toEqual(error('UNKNOWN_USER'));
    }
  });

  it('answers 404, not a server error, for a 36-character value that is no valid id', async () => {
    const admin = await signedIn(server, await generatedAdmin(server));
    for (const value of ['-'.repeat(36), 'a'.repeat(36)]) {
      const answer = await admin.get(`/users/${value}`);
      expect(answer.status, value).toBe(404);
      expect(answer.body, value).toEqual(error('UNKNOWN_USER'));
    }
  });
});

describe('password change', () => {
  const change = (login: string, password: string, newPassword: string, newPasswordConfirm = newPassword) => ({
    json: { login, password, newPassword, newPasswordConfirm },
  });

  it('refuses a wrong current password with 422 BAD_CURRENT_PASSWORD', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const answer = await client.put('/users', change(account.login, 'not my password', 'New-password-1'));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('BAD_CURRENT_PASSWORD'));
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
  });

  it('refuses a confirmation that differs from the new password with 422 BAD_PASSWORDS', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const answer = await client.put(
      '/users',
      change(account.login, account.password, 'New-password-1', 'New-password-2'),
    );
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('BAD_PASSWORDS'));
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
  });

  it('refuses an empty new password with 422 BAD_PASSWORDS', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const answer = await client.put('/users', change(account.login, account.password, ''));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('BAD_PASSWORDS'));
  });

  it('refuses a new password of fewer than 8 characters with 422 INVALID_FIELDS and keeps the old one', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const answer = await client.put('/users', change(account.login, account.password, 'Short-1'));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('INVALID_FIELDS'));
    expect(answer.body.params.fields).toEqual([{ field: 'newPassword', rule: 'passwordTooShort' }]);
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
    expect(await signInStatus(server, account.login, 'Short-1')).toBe(401);
  });

  it('replaces the password: the old one is refused, the new one signs in', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const answer = await client.put('/users', change(account.login, account.password, 'New-password-1'));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ userId: account.id, accountState: 'active' });
    expect(await signInStatus(server, account.login, account.password)).toBe(401);
    expect(await signInStatus(server, account.login, 'New-password-1')).toBe(200);
  });

  it('signs out the account’s other sessions and keeps the one that made the change', async () => {
    const account = await activeAccount(server);
    const laptop = await signedIn(server, account);
    const phone = await signedIn(server, account);
    expect((await laptop.put('/users', change(account.login, account.password, 'New-password-1'))).status).toBe(200);
    expect((await laptop.get('/me')).status).toBe(200);
    expect((await phone.get('/me')).status).toBe(401);
  });

  it('refuses, from a session, to change another user’s password with 403 BAD_LOGIN_FOR_ACTION', async () => {
    const victim = await activeAccount(server);
    const intruder = await signedIn(server, await activeAccount(server));
    const answer = await intruder.put('/users', change(victim.login, victim.password, 'Stolen-1'));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('BAD_LOGIN_FOR_ACTION'));
    expect(await signInStatus(server, victim.login, victim.password)).toBe(200);
  });
});

describe('e-mail change', () => {
  const start = (account: { login: string; password: string }, email: string) => ({
    json: { login: account.login, password: account.password, email },
  });
  const confirm = (account: { login: string; password: string }, verificationKey: string) => ({
    json: { login: account.login, password: account.password, verificationKey },
  });

  it('step 1 mails a key to the new address and keeps the current address until confirmed', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const newEmail = newIdentity('moved').email;
    const mailsBefore = (await mailsTo(server, account.email)).length;

    const answer = await client.put('/users', start(account, newEmail));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ email: account.email, accountState: 'active' });
    expect((await mailsTo(server, newEmail))[0]?.key).toMatch(KEY_SHAPE);
    expect(await mailsTo(server, account.email)).toHaveLength(mailsBefore);
    expect((await client.get(`/users/${account.login}`)).body).toMatchObject({
      email: account.email,
      pendingEmail: newEmail,
    });
  });

  it('step 2 with the key mailed to the new address makes it the account’s address', async () => {
    const account = await activeAccount(server);
    const client = await signedIn(server, account);
    const newEmail = newIdentity('moved').email;
    await client.put('/users', start(account, newEmail));

    const answer = await client.put('/users', confirm(account, await server.lastKey(newEmail)));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ email: newEmail, accountState: 'active' });
    expect((await client.get('/me')).body.email).toBe(newEmail);
    expect((await client.get(`/users/${account.id}`)).body).toMatchObject({ email: newEmail, pendingEmail: null });
  });

  it('refuses to start without the right password with 422 BAD_CURRENT_PASSWORD', async () => {
    const account = await activeAccount(server);
    const newEmail = newIdentity('moved').email;
    const answer = await api(server).put('/users', start({ login: account.login, password: 'wrong' }, newEmail));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('BAD_CURRENT_PASSWORD'));
    expect(await mailsTo(server, newEmail)).toEqual([]);
  });

  it('refuses an address another account uses with 422 EXISTING_EMAIL', async () => {
    const other = await activeAccount(server);
    const account = await activeAccount(server);
    const answer = await api(server).put('/users', start(account, other.email.toUpperCase()));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('EXISTING_EMAIL'));
  });

  it('refuses the current address with 422 EMAIL_UNCHANGED', async () => {
    const account = await activeAccount(server);
    const answer = await api(server).put('/users', start(account, account.email));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('EMAIL_UNCHANGED'));
  });

  it('refuses a malformed new address with 422 INVALID_FIELDS', async () => {
    const account = await activeAccount(server);
    const answer = await api(server).put('/users', start(account, 'not-an-address'));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('INVALID_FIELDS'));
  });

  it('refuses a new address the mail transport would read as another one, mailing nothing', async () => {
    const account = await activeAccount(server);
    const { email } = newIdentity();
    const answer = await api(server).put('/users', start(account, `\u0001${email}`));
    expect(answer.status).toBe(422);
    expect(answer.body.params.fields).toEqual([{ field: 'email', rule: 'invalidEmail' }]);
    expect(await mailsTo(server, email)).toEqual([]);
  });

  it('refuses a key when no change is pending with 422 NO_PENDING_EMAIL_CHANGE', async () => {
    const account = await activeAccount(server);
    const answer = await api(server).put('/users', confirm(account, NEVER_ISSUED_KEY));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('NO_PENDING_EMAIL_CHANGE'));
  });

  it('refuses a wrong key with 422 BAD_VALIDATION_KEY and mails a new key to the new address', async () => {
    const account = await activeAccount(server);
    const newEmail = newIdentity('moved').email;
    await api(server).put('/users', start(account, newEmail));
    const first = await server.lastKey(newEmail);

    const refused = await api(server).put(
      '/users',
      confirm(account, first === NEVER_ISSUED_KEY ? 'ZZZZZZZZZZ' : NEVER_ISSUED_KEY),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(error('BAD_VALIDATION_KEY'));
    expect(await mailsTo(server, newEmail)).toHaveLength(2);

    const accepted = await api(server).put('/users', confirm(account, await server.lastKey(newEmail)));
    expect(accepted.status).toBe(200);
    expect(accepted.body.email).toBe(newEmail);
  });

  it('refuses the confirmation with 422 EXISTING_EMAIL when another account took the address meanwhile', async () => {
    const account = await activeAccount(server);
    const newEmail = newIdentity('contested').email;
    await api(server).put('/users', start(account, newEmail));
    const verificationKey = await server.lastKey(newEmail);
    await registerAccount(server, { ...newIdentity(), email: newEmail });

    const answer = await api(server).put('/users', confirm(account, verificationKey));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error('EXISTING_EMAIL'));
    const client = await signedIn(server, account);
    expect((await client.get('/me')).body.email).toBe(account.email);
  });
});

describe('lost password', () => {
  const askKey = (account: { login: string; email: string }) => ({
    json: { login: account.login, email: account.email },
  });
  const reset = (
    account: { login: string; email: string },
    verificationKey: string,
    newPassword: string,
    newPasswordConfirm = newPassword,
  ) => ({
    json: { login: account.login, email: account.email, verificationKey, newPassword, newPasswordConfirm },
  });

  it('step 1 with login and address mails a connection key to the account’s address', async () => {
    const account = await activeAccount(server);
    const before = (await mailsTo(server, account.email)).length;
    const answer = await api(server).put('/users', askKey(account));
    expect(answer.status).toBe(200);
    // Nobody proved anything yet: no id, no state, no charters.
    expect(answer.body).toEqual({});
    const mails = await mailsTo(server, account.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.key).toMatch(KEY_SHAPE);
  });

  it('refuses a login and an address that do not belong together with 403 INVALID_ACCOUNT, mailing nothing', async () => {
    const account = await activeAccount(server);
    const other = await activeAccount(server);
    const before = (await server.mails()).length;
    const answer = await api(server).put('/users', askKey({ login: account.login, email: other.email }));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('INVALID_ACCOUNT'));
    expect(await server.mails()).toHaveLength(before);
  });

  it('refuses an unknown login with 403 INVALID_ACCOUNT', async () => {
    const answer = await api(server).put('/users', askKey({ login: 'nobody-here', email: 'nobody@example.org' }));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('INVALID_ACCOUNT'));
  });

  it('step 2 with the key sets the new password: it signs in and the old one no longer does', async () => {
    const account = await activeAccount(server);
    await api(server).put('/users', askKey(account));
    const answer = await api(server).put('/users', reset(account, await server.lastKey(account.email), 'Brand-new-1'));
    expect(answer.status).toBe(200);
    expect(await signInStatus(server, account.login, 'Brand-new-1')).toBe(200);
    expect(await signInStatus(server, account.login, account.password)).toBe(401);
  });

  it('step 2 refuses a confirmation that differs with 422 BAD_PASSWORDS and leaves the key usable', async () => {
    const account = await activeAccount(server);
    await api(server).put('/users', askKey(account));
    const key = await server.lastKey(account.email);
    const refused = await api(server).put('/users', reset(account, key, 'Brand-new-1', 'Brand-new-2'));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(error('BAD_PASSWORDS'));
    expect((await api(server).put('/users', reset(account, key, 'Brand-new-1'))).status).toBe(200);
  });

  it('step 2 refuses a new password of fewer than 8 characters with 422 INVALID_FIELDS and leaves the key usable', async () => {
    const account = await activeAccount(server);
    await api(server).put('/users', askKey(account));
    const key = await server.lastKey(account.email);
    const refused = await api(server).put('/users', reset(account, key, 'Short-1'));
    expect(refused.status).toBe(422);
    expect(refused.body.params.fields).toEqual([{ field: 'newPassword', rule: 'passwordTooShort' }]);
    expect((await api(server).put('/users', reset(account, key, 'Brand-new-1'))).status).toBe(200);
  });

  it('step 2 refuses a wrong key with 422 BAD_VALIDATION_KEY and mails a new key', async () => {
    const account = await activeAccount(server);
    await api(server).put('/users', askKey(account));
    const first = await server.lastKey(account.email);
    const before = (await mailsTo(server, account.email)).length;
    const refused = await api(server).put(
      '/users',
      reset(account, first === NEVER_ISSUED_KEY ? 'ZZZZZZZZZZ' : NEVER_ISSUED_KEY, 'Brand-new-1'),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(error('BAD_VALIDATION_KEY'));
    expect(await mailsTo(server, account.email)).toHaveLength(before + 1);
    expect(await signInStatus(server, account.login, account.password)).toBe(200);
  });

  it('takes a key only once: spent, it answers 422 BAD_VALIDATION_KEY', async () => {
    const account = await activeAccount(server);
    await api(server).put('/users', askKey(account));
    const key = await server.lastKey(account.email);
    expect((await api(server).put('/users', reset(account, key, 'Brand-new-1'))).status).toBe(200);
    const again = await api(server).put('/users', reset(account, key, 'Brand-new-2'));
    expect(again.status).toBe(422);
    expect(again.body).toEqual(error('BAD_VALIDATION_KEY'));
    expect(await signInStatus(server, account.login, 'Brand-new-1')).toBe(200);
  });

  it('signs out the account’s existing sessions', async () => {
    const account = await activeAccount(server);
    const forgotten = await signedIn(server, account);
    await api(server).put('/users', askKey(account));
    expect(
      (await api(server).put('/users', reset(account, await server.lastKey(account.email), 'Brand-new-1'))).status,
    ).toBe(200);
    expect((await forgotten.get('/me')).status).toBe(401);
  });

  it('activates an account never activated, since the key proves the address', async () => {
    const account = await registerAccount(server);
    await api(server).put('/users', askKey(account));
    const answer = await api(server).put('/users', reset(account, await server.lastKey(account.email), 'Brand-new-1'));
    expect(answer.status).toBe(200);
    expect(answer.body.accountState).toBe('active');
    expect(await signInStatus(server, account.login, 'Brand-new-1')).toBe(200);
  });

  it('refuses a closed account with 403 CLOSED_ACCOUNT', async () => {
    const account = await activeAccount(server);
    await setAccountState(server, account.login, 'closed');
    const answer = await api(server).put('/users', askKey(account));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(error('CLOSED_ACCOUNT'));
  });

  it('tells that an account is closed only to whoever gives its address or its password', async () => {
    const account = await activeAccount(server);
    const other = await activeAccount(server);
    await setAccountState(server, account.login, 'closed');
    const wrongAddress = await api(server).put('/users', askKey({ login: account.login, email: other.email }));
    expect([wrongAddress.status, wrongAddress.body.code]).toEqual([403, 'INVALID_ACCOUNT']);
    const wrongPassword = await api(server).put('/users', {
      json: {
        login: account.login,
        password: 'not the password',
        newPassword: 'Brand-new-1',
        newPasswordConfirm: 'Brand-new-1',
      },
    });
    expect([wrongPassword.status, wrongPassword.body.code]).toEqual([422, 'BAD_CURRENT_PASSWORD']);
  });
});

describe('PUT /users without a recognisable request', () => {
  it('answers 422 BAD_LOGIN_OR_EMAIL_PASSWORD when neither login+password nor login+email is given', async () => {
    const account = await activeAccount(server);
    for (const body of [
      {},
      { login: account.login },
      { email: account.email },
      { login: account.login, password: account.password },
    ]) {
      const answer = await api(server).put('/users', { json: body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body, JSON.stringify(body)).toEqual(error('BAD_LOGIN_OR_EMAIL_PASSWORD'));
    }
  });
});
