import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { ServerConfig } from './config.ts';
import type { ServerContext } from './context.ts';
import { migrateToLatest, openDatabase, type Database } from './db/database.ts';
import { createMailer } from './mail/mailer.ts';
import { ensurePlatformAdmin, type AdminBootstrap } from './services/admins.ts';
import { createSessionKeeper, loadSessionSecret } from './services/sessions.ts';

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServerContext;
  database: Database;
  admin?: AdminBootstrap;
  close(): Promise<void>;
}

/** Opens the database, applies migrations, makes sure the platform administrator exists and builds the app. */
export async function createServer(config: ServerConfig, options: { logger?: boolean; log?: (line: string) => void } = {}): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  await migrateToLatest(database.db);
  const mailer = createMailer({ from: config.mailFrom, smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), log });
  const ctx: ServerContext = { config, db: database.db, mailer, log };
  const sessions = createSessionKeeper(database.db, await loadSessionSecret(database.db, config.sessionSecret), config.sessionIdleSeconds);
  const admin = await ensurePlatformAdmin(ctx);
  const app = await buildApp({ ctx, sessions, logger: options.logger });
  return {
    app,
    ctx,
    database,
    admin,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
