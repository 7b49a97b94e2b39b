import type { Kysely } from 'kysely';
import type { ServerConfig } from './config.ts';
import type { Schema } from './db/schema.ts';
import type { Mailer } from './mail/mailer.ts';
import type { CheckPool } from './workers/checkPool.ts';

/** What every service needs: configuration, the database, the mail transport and the threads checking files. */
export interface ServerContext {
  config: ServerConfig;
  db: Kysely<Schema>;
  mailer: Mailer;
  checks: CheckPool;
  log: (line: string) => void;
}
