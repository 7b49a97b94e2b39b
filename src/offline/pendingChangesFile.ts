import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { isUnsafePath } from '@/domain/configuration/readZip';
import type { TerrainDatabase } from './db';
import { OUTBOX_KINDS, type OutboxItem, type StoredBody, type StoredPart } from './outboxTypes';

/**
 * Pending changes written to a file, so that they outlive the device's storage and can be sent from another device.
 * A zip: `pending-changes.json` describes each change as the outbox keeps it (its idempotency key included, so the
 * server applies it once whichever device sends it), and `files/…` holds the files the changes carry.
 */
const FORMAT = 'terrain-pending-changes';
const MANIFEST = 'pending-changes.json';

const PartSchema = Type.Union([
  Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
  Type.Object(
    {
      name: Type.String(),
      file: Type.String({ pattern: '^files/[0-9]+$' }),
      fileName: Type.String(),
      type: Type.String(),
    },
    { additionalProperties: false },
  ),
]);

const BodySchema = Type.Union([
  Type.Object({ type: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('json'), value: Type.Unknown() }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('form'), value: Type.Record(Type.String(), Type.String()) },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('multipart'), parts: Type.Array(PartSchema) }, { additionalProperties: false }),
]);

const ChangeSchema = Type.Object(
  {
    idempotencyKey: Type.String({ minLength: 1, maxLength: 100 }),
    kind: Type.Enum(OUTBOX_KINDS),
    summary: Type.Record(Type.String(), Type.String()),
    resource: Type.String(),
    request: Type.Object(
      {
        method: Type.Union([Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('DELETE')]),
        // A path under the API, never another origin.
        path: Type.String({ pattern: '^/[^/\\\\]' }),
        headers: Type.Record(Type.String({ pattern: '^[A-Za-z-]+$' }), Type.String()),
        body: BodySchema,
      },
      { additionalProperties: false },
    ),
    streamed: Type.Boolean(),
    createdAt: Type.Number(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('needs-attention')]),
    size: Type.Number(),
    lastError: Type.Optional(Type.Unknown()),
    input: Type.Optional(Type.Unknown()),
    owner: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const ManifestSchema = Type.Object({
  format: Type.Literal(FORMAT),
  version: Type.Literal(1),
  exportedAt: Type.Number(),
  changes: Type.Array(ChangeSchema),
});

type ExportedChange = Static<typeof ChangeSchema>;
type ExportedPart = Static<typeof PartSchema>;

/** The changes not yet applied, oldest first, as the outbox would send them. */
async function waitingChanges(db: TerrainDatabase): Promise<OutboxItem[]> {
  const items = await db.outbox.orderBy('id').toArray();
  return items.filter((item) => item.status !== 'done');
}

/** A zip of every change waiting on this device, with its files; `undefined` when nothing waits. */
export async function exportPendingChanges(db: TerrainDatabase, now = Date.now()): Promise<Blob | undefined> {
  const items = await waitingChanges(db);
  if (items.length === 0) return undefined;
  const zip: Zippable = {};
  let fileCount = 0;
  const changes: ExportedChange[] = [];
  for (const item of items) {
    const { body } = item.request;
    let exportedBody: ExportedChange['request']['body'];
    if (body.type === 'multipart') {
      const parts: ExportedPart[] = [];
      for (const part of body.parts) {
        if (!('blob' in part)) {
          parts.push(part);
          continue;
        }
        const file = `files/${++fileCount}`;
        // Stored, not deflated: deflating a large deposit on the page's thread would freeze it.
        zip[file] = [new Uint8Array(await part.blob.arrayBuffer()), { level: 0 }];
        parts.push({ name: part.name, file, fileName: part.fileName, type: part.blob.type });
      }
      exportedBody = { type: 'multipart', parts };
    } else {
      exportedBody = body;
    }
    changes.push({
      idempotencyKey: item.idempotencyKey,
      kind: item.kind,
      summary: item.summary,
      resource: item.resource,
      request: { ...item.request, body: exportedBody },
      streamed: item.streamed,
      createdAt: item.createdAt,
      // A change caught while sending is sent again with its key: the server applies it once.
      status: item.status === 'needs-attention' ? 'needs-attention' : 'queued',
      size: item.size,
      ...(item.lastError === undefined ? {} : { lastError: item.lastError }),
      ...(item.input === undefined ? {} : { input: item.input }),
      ...(item.owner === undefined ? {} : { owner: item.owner }),
    });
  }
  zip[MANIFEST] = strToU8(JSON.stringify({ format: FORMAT, version: 1, exportedAt: now, changes }));
  return new Blob([zipSync(zip)], { type: 'application/zip' });
}

export type PendingChangesFile =
  | { ok: true; exportedAt: number; changes: OutboxItem[] }
  | { ok: false; reason: 'notAPendingChangesFile' | 'missingFile' };

/** Reads a file written by `exportPendingChanges`; anything else is refused whole, nothing is half-read. */
export function readPendingChangesFile(bytes: Uint8Array): PendingChangesFile {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => !isUnsafePath(file.name) && (file.name === MANIFEST || file.name.startsWith('files/')),
    });
  } catch {
    return { ok: false, reason: 'notAPendingChangesFile' };
  }
  const manifestBytes = files[MANIFEST];
  if (!manifestBytes) return { ok: false, reason: 'notAPendingChangesFile' };
  let manifest: unknown;
  try {
    manifest = JSON.parse(strFromU8(manifestBytes));
  } catch {
    return { ok: false, reason: 'notAPendingChangesFile' };
  }
  if (!Value.Check(ManifestSchema, manifest)) return { ok: false, reason: 'notAPendingChangesFile' };
  const changes: OutboxItem[] = [];
  for (const change of manifest.changes) {
    const body = storedBody(change.request.body, files);
    if (!body) return { ok: false, reason: 'missingFile' };
    changes.push({
      ...change,
      lastError: change.lastError as OutboxItem['lastError'],
      request: { ...change.request, body },
      attempts: 0,
      nextAttemptAt: 0,
    });
  }
  return { ok: true, exportedAt: manifest.exportedAt, changes };
}

/** The body as the outbox keeps it, its files read back from the zip; `undefined` when one is missing. */
function storedBody(
  body: ExportedChange['request']['body'],
  files: Record<string, Uint8Array>,
): StoredBody | undefined {
  if (body.type !== 'multipart') return body;
  const parts: StoredPart[] = [];
  for (const part of body.parts) {
    if (!('file' in part)) {
      parts.push(part);
      continue;
    }
    const content = files[part.file];
    if (!content) return undefined;
    parts.push({
      name: part.name,
      fileName: part.fileName,
      blob: new Blob([content as Uint8Array<ArrayBuffer>], { type: part.type }),
    });
  }
  return { type: 'multipart', parts };
}

/**
 * Keeps the file's changes in the outbox, in their order, except those this device already has (same key): importing
 * a file twice, or on the device that wrote it, adds nothing. Answers how many were added.
 */
export async function importPendingChanges(db: TerrainDatabase, changes: OutboxItem[]): Promise<number> {
  return db.transaction('rw', db.outbox, async () => {
    const known = new Set((await db.outbox.toArray()).map((item) => item.idempotencyKey));
    const added = changes.filter((change) => !known.has(change.idempotencyKey));
    await db.outbox.bulkAdd(added);
    return added.length;
  });
}
