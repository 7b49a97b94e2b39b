import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { expect } from 'vitest';
import { parse, stringify } from 'yaml';
import type { ServerConfig } from '../../server/config.ts';
import type { RowCounter } from '../../server/services/applications.ts';
import { summarizeApplication } from '../../src/domain/applications/summary.ts';
import { serializeModel, validateConfiguration } from '../../src/domain/configuration/index.ts';
import type { StreamEvent } from '../../src/domain/streaming/events.ts';
import { activeAccount, newIdentity, type Account } from './accountFixtures.ts';
import { api, type ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Helpers of the application and platform-role tests: fixtures, upload forms, NDJSON streams, creators. */

const fixtures = path.resolve(import.meta.dirname, '../fixtures/configurations');

/** The bytes of one of our fixture configurations (fieldnotes-v1.yaml, fieldnotes-v2.yaml, broken.yaml). */
export const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(fixtures, name)));

export const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
export const bytesOf = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));

/** fieldnotes-v1.yaml with its `OA_application > OA_version` replaced. */
export function fieldnotesVersion(version: string): Uint8Array {
  return bytesOf(text(fixture('fieldnotes-v1.yaml')).replace('  OA_version: 1.0.0\n', `  OA_version: ${version}\n`));
}

/**
 * fieldnotes-v1.yaml split the way configuration-format.md §1.2 describes a multi-file configuration:
 * `configuration.yaml` (version, application, tags) and one `OA_data/<name>.yaml` per data entry.
 */
export function fieldnotesZip(): Uint8Array {
  const { OA_data: data, ...root } = parse(text(fixture('fieldnotes-v1.yaml'))) as Record<string, unknown> & {
    OA_data: Record<string, unknown>;
  };
  const files: Record<string, Uint8Array> = { 'configuration.yaml': strToU8(stringify(root)) };
  for (const [name, entry] of Object.entries(data)) files[`OA_data/${name}.yaml`] = strToU8(stringify(entry));
  return zipSync(files);
}

/** A multipart form as the creation page sends it: `file` and optional text fields. */
export function uploadForm(fileName: string, bytes: Uint8Array, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName);
  return form;
}

/** The events of an NDJSON answer, in order. */
export function streamEvents(body: string): StreamEvent<any>[] {
  return body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StreamEvent<any>);
}

/** An event reduced to what a test compares: its type and its key or value. */
export function outline(event: StreamEvent<any>): [string, unknown?] {
  if (event.type === 'info' || event.type === 'progress') return [event.type, event.result];
  if (event.type === 'error') return ['error', event.result.code];
  return ['result'];
}

export const errorEvents = (events: StreamEvent<any>[]) => events.filter((e) => e.type === 'error');
export const resultEvents = (events: StreamEvent<any>[]) =>
  events.filter((e) => e.type === 'result').map((e) => e.result);

/** A refusal's body: `{code, message, params}`. */
export const refusal = (code: string, params?: Record<string, unknown>) =>
  expect.objectContaining({ code, message: code, ...(params ? { params: expect.objectContaining(params) } : {}) });

export interface SignedInUser extends Account {
  client: ApiClient;
  /** The session token, for calls that read raw bytes (Authorization: Bearer). */
  token: string;
}

/** A client holding a fresh session of the account, with its token. */
export async function sessionOf(server: TestServer, account: Account): Promise<SignedInUser> {
  const client = api(server);
  const answer = await client.post('/login', { form: { login: account.login, password: account.password } });
  expect(answer.status, answer.text).toBe(200);
  const token = answer.headers.get('authorization')!.replace(/^Bearer /, '');
  return { ...account, client, token };
}

/** A new active account, signed in, with no role at all. */
export async function plainUser(server: TestServer, prefix = 'plain'): Promise<SignedInUser> {
  return sessionOf(server, await activeAccount(server, newIdentity(prefix)));
}

/** A new active account to which the administrator granted the application-creator patterns, signed in. */
export async function creatorUser(
  server: TestServer,
  admin: ApiClient,
  patterns: string[],
  prefix = 'creator',
): Promise<SignedInUser> {
  const account = await activeAccount(server, newIdentity(prefix));
  const query = new URLSearchParams([
    ['userIdOrLogin', account.login],
    ...patterns.map((p) => ['applicationPattern', p]),
  ]);
  const granted = await admin.put(`/authorization/applicationCreator?${query}`);
  expect(granted.status, granted.text).toBe(200);
  return sessionOf(server, account);
}

/** Grants an application role (applicationManager or userManager) through the API. */
export async function grantApplicationRole(
  by: ApiClient,
  role: 'applicationManager' | 'userManager',
  userLogin: string,
  application: string,
) {
  const query = new URLSearchParams({ userIdOrLogin: userLogin, applicationNameOrId: application });
  const answer = await by.put(`/authorization/${role}?${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** Creates an application through the API and answers its creation stream; fails the test if no result came. */
export async function createApplication(
  client: ApiClient,
  name: string,
  file: { name: string; bytes: Uint8Array } = { name: 'fieldnotes-v1.yaml', bytes: fixture('fieldnotes-v1.yaml') },
  fields: Record<string, string> = {},
) {
  const answer = await client.post(`/applications/${name}`, { body: uploadForm(file.name, file.bytes, fields) });
  expect(answer.status, answer.text).toBe(200);
  const events = streamEvents(answer.text);
  expect(errorEvents(events)).toEqual([]);
  const [created] = resultEvents(events);
  expect(created).toMatchObject({ name });
  return { id: created.id as string, events };
}

/** Uploads a new configuration and answers the update stream (events only; the caller checks the outcome). */
export async function updateApplication(
  client: ApiClient,
  name: string,
  fileName: string,
  bytes: Uint8Array,
  fields: Record<string, string> = {},
) {
  const answer = await client.post(`/applications/${name}/configuration`, {
    body: uploadForm(fileName, bytes, fields),
  });
  expect(answer.status, answer.text).toBe(200);
  return streamEvents(answer.text);
}

/** A GET answered as raw bytes (downloads), authenticated by the session token. */
export async function fetchBytes(server: TestServer, token: string | undefined, apiPath: string) {
  const response = await fetch(`${server.url}/api/v1${apiPath}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/**
 * Test set-up: stores applications straight in the database (model and summary of fieldnotes-v1.yaml), for lists
 * longer than creating them one by one would allow.
 */
export async function insertApplications(server: TestServer, names: string[]) {
  const validated = validateConfiguration(fixture('fieldnotes-v1.yaml'), 'fieldnotes-v1.yaml');
  if (!validated.ok) throw new Error('fieldnotes-v1.yaml is not valid');
  const model = serializeModel(validated.value);
  const summary = JSON.stringify(summarizeApplication(validated.value));
  await server.server.ctx.db
    .insertInto('applications')
    .values(names.map((name) => ({ id: randomUUID(), name, version: validated.value.version, summary, model })))
    .execute();
}

/** Names of the applications stored, straight from the database. */
export async function storedApplicationNames(server: TestServer): Promise<string[]> {
  const rows = await server.server.ctx.db.selectFrom('applications').select('name').orderBy('name').execute();
  return rows.map((r) => r.name);
}

/** Ends every session of the account now, as idle expiry would. */
export async function expireSessionsOf(server: TestServer, userId: string) {
  await server.server.ctx.db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 60_000) })
    .where('user_id', '=', userId)
    .execute();
}

export interface RowCountingServer extends TestServer {
  /** Rows "stored" per application id and data entry, as the update check sees them (empty: no rows). */
  storedRows: Map<string, Record<string, number>>;
}

/**
 * The harness's server (real HTTP, fresh PGlite or scratch PostgreSQL database when DATABASE_URL is set), built
 * with a row counter the tests control: rows do not exist yet in the product, but updates must already refuse
 * to orphan them.
 */
export async function startServerWithStoredRows(overrides: Partial<ServerConfig> = {}): Promise<RowCountingServer> {
  const storedRows = new Map<string, Record<string, number>>();
  const countRows: RowCounter = async (_db, applicationId) => storedRows.get(applicationId) ?? {};
  return { ...(await startTestServer(overrides, {}, { countRows })), storedRows };
}
