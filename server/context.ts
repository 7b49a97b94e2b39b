import type { Kysely } from 'kysely';
import type { ServerConfig } from './config.ts';
import type { DiskRoom } from './db/diskRoom.ts';
import type { Schema } from './db/schema.ts';
import type { Mailer } from './mail/mailer.ts';

/** What every service needs: configuration, the database (and the room on its disk) and the mail transport. */
export interface ServerContext {
  config: ServerConfig;
  db: Kysely<Schema>;
  room: DiskRoom;
  mailer: Mailer;
  log: (line: string) => void;
}
