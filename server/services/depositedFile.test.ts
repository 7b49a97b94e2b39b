import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { openDatabase } from '../db/database.ts';
import { migrationProvider } from '../db/migrations/index.ts';
import type { Schema } from '../db/schema.ts';
import { migratedTestDatabase } from '../db/migratedDatabase.testing.ts';
import { depositedFile, removeAbandonedParts, writeDepositParts } from './depositedFile.ts';

const MB = 1024 * 1024;

async function readAll(db: Kysely<Schema>, fileId: string, size: number): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of depositedFile(db, fileId, size)) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function anApplication(db: Kysely<Schema>): Promise<string> {
  const id = randomUUID();
  await sql`insert into applications (id, name, version, summary, model) values (${id}, ${`parts-${id}`}, '1', '{}', '{}')`.execute(
    db,
  );
  return id;
}

const partsOf = async (db: Kysely<Schema>, fileId: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from deposit_file_parts where file_id = ${fileId}`.execute(db))
    .rows[0]!.n;

describe('a deposited file kept in parts', () => {
  const database = migratedTestDatabase();

  it('is written as its chunks arrive, whatever their sizes, and read back byte for byte', async () => {
    const db = database().db;
    const application = await anApplication(db);
    // Random bytes (the database cannot compress them away), in chunks of the network's uneven sizes.
    const content = randomBytes(9 * MB + 12_345);
    const fileId = randomUUID();
    const parts = writeDepositParts(db, fileId);
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
    const parts = writeDepositParts(db, fileId);
    expect(await parts.end()).toBe(0);
    expect((await readAll(db, fileId, 0)).byteLength).toBe(0);
  });

  it('leaves nothing once discarded, even a part being written at that moment', async () => {
    const db = database().db;
    const fileId = randomUUID();
    const parts = writeDepositParts(db, fileId);
    await parts.add(randomBytes(2 * MB));
    const writing = parts.add(randomBytes(MB));
    await parts.discard();
    await writing;
    expect(await partsOf(db, fileId)).toBe(0);
  });

  it('goes with its file, whichever statement deletes it', async () => {
    const db = database().db;
    const application = await anApplication(db);
    const files = [randomUUID(), randomUUID()];
    for (const id of files) {
      const parts = writeDepositParts(db, id);
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

  it('removes the parts of a deposit that never became a file once they have been idle long enough', async () => {
    const db = database().db;
    const abandoned = randomUUID();
    const arriving = randomUUID();
    for (const id of [abandoned, arriving]) {
      const parts = writeDepositParts(db, id);
      await parts.add(randomBytes(MB));
    }
    await sql`update deposit_file_parts set written_at = now() - interval '2 days' where file_id = ${abandoned}`.execute(
      db,
    );
    await removeAbandonedParts(db, 24 * 3600 * 1000);
    expect(await partsOf(db, abandoned)).toBe(0);
    expect(await partsOf(db, arriving)).toBe(1);
    await removeAbandonedParts(db, 0);
    expect(await partsOf(db, arriving)).toBe(0);
  });
});

describe('deposits kept whole before parts (migration 0020)', () => {
  it('are cut into parts with their bytes unchanged', async () => {
    const database = await openDatabase({});
    try {
      const db = database.db;
      const migrations = await migrationProvider.getMigrations();
      const names = Object.keys(migrations);
      const migrator = new Migrator({ db, provider: migrationProvider });
      const before = await migrator.migrateTo(names[names.indexOf('0020_deposit_file_parts') - 1]!);
      expect(before.error).toBeUndefined();
      const application = await anApplication(db);
      const kept = [randomBytes(2 * MB + 5), randomBytes(MB), Buffer.alloc(0)].map((content) => ({
        id: randomUUID(),
        content,
      }));
      for (const { id, content } of kept)
        await sql`insert into deposit_files (id, application_id, data_name, file_name, size, content) values (${id}, ${application}, 'counts', 'old.csv', ${content.byteLength}, ${content})`.execute(
          db,
        );
      const after = await migrator.migrateToLatest();
      expect(after.error).toBeUndefined();
      for (const { id, content } of kept)
        expect((await readAll(db, id, content.byteLength)).equals(content)).toBe(true);
      expect(await partsOf(db, kept[0]!.id)).toBe(3);
    } finally {
      await database.close();
    }
  }, 120_000);
});
