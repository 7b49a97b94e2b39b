import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../fixtures/configurations', name));

function upload(fileName: string, bytes: Uint8Array, comment = '') {
  const data = new FormData();
  data.append('comment', comment);
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
});
afterAll(() => server?.close());

const configurationCount = async (name: string) =>
  (await admin.get(`/applications/${name}`)).body.versions?.length ?? 0;

describe('idempotency keys', () => {
  it('apply a multipart creation once and answer a replay with the kept stream', async () => {
    const headers = { 'Idempotency-Key': 'create-once' };
    const first = await admin.post('/applications/idem_one', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    const second = await admin.post('/applications/idem_one', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toContain('application/x-ndjson');
    expect(await configurationCount('idem_one')).toBe(1);
  });

  it('refuse the same key with another payload', async () => {
    const headers = { 'Idempotency-Key': 'reused' };
    await admin.post('/applications/idem_two', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    const other = await admin.post('/applications/idem_two', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'), 'another comment'),
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const json = await admin.put('/users', {
      json: { login: 'root', password: 'root-password', newPassword: 'x', newPasswordConfirm: 'y' },
      headers: { 'Idempotency-Key': 'reused' },
    });
    expect(json.status).toBe(422);
  });

  it('do not keep refusals, so a corrected retry runs', async () => {
    const headers = { 'Idempotency-Key': 'refused-first' };
    const refused = await admin.put('/users', {
      json: { login: 'root', password: 'wrong', newPassword: 'n', newPasswordConfirm: 'n' },
      headers,
    });
    expect(refused.status).toBe(422);
    const again = await admin.put('/users', {
      json: { login: 'root', password: 'wrong', newPassword: 'n', newPasswordConfirm: 'n' },
      headers,
    });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answer 409 while the first request with the key still runs', async () => {
    const headers = { 'Idempotency-Key': 'concurrent' };
    const [a, b] = await Promise.all([
      admin.post('/applications/idem_three', {
        body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
        headers,
      }),
      admin.post('/applications/idem_three', {
        body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
        headers,
      }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(await configurationCount('idem_three')).toBe(1);
  });
});
