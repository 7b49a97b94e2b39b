import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_HEADER, ownerHeaderValue } from '../../src/contract/changeOwner.ts';
import { OUTBOX_KINDS, type OutboxKind } from '../../src/offline/outboxTypes.ts';
import { activeAccount, GENEROUS_RATE_LIMITS, signedIn, type Account } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { streamEvents } from './applicationFixtures.ts';
import { minimalPdf } from '../fixtures/minimalPdf.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The requests devices keep in their outbox, replayed against the server as stored (docs/decisions.md, "Request
 * schemas keep accepting what outboxes hold"): one fixture per kind of change, written as the client builds its
 * request (`madeBy` names where), with `{{name}}` standing for what the server named earlier (an id) and files named
 * by the test. A change of a request's shape that a queued change would no longer pass fails here: keep the server
 * accepting the old shape for 90 days, or say so in docs/decisions.md and retire the fixture then.
 */

const SHAPES = path.resolve(import.meta.dirname, 'fixtures/queued-shapes');
const CONFIGURATIONS = path.resolve(import.meta.dirname, '../fixtures/configurations');
const CSV = path.resolve(import.meta.dirname, '../fixtures/csv');
const ROOT = { login: 'root', password: 'root-password', email: 'root@terrain.test' };

type StoredPart = { name: string; value: string } | { name: string; fileName: string; file: string };

interface QueuedShape {
  kind: OutboxKind;
  madeBy: string;
  sentBy: 'admin' | 'user';
  streamed: boolean;
  request: {
    method: 'POST' | 'PUT' | 'DELETE';
    path: string;
    headers: Record<string, string>;
    body: { type: 'none' } | { type: 'json'; value: unknown } | { type: 'multipart'; parts: StoredPart[] };
  };
}

const shapeFiles = readdirSync(SHAPES).filter((name) => name.endsWith('.json'));
const shape = (name: string) => JSON.parse(readFileSync(path.join(SHAPES, `${name}.json`), 'utf8')) as QueuedShape;

let server: TestServer;
let admin: ApiClient;
let user: ApiClient;
let account: Account;
/** What the server named earlier in the replay, for the `{{name}}` of later requests. */
const named: Record<string, string> = {};
/** The files the stored requests carry, by the name their parts give. */
const files: Record<string, Uint8Array> = {};

function filled<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      if (named[name] === undefined) throw new Error(`nothing named ${name} yet`);
      return named[name];
    }),
  ) as T;
}

/** Sends a stored request as the outbox does (outbox.ts, `attempt`): its body, a new key, its owner's header. */
async function replay(name: string): Promise<{ status: number; text: string; body: any }> {
  const { sentBy, streamed, request } = filled(shape(name));
  const client = sentBy === 'admin' ? admin : user;
  const headers: Record<string, string> = {
    ...request.headers,
    'Idempotency-Key': randomUUID(),
    [OWNER_HEADER]: ownerHeaderValue(sentBy === 'admin' ? ROOT.login : account.login),
    cookie: client.cookieHeader,
  };
  let body: BodyInit | undefined;
  if (request.body.type === 'json') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.body.value);
  } else if (request.body.type === 'multipart') {
    const form = new FormData();
    for (const part of request.body.parts) {
      if ('file' in part) form.append(part.name, new Blob([new Uint8Array(files[part.file])]), part.fileName);
      else form.append(part.name, part.value);
    }
    body = form;
  }
  const response = await fetch(`${server.url}/api/v1${request.path}`, { method: request.method, headers, body });
  const text = await response.text();
  const accepted = response.ok && (!streamed || streamEvents(text).some((event) => event.type === 'result'));
  expect(accepted, `${request.method} ${request.path} answered ${response.status}: ${text.slice(0, 800)}`).toBe(true);
  if (streamed) expect(streamEvents(text).filter((event) => event.type === 'error')).toEqual([]);
  const json = !streamed && response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, text, body: json ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  admin = await signedIn(server, ROOT);
  account = await activeAccount(server);
  user = await signedIn(server, account);
  named.userLogin = account.login;
  named.userEmail = account.email;

  const fieldbook = readFileSync(path.join(CONFIGURATIONS, 'fieldbook.yaml'), 'utf8');
  files['fieldbook.yaml'] = new TextEncoder().encode(fieldbook);
  files['fieldbook-1.0.1.yaml'] = new TextEncoder().encode(
    fieldbook.replace('  OA_version: 1.0.0\n', '  OA_version: 1.0.1\n'),
  );
  files['sites.csv'] = readFileSync(path.join(CSV, 'fieldbook-sites.csv'));
  files['counts.csv'] = readFileSync(path.join(CSV, 'alps~lac_blanc~01-06-2024~30-06-2024.csv'));
  files['fieldbook-counts.csv'] = new TextEncoder().encode('site;day;individuals\nlac_blanc;01/06/2024;12\n');
  files['charte.pdf'] = minimalPdf('Charte du carnet');
  files['protocole.pdf'] = minimalPdf('Protocole de comptage');

  // The application the deposits, authorizations and rights requests go to, made directly (not replayed).
  const surveys = new FormData();
  surveys.append('file', new Blob([readFileSync(path.join(CONFIGURATIONS, 'surveys-requests.yaml'))]), 'surveys.yaml');
  expect((await admin.post('/applications/surveys', { body: surveys })).status).toBe(200);
  for (const reference of ['institutes', 'projects', 'sites', 'species']) {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(path.join(CSV, `surveys-${reference}.csv`))]), `${reference}.csv`);
    const loaded = await admin.post(`/applications/surveys/references/${reference}`, { body: form });
    expect(loaded.status, loaded.text).toBe(201);
  }
});
afterAll(() => server?.close());

describe('the requests queued changes hold, replayed as stored', () => {
  it('has a stored request of every kind of change the outbox keeps', () => {
    const kinds = new Set(shapeFiles.map((name) => shape(name.replace(/\.json$/, '')).kind));
    expect([...OUTBOX_KINDS].filter((kind) => !kinds.has(kind))).toEqual([]);
  });

  it('creates an application, loads and deletes reference rows, and updates the application', async () => {
    await replay('application.create');
    await replay('reference.upload');
    await replay('reference.upload-data');
    expect((await replay('reference.delete-data')).body.deleted).toHaveLength(1);
    await replay('reference.delete');
    await replay('application.update');
  });

  it('grants and revokes roles on the application and the platform', async () => {
    await replay('role.grant');
    await replay('role.revoke');
    await replay('role.grant-creator');
  });

  it('uploads a usage charter, and accepts it', async () => {
    await replay('charter.upload');
    const view = (await admin.get('/applications/fieldbook')).body;
    named.fieldbookId = view.id;
    named.charterUploadedAt = view.charterUploadedAt;
    await replay('charter.accept');
  });

  it('adds an additional file, grants and revokes its rights, and deletes it', async () => {
    named.protocolId = (await replay('additionalFile.save')).body.id;
    named.fileAuthorizationId = (await replay('additionalFileAuthorization.save')).body.authorizationId;
    await replay('additionalFileAuthorization.revoke');
    await replay('additionalFile.delete');
  });

  it('restores an application from a backup', async () => {
    const backup = await fetch(`${server.url}/api/v1/applications/fieldbook/upload-bundle`, {
      headers: { cookie: admin.cookieHeader },
    });
    expect(backup.status).toBe(200);
    files['fieldbook.zip'] = new Uint8Array(await backup.arrayBuffer());
    await replay('application.restore');
  });

  it('deposits a version and deletes it, deposits it again and publishes it', async () => {
    named.versionId = (await replay('deposit.upload')).body.fileId;
    await replay('deposit.delete');
    named.versionId = (await replay('deposit.upload')).body.fileId;
    await replay('deposit.publish');
  });

  it('saves and revokes an authorization, and asks for rights', async () => {
    named.authorizationId = (await replay('authorization.save')).body.authorizationId;
    await replay('authorization.revoke');
    await replay('rightsRequest.save');
  });
});
