import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { ServerConfig } from '../../server/config.ts';
import { api, type ApiClient } from './apiClient.ts';
import type { ReceivedMail, TestServer } from './harness.ts';

/** Keys are ten characters from an alphabet without O, 0, I and 1. */
export const KEY_SHAPE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{10}$/;

/** A well-formed key (right length, right alphabet) that the server is all but certain never to have issued. */
export const NEVER_ISSUED_KEY = 'ABCDEFGHJK';

/**
 * Shared servers see many sign-ins and registrations from 127.0.0.1; limits high enough that only the tests
 * about rate limiting ever meet them.
 */
export const GENEROUS_RATE_LIMITS: Pick<ServerConfig, 'loginRateLimit'> = {
  loginRateLimit: { perLogin: 1000, perAddress: 10_000, global: 100_000, windowSeconds: 900 },
};

export interface Identity {
  login: string;
  password: string;
  email: string;
}

export interface Account extends Identity {
  id: string;
}

let sequence = 0;

/** A login, password and address no other test of the file uses. */
export function newIdentity(prefix = 'user'): Identity {
  sequence += 1;
  const login = `${prefix}${sequence}`;
  return { login, password: `Secret-${login}-!`, email: `${login}@example.org` };
}

export async function mailsTo(server: TestServer, email: string): Promise<ReceivedMail[]> {
  return (await server.mails()).filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

/** Registers an account (waiting for its activation key). */
export async function registerAccount(server: TestServer, identity: Identity = newIdentity()): Promise<Account> {
  const answer = await api(server).post('/users', { form: { ...identity } });
  expect(answer.status, answer.text).toBe(201);
  return { ...identity, id: answer.body.id };
}

/** Registers an account and activates it with the mailed key. */
export async function activeAccount(server: TestServer, identity: Identity = newIdentity()): Promise<Account> {
  const account = await registerAccount(server, identity);
  const verificationKey = await server.lastKey(account.email);
  const answer = await api(server).put('/users', {
    json: { login: account.login, password: account.password, verificationKey },
  });
  expect(answer.status, answer.text).toBe(200);
  return account;
}

/** A client holding a fresh session of the account. */
export async function signedIn(server: TestServer, account: Pick<Identity, 'login' | 'password'>): Promise<ApiClient> {
  const client = api(server);
  const answer = await client.post('/login', { form: { login: account.login, password: account.password } });
  expect(answer.status, answer.text).toBe(200);
  return client;
}

export async function signInStatus(server: TestServer, login: string, password: string): Promise<number> {
  return (await api(server).post('/login', { form: { login, password } })).status;
}

/** Test set-up: puts an account in a state no API call produces (an operator's doing). */
export async function setAccountState(
  server: TestServer,
  login: string,
  state: 'idle' | 'active' | 'pending' | 'closed',
) {
  await server.server.ctx.db.updateTable('users').set({ state }).where('login', '=', login).execute();
}

/** The platform administrator generated at first start, as written in the data folder. */
export async function generatedAdmin(server: TestServer): Promise<{ login: string; password: string }> {
  const text = await readFile(path.join(server.dataDir, 'admin-credentials.txt'), 'utf8');
  const login = text.match(/^login: (.+)$/m)?.[1];
  const password = text.match(/^password: (.+)$/m)?.[1];
  if (!login || !password) throw new Error(`unreadable admin credentials: ${text}`);
  return { login, password };
}
