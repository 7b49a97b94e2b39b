import 'fake-indexeddb/auto';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { TerrainDatabase } from './db';
import { createOutbox, type Submission } from './outbox';
import { exportPendingChanges, importPendingChanges, readPendingChangesFile } from './pendingChangesFile';

let databases = 0;
const freshDb = () => new TerrainDatabase(`pending-file-test-${++databases}`);
const unreachable = (async () => {
  throw new TypeError('Failed to fetch');
}) as typeof fetch;

const grant = (n: number): Submission => ({
  kind: 'role.grant',
  summary: { name: `app${n}` },
  resource: `application:app${n}`,
  request: {
    method: 'PUT',
    path: `/applications/app${n}/users/ana`,
    headers: { 'Accept-Language': 'fr' },
    body: { type: 'json', value: { n } },
  },
});

/** A deposit of `bytes` bytes, its file as the outbox keeps it. */
function deposit(bytes: Uint8Array<ArrayBuffer>): Submission {
  return {
    kind: 'deposit.upload',
    summary: { name: 'monsore', entry: 'pem' },
    resource: 'application:monsore',
    request: {
      method: 'POST',
      path: '/applications/monsore/data/pem',
      headers: {},
      body: {
        type: 'multipart',
        parts: [
          { name: 'params', value: '{"comment":"outing"}' },
          { name: 'file', blob: new Blob([bytes], { type: 'text/csv' }), fileName: 'pem.csv' },
        ],
      },
    },
    streamed: true,
    input: { comment: 'outing' },
  };
}

async function fileBytes(blob: Blob) {
  return new Uint8Array(await blob.arrayBuffer());
}

describe('the pending changes file', () => {
  it('carries 1,500 waiting changes and a large file to another device, which sends each once with its key', async () => {
    const device = freshDb();
    const outbox = createOutbox({ db: device, fetch: unreachable, signedIn: async () => 'ana' });
    const csv = new Uint8Array(4 * 1024 * 1024).map((_, i) => 48 + (i % 10));
    await outbox.submit(deposit(csv));
    // Kept as the outbox keeps them; submitting each would try the network each time.
    const grants = Array.from({ length: 1500 }, (_, n) => grant(n));
    await device.outbox.bulkAdd(
      grants.map((submission, n) => ({
        ...submission,
        idempotencyKey: `key-${n}`,
        streamed: false,
        createdAt: n,
        attempts: 1,
        nextAttemptAt: 0,
        status: 'queued' as const,
        size: 10,
        owner: 'ana',
      })),
    );
    const kept = await device.outbox.orderBy('id').toArray();
    expect(kept).toHaveLength(1501);

    const file = await exportPendingChanges(device, 1_700_000_000_000);
    const read = readPendingChangesFile(await fileBytes(file!));
    if (!read.ok) throw new Error(read.reason);
    expect(read.exportedAt).toBe(1_700_000_000_000);

    const other = freshDb();
    expect(await importPendingChanges(other, read.changes)).toBe(1501);
    const imported = await other.outbox.orderBy('id').toArray();
    expect(imported.map((item) => item.idempotencyKey)).toEqual(kept.map((item) => item.idempotencyKey));
    expect(imported.every((item) => item.owner === 'ana' && item.status === 'queued')).toBe(true);

    const sent: Array<{ key: string | null; file?: Uint8Array }> = [];
    const server = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      const key = new Headers(init?.headers).get('Idempotency-Key');
      const file = init?.body instanceof FormData ? (init.body.get('file') as File) : undefined;
      sent.push({ key, file: file ? new Uint8Array(await file.arrayBuffer()) : undefined });
      return new Response(file ? '{"type":"result","result":{}}\n' : '{}', { status: 200 });
    }) as typeof fetch;
    await createOutbox({ db: other, fetch: server, signedIn: async () => 'ana' }).process();
    expect(sent.map((s) => s.key)).toEqual(kept.map((item) => item.idempotencyKey));
    // Compared as one value: an element-by-element comparison of megabytes takes a minute.
    expect(Buffer.from(sent[0].file!).equals(Buffer.from(csv))).toBe(true);
    expect(await other.outbox.where('status').notEqual('done').count()).toBe(0);
  }, 60_000);

  it('adds nothing twice: importing on the device that wrote the file, or the same file again, keeps one of each', async () => {
    const device = freshDb();
    const outbox = createOutbox({ db: device, fetch: unreachable });
    await outbox.submit(grant(1));
    await outbox.submit(grant(2));
    const read = readPendingChangesFile(await fileBytes((await exportPendingChanges(device))!));
    if (!read.ok) throw new Error(read.reason);
    expect(await importPendingChanges(device, read.changes)).toBe(0);
    const other = freshDb();
    expect(await importPendingChanges(other, read.changes)).toBe(2);
    expect(await importPendingChanges(other, read.changes)).toBe(0);
    expect(await other.outbox.count()).toBe(2);
  });

  it('writes nothing when nothing waits, and leaves applied changes out', async () => {
    const device = freshDb();
    expect(await exportPendingChanges(device)).toBeUndefined();
    const applied = createOutbox({ db: device, fetch: (async () => new Response('{}')) as typeof fetch });
    expect((await applied.submit(grant(1))).status).toBe('done');
    expect(await exportPendingChanges(device)).toBeUndefined();
  });

  it('refuses whole anything that is not such a file, or asks for a request outside the API', async () => {
    const zip = (manifest: unknown, extra: Record<string, Uint8Array> = {}) =>
      zipSync({ 'pending-changes.json': strToU8(JSON.stringify(manifest)), ...extra });
    const change = {
      idempotencyKey: 'k1',
      kind: 'role.grant',
      summary: {},
      resource: 'r',
      request: { method: 'PUT', path: '/applications/a/users/b', headers: {}, body: { type: 'none' } },
      streamed: false,
      createdAt: 1,
      status: 'queued',
      size: 0,
    };
    const manifest = (changes: unknown[]) => ({
      format: 'terrain-pending-changes',
      version: 1,
      exportedAt: 1,
      changes,
    });
    expect(readPendingChangesFile(zip(manifest([change]))).ok).toBe(true);
    const refused = [
      strToU8('not a zip at all'),
      zipSync({ 'other.json': strToU8('{}') }),
      zipSync({ 'pending-changes.json': strToU8('{not json') }),
      zip({ ...manifest([change]), version: 2 }),
      zip(manifest([{ ...change, kind: 'platform.wipe' }])),
      zip(manifest([{ ...change, request: { ...change.request, path: '//elsewhere.example/x' } }])),
      zip(manifest([{ ...change, request: { ...change.request, path: 'https://elsewhere.example/x' } }])),
      zip(manifest([{ ...change, request: { ...change.request, method: 'GET' } }])),
      zip(manifest([{ ...change, status: 'done' }])),
      zip(manifest([{ ...change, extra: true }])),
    ];
    for (const bytes of refused)
      expect(readPendingChangesFile(bytes)).toEqual({ ok: false, reason: 'notAPendingChangesFile' });
    const withFile = {
      ...change,
      request: {
        ...change.request,
        body: { type: 'multipart', parts: [{ name: 'file', file: 'files/1', fileName: 'a.csv', type: 'text/csv' }] },
      },
    };
    expect(readPendingChangesFile(zip(manifest([withFile])))).toEqual({ ok: false, reason: 'missingFile' });
    expect(readPendingChangesFile(zip(manifest([withFile]), { 'files/1': strToU8('a;b\n') })).ok).toBe(true);
  });
});
