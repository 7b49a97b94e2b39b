import { afterAll, beforeAll } from 'vitest';
import { migrateToLatest, openDatabase, type Database } from './database.ts';

/** For a test file: an in-memory embedded database with every migration applied, closed after the file's tests. */
export function migratedTestDatabase(): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(database.db);
  }, 120_000);
  afterAll(() => database?.close());
  return () => {
    if (!database) throw new Error('the test database is not open yet');
    return database;
  };
}
