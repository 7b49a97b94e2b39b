import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, migrateToLatest, type Database } from '../database.ts';
import { migrationProvider } from './index.ts';

let database: Database | undefined;
afterAll(() => database?.close());

it('fills the name key of every file stored before it, over several pages, as the domain computes it', async () => {
  database = await openDatabase({});
  const { db } = database;
  const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('0025_applied_keys');
  expect(migrated.error).toBeUndefined();
  const application = randomUUID();
  await sql`insert into applications (id, name, version, summary, model) values (${application}, 'older', '1', '{}', '{}')`.execute(
    db,
  );
  const names = Array.from({ length: 5_001 }, (_, i) => ` ÉTUDE Été ${i}.PDF `);
  const ids = names.map(() => randomUUID());
  await sql`insert into additional_files (id, content_id, application_id, file_type, file_name, size)
    select id, id, ${application}, 'protocols', name, 1 from unnest(${ids}::uuid[], ${names}::text[]) as f(id, name)`.execute(
    db,
  );
  await migrateToLatest(db);
  const keys = await db.selectFrom('additional_files').select(['id', 'name_key']).execute();
  const byId = new Map(keys.map((row) => [row.id, row.name_key]));
  expect(keys).toHaveLength(names.length);
  expect(ids.map((id) => byId.get(id))).toEqual(names.map((_, i) => `étude été ${i}.pdf`));
}, 120_000);
