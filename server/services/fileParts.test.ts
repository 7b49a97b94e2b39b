import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { openDatabase } from '../db/database.ts';
import { migrationProvider } from '../db/migrations/index.ts';
import type { Schema } from '../db/schema.ts';
import { migratedTestDatabase } from '../db/migratedDatabase.testing.ts';
import { removeAbandonedParts, storedFile, wholeStoredFile, writeFileParts } from './fileParts.ts';

const MB = 1024 * 1024;

async function readAll(db: Kysely<Schema>, fileId: string, size: number): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of storedFile(db, fileId, size)) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function anApplication(db: Kysely<Schema>): Promise<string> {
  const id = randomUUID();
  await sql`insert into applications (id, name, version, summary, model) values (${id}, ${`parts-${id}`}, '1', '{}', '{}')`.execute(
    db,
  );
  return id;
}

const partsOf = async (db: Kysely<Schema>, contentId: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from file_parts where content_id = ${contentId}`.execute(db))
    .rows[0]!.n;

async function storeParts(db: Kysely<Schema>, contentId: string, bytes: Uint8Array): Promise<number> {
  const parts = writeFileParts(db, contentId);
  await parts.add(bytes);
  return parts.end();
}

describe('a stored file kept in parts', () => {
  const database = migratedTestDatabase();

  it('is written as its chunks arrive, whatever their sizes, and read back byte for byte', async () => {
    const db = database().db;
    const application = await anApplication(db);
    // Random bytes (the database cannot compress them away), in chunks of the network's uneven sizes.
    const content = randomBytes(9 * MB + 12_345);
    const fileId = randomUUID();
    const parts = writeFileParts(db, fileId);
    for (let start = 0, step = 1; start < content.byteLength; step = (step * 7919) % 300_000 || 1) {
      await parts.add(content.subarray(start, start + step));
      start += step;
    }
    expect(await parts.end()).toBe(content.byteLength);
    await db
      .insertInto('deposit_files')
      .values({
        id: fileId,
        application_id: application,
        data_name: 'counts',
        file_name: 'big.csv',
        size: content.byteLength,
      })
      .execute();
    expect(await partsOf(db, fileId)).toBe(10);
    expect((await readAll(db, fileId, content.byteLength)).equals(content)).toBe(true);
    await expect(readAll(db, fileId, content.byteLength + 1)).rejects.toThrow(/expected/);
  }, 60_000);

  it('keeps an empty file as one empty part', async () => {
    const db = database().db;
    const fileId = randomUUID();
    const parts = writeFileParts(db, fileId);
    expect(await parts.end()).toBe(0);
    expect(await partsOf(db, fileId)).toBe(1);
    expect((await readAll(db, fileId, 0)).byteLength).toBe(0);
  });

  it('leaves nothing once discarded, even a part being written at that moment', async () => {
    const db = database().db;
    const fileId = randomUUID();
    const parts = writeFileParts(db, fileId);
    await parts.add(randomBytes(2 * MB));
    const writing = parts.add(randomBytes(MB));
    await parts.discard();
    await writing;
    expect(await partsOf(db, fileId)).toBe(0);
  });

  it('is kept when discarded after its file was written after all (an answer lost with its connection)', async () => {
    const db = database().db;
    const application = await anApplication(db);
    const fileId = randomUUID();
    const parts = writeFileParts(db, fileId);
    await parts.add(randomBytes(MB + 1));
    const size = await parts.end();
    await db
      .insertInto('deposit_files')
      .values({ id: fileId, application_id: application, data_name: 'counts', file_name: 'kept.csv', size })
      .execute();
    await parts.discard();
    expect(await partsOf(db, fileId)).toBe(2);
  });

  it('goes with its deposit, whichever statement deletes it', async () => {
    const db = database().db;
    const application = await anApplication(db);
    const files = [randomUUID(), randomUUID()];
    for (const id of files) {
      const parts = writeFileParts(db, id);
      await parts.add(randomBytes(MB + 1));
      const size = await parts.end();
      await db
        .insertInto('deposit_files')
        .values({ id, application_id: application, data_name: 'counts', file_name: `${id}.csv`, size })
        .execute();
    }
    await db.deleteFrom('deposit_files').where('application_id', '=', application).execute();
    for (const id of files) expect(await partsOf(db, id)).toBe(0);
  });

  it('of an additional file goes when its bytes are replaced or the file deleted, and stays when its form changes', async () => {
    const db = database().db;
    const application = await anApplication(db);
    const id = randomUUID();
    const first = randomUUID();
    const size = await storeParts(db, first, randomBytes(MB + 7));
    await db
      .insertInto('additional_files')
      .values({
        id,
        content_id: first,
        application_id: application,
        file_type: 'notes',
        file_name: 'a.pdf',
        name_key: 'a.pdf',
        size,
      })
      .execute();
    await db.updateTable('additional_files').set({ comment: 'read again' }).where('id', '=', id).execute();
    expect(await partsOf(db, first)).toBe(2);
    const second = randomUUID();
    const replaced = randomBytes(3 * MB);
    await db.transaction().execute(async (trx) => {
      const written = await storeParts(trx, second, replaced);
      await trx
        .updateTable('additional_files')
        .set({ content_id: second, size: written })
        .where('id', '=', id)
        .execute();
    });
    expect(await partsOf(db, first)).toBe(0);
    expect(Buffer.from(await wholeStoredFile(db, second, replaced.byteLength)).equals(replaced)).toBe(true);
    await db.deleteFrom('applications').where('id', '=', application).execute();
    expect(await partsOf(db, second)).toBe(0);
  });

  it('written in a transaction that fails leaves nothing', async () => {
    const db = database().db;
    const contentId = randomUUID();
    await expect(
      db.transaction().execute(async (trx) => {
        await storeParts(trx, contentId, randomBytes(2 * MB));
        throw new Error('refused after its parts');
      }),
    ).rejects.toThrow(/refused/);
    expect(await partsOf(db, contentId)).toBe(0);
  });

  it('removes the parts of a deposit that never became a file once they have been idle long enough', async () => {
    const db = database().db;
    const abandoned = randomUUID();
    const arriving = randomUUID();
    for (const id of [abandoned, arriving]) {
      const parts = writeFileParts(db, id);
      await parts.add(randomBytes(MB));
    }
    await sql`update file_parts set written_at = now() - interval '2 days' where content_id = ${abandoned}`.execute(db);
    await removeAbandonedParts(db, 24 * 3600 * 1000);
    expect(await partsOf(db, abandoned)).toBe(0);
    expect(await partsOf(db, arriving)).toBe(1);
    await removeAbandonedParts(db, 0);
    expect(await partsOf(db, arriving)).toBe(0);
  });
});

describe('files kept whole before parts (migration 0020)', () => {
  it('are cut into parts with their bytes unchanged', async () => {
    const database = await openDatabase({});
    try {
      const db = database.db;
      const migrations = await migrationProvider.getMigrations();
      const names = Object.keys(migrations);
      const migrator = new Migrator({ db, provider: migrationProvider });
      const before = await migrator.migrateTo(names[names.indexOf('0020_file_parts') - 1]!);
      expect(before.error).toBeUndefined();
      const application = await anApplication(db);
      // Random bytes are stored as they are; a CSV is compressed in its table, and cut from there once decompressed.
      const csv = Buffer.from('site;day;value\n'.repeat(300_000));
      const kept = [randomBytes(2 * MB + 5), randomBytes(MB), Buffer.alloc(0), csv].map((content) => ({
        id: randomUUID(),
        content,
      }));
      for (const { id, content } of kept)
        await sql`insert into deposit_files (id, application_id, data_name, file_name, size, content) values (${id}, ${application}, 'counts', 'old.csv', ${content.byteLength}, ${content})`.execute(
          db,
        );
      const attached = { id: randomUUID(), content: randomBytes(MB + 1) };
      await sql`insert into additional_files (id, application_id, file_type, file_name, size, content) values (${attached.id}, ${application}, 'notes', 'old.pdf', ${attached.content.byteLength}, ${attached.content})`.execute(
        db,
      );
      const after = await migrator.migrateToLatest();
      expect(after.error).toBeUndefined();
      for (const { id, content } of [...kept, attached])
        expect((await readAll(db, id, content.byteLength)).equals(content)).toBe(true);
      expect(await Promise.all(kept.map(({ id }) => partsOf(db, id)))).toEqual([
        3,
        1,
        1,
        Math.ceil(csv.byteLength / MB),
      ]);
      const row = await db
        .selectFrom('additional_files')
        .select('content_id')
        .where('id', '=', attached.id)
        .executeTakeFirst();
      expect(row?.content_id).toBe(attached.id);
    } finally {
      await database.close();
    }
  }, 120_000);
});
