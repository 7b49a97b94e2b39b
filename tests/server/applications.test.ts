import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/configurations');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));

function form(fileName: string, bytes: Uint8Array, fields: Record<string, string> = {}) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  data.append('file', new Blob([bytes]), fileName);
  return data;
}

const events = (text: string) => text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  expect((await admin.post('/login', { form: { login: 'root', password: 'root-password' } })).status).toBe(200);
});
afterAll(() => server?.close());

describe('applications', () => {
  it('validates, creates, lists, updates and downloads', async () => {
    const validation = await admin.post('/validate-configuration', { body: form('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')) });
    expect(validation.status).toBe(200);
    const validated = events(validation.text);
    expect(validated.at(-1)).toMatchObject({ type: 'progress', result: 1 });
    expect(validated.find((e) => e.type === 'result').result.name).toBe('fieldnotes');

    const created = await admin.post('/applications/fieldnotes', { body: form('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'), { comment: 'first' }) });
    const creation = events(created.text);
    expect(creation.filter((e) => e.type === 'error')).toEqual([]);
    expect(creation.find((e) => e.type === 'result').result).toMatchObject({ name: 'fieldnotes', version: '1.0.0' });

    const listed = events((await admin.get('/applications?filter=REFERENCETYPE&filter=DATATYPE')).text).filter((e) => e.type === 'result');
    expect(listed.map((e) => [e.result.name, e.result.references, e.result.dataTypes, e.result.isMember])).toEqual([
      ['fieldnotes', ['sites', 'species'], ['counts'], true],
    ]);

    const updated = events((await admin.post('/applications/fieldnotes/configuration', { body: form('fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml')) })).text);
    expect(updated.filter((e) => e.type === 'error')).toEqual([]);
    const home = await admin.get('/applications/fieldnotes');
    expect(home.body.version).toBe('1.1.0');
    expect(home.body.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);

    const download = await admin.get('/applications/fieldnotes/configuration?version=1.0.0');
    expect(download.text).toBe(fixture('fieldnotes-v1.yaml').toString('utf8'));
  });
});
