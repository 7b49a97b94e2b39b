import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, migrateToLatest, type Database } from '../database.ts';
import { migrationProvider } from './index.ts';

let database: Database | undefined;
afterAll(() => database?.close());

it('computes again the keys stored from decomposed names, so that the same name composed meets them', async () => {
  database = await openDatabase({});
  const { db } = database;
  const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('0029_scope_key_lookups');
  expect(migrated.error).toBeUndefined();
  const application = randomUUID();
  await sql`insert into applications (id, name, version, summary, model) values (${application}, 'older', '1', '{}', '{}')`.execute(
    db,
  );
  // 한 (Hangul) decomposed into letters, as macOS names it; the keys as the former rule computed them.
  const files = [
    { name: '\u1112\u1161\u11ab.pdf', key: '\u1112\u1161\u11ab.pdf' },
    { name: 'Plain.PDF', key: 'plain.pdf' },
    { name: 'Été.pdf', key: 'été.pdf' },
  ].map((file) => ({ ...file, id: randomUUID() }));
  for (const file of files)
    await sql`insert into additional_files (id, content_id, application_id, file_type, file_name, size, name_key)
      values (${file.id}, ${file.id}, ${application}, 'protocols', ${file.name}, 1, ${file.key})`.execute(db);
  await migrateToLatest(db);
  const keys = await db.selectFrom('additional_files').select(['id', 'name_key', 'file_name']).execute();
  const byId = new Map(keys.map((row) => [row.id, row]));
  expect(files.map((file) => byId.get(file.id)!.name_key)).toEqual(['\ud55c.pdf', 'plain.pdf', 'été.pdf']);
  // The names stay as they were given.
  expect(byId.get(files[0]!.id)!.file_name).toBe(files[0]!.name);
}, 120_000);
