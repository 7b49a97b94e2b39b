import type { Kysely } from 'kysely';
import type { ServerConfig } from './config.ts';
import type { DiskRoom } from './db/diskRoom.ts';
import type { Schema } from './db/schema.ts';
import type { Mailer } from './mail/mailer.ts';
import type { CheckPool } from './workers/checkPool.ts';
import type { ConfigurationCheckPool } from './workers/configurationCheckPool.ts';

/** What every service needs: configuration, the database (and the room on its disk), the mail transport, the threads checking files and configurations, and the clock. */
export interface ServerContext {
  config: ServerConfig;
  db: Kysely<Schema>;
  room: DiskRoom;
  mailer: Mailer;
  checks: CheckPool;
  configurations: ConfigurationCheckPool;
  log: (line: string) => void;
  clock: Clock;
  /**
   * Aborted once the instance serves no more requests, before its database closes: work tried again later (an undo
   * that failed) gives up, and the next start finishes it.
   */
  stopped: AbortSignal;
}

/**
 * The time the server reads when it sets or checks an expiry and when it stamps a change. Tests start the server
 * with a clock they move forward, so that proving an expiry does not mean waiting for it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
