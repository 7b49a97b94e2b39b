import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, migrateToLatest, type Database } from '../database.ts';
import { migrationProvider } from './index.ts';

let database: Database | undefined;
afterAll(() => database?.close());

it('removes the copies of rows a version published twice got, keeps the rest, and counts every entry again', async () => {
  database = await openDatabase({});
  const { db } = database;
  const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('0031_additional_file_updated_by');
  expect(migrated.error).toBeUndefined();
  const application = randomUUID();
  await sql`insert into applications (id, name, version, summary, model) values (${application}, 'doubled', '1', '{}', '{}')`.execute(
    db,
  );
  const [published, other] = [randomUUID(), randomUUID()];
  const row = (file: string | null, key: string, line: number) =>
    sql`insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, file_id)
      values (${randomUUID()}, ${application}, 'counts', ${key}, ${key}, '{}', '{}', ${line}, ${file})`.execute(db);
  // The version published twice: three rows, each stored twice.
  for (let round = 0; round < 2; round += 1)
    for (const [key, line] of [
      ['a', 2],
      ['b', 3],
      ['c', 4],
    ] as const)
      await row(published, key, line);
  // Another version with the same keys, and rows without a file: not copies.
  for (const [key, line] of [
    ['a', 2],
    ['b', 3],
  ] as const)
    await row(other, key, line);
  await row(null, 'a', 2);
  await sql`insert into entry_counts (application_id, data_name, line_count) values (${application}, 'counts', 9)`.execute(
    db,
  );
  // An entry left short by two writers committing together, and one whose rows are all gone.
  await row(null, 'z', 2);
  await sql`update data_rows set data_name = 'sites' where natural_key = 'z'`.execute(db);
  await sql`insert into entry_counts (application_id, data_name, line_count)
    values (${application}, 'sites', 0), (${application}, 'gone', 4)`.execute(db);

  await migrateToLatest(db);
  const kept = await sql<{ file_id: string | null; n: number }>`
    select file_id, count(*)::int as n from data_rows group by file_id`.execute(db);
  expect(Object.fromEntries(kept.rows.map((r) => [r.file_id ?? 'none', r.n]))).toEqual({
    [published]: 3,
    [other]: 2,
    none: 2,
  });
  const counts = await sql<{
    data_name: string;
    line_count: number;
  }>`select data_name, line_count from entry_counts`.execute(db);
  expect(Object.fromEntries(counts.rows.map((r) => [r.data_name, Number(r.line_count)]))).toEqual({
    counts: 6,
    sites: 1,
    gone: 0,
  });
}, 120_000);
