import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001_accounts.ts';

/** Every migration, in order. Names are permanent: a released migration is never renamed or edited. */
const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
