import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));

function upload(fileName: string, bytes: Uint8Array) {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

const query = (q: object) => `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify(q))}`;

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
  const created = await admin.post('/applications/fieldnotes', {
    body: upload('fieldnotes-v1.yaml', file('configurations/fieldnotes-v1.yaml')),
  });
  expect(created.text).toContain('"type":"result"');
});
afterAll(() => server?.close());

describe('references', () => {
  it('load a CSV file, then read, filter, order and export it', async () => {
    const loaded = await admin.post('/applications/fieldnotes/references/sites', {
      body: upload('sites.csv', file('csv/fieldnotes-sites.csv')),
    });
    expect(loaded.status).toBe(201);
    expect(loaded.body).toEqual({ referenceType: 'sites', lineCount: 3, added: 3, replaced: 0, totalRows: 3 });

    const page = await admin.get(
      `/applications/fieldnotes/references/sites${query({ limit: 2, componentOrderBy: [{ componentKey: 'altitude', order: 'DESC' }] })}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.totalRows).toBe(3);
    expect(page.body.referenceValues.map((v: { naturalKey: string }) => v.naturalKey)).toEqual([
      'mont_joly',
      'lac_blanc',
    ]);
    expect(page.body.referenceValues[0].__display_fr).toBe('Mont Joly');

    const high = await admin.get(
      `/applications/fieldnotes/references/sites${query({ componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '2000', to: '2400' } }] })}`,
    );
    expect(high.body.referenceValues.map((v: { naturalKey: string }) => v.naturalKey)).toEqual(['lac_blanc']);

    const csv = await admin.get('/applications/fieldnotes/references/sites/csv');
    expect(csv.text.split('\n')[0]).toBe('"code";"label";"altitude"');
    expect(csv.text).toContain('"lac_blanc";"Lac Blanc";"2352"');

    const list = await admin.get('/applications/fieldnotes?filter=REFERENCETYPE');
    // Every entry the caller reads whole, 0 for those without rows.
    expect(list.body.lineCounts).toEqual({ sites: 3, species: 0, counts: 0 });
  });

  it('refuse a file with errors and store nothing', async () => {
    const refused = await admin.post('/applications/fieldnotes/references/species', {
      body: upload('broken.csv', file('csv/fieldnotes-sites-broken.csv')),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_CSV');
    expect(refused.body.errors.length).toBeGreaterThan(0);
    const stored = await admin.get('/applications/fieldnotes/references/species');
    expect(stored.body.totalRows).toBe(0);
  });

  it('delete rows unless other rows point to them', async () => {
    await admin.post('/applications/fieldnotes/references/species', {
      body: upload('species.csv', file('csv/fieldnotes-species.csv')),
    });
    const deleted = await admin.delete('/applications/fieldnotes/references/species?naturalKey=lagopus_muta');
    expect(deleted.status).toBe(200);
    expect((await admin.get('/applications/fieldnotes/references/species')).body.totalRows).toBe(2);
  });
});
