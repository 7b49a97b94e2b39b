import { RIGHTS_REQUESTS_WINDOW_SECONDS } from './services/rightsRequests.ts';
import { forgetEndedAccountRecords } from './services/accountRecordsExpiry.ts';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.ts';
import type { ServerConfig } from './config.ts';
import { systemClock, type Clock, type ServerContext } from './context.ts';
import { migrateToLatest, openDatabase, type Database } from './db/database.ts';
import { diskRoom, freeSpaceOf, type FreeSpaceReader } from './db/diskRoom.ts';
import { startEmbeddedVacuum } from './db/embeddedVacuum.ts';
import { undoUnfinishedWrites } from './db/bulkJournal.ts';
import { UPLOAD_PARTS_IDLE_MS, removeAbandonedParts } from './services/fileParts.ts';
import { removeRowsOfUnpublishedVersions } from './services/versionRows.ts';
import { removeInterruptedRestores } from './services/restoreInSteps.ts';
import { spoolFolder } from './services/uploadSpool.ts';
import { forgetExpiredKeys } from './http/idempotency.ts';
import { jobHandlers } from './jobs/handlers.ts';
import { startJobRunner } from './jobs/jobs.ts';
import { createMailer } from './mail/mailer.ts';
import { ensurePlatformAdmin, type AdminBootstrap } from './services/admins.ts';
import type { RowCounter } from './services/applications.ts';
import { startServerInstance, type ServerInstance } from './services/serverInstance.ts';
import { createSessionKeeper, loadSessionSecret } from './services/sessions.ts';
import { CheckPool } from './workers/checkPool.ts';
import { ConfigurationCheckPool } from './workers/configurationCheckPool.ts';

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServerContext;
  database: Database;
  admin?: AdminBootstrap;
  /** This process as a server instance (its requests' idempotency keys name it). */
  instance: ServerInstance;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** The structured log (production); without it, lines go to `log` and requests are not logged. */
  logger?: FastifyBaseLogger;
  log?: (line: string) => void;
  /** Rows stored per data entry of an application, checked before an update (tests inject stored rows). */
  countRows?: RowCounter;
  /** The free space of the database's disk (tests give their own); otherwise read at DATABASE_DISK_PATH or in the embedded database's folder. */
  freeSpace?: FreeSpaceReader;
  /** The time read for expiries and change stamps (tests move theirs forward); the system's by default. */
  clock?: Clock;
  onAnswerMismatch?: AppOptions['onAnswerMismatch'];
}

/** Opens the database, applies migrations, makes sure the platform administrator exists and builds the app. */
export async function createServer(config: ServerConfig, options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger;
  const log = options.log ?? (logger ? (line: string) => logger.info(line) : (line: string) => console.log(line));
  const diskPath = config.storage.diskPath ?? (config.databaseUrl ? undefined : path.join(config.dataDir, 'db'));
  const readFree = options.freeSpace ?? (diskPath ? freeSpaceOf(diskPath) : undefined);
  const room = diskRoom(readFree, config.storage.reserveBytes, log);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    room,
  });
  // A DATABASE_DISK_PATH that cannot be read stops the start, rather than every upload.
  await readFree?.();
  await migrateToLatest(database.db);
  // Writes a crash interrupted are undone before anything is served (bulkJournal.ts).
  for (const undone of await undoUnfinishedWrites(database.db))
    log(`undid an interrupted write of ${undone.dataName} (application ${undone.applicationId})`);
  // Backups whose restore a stop or a crash cut: this instance's own folder.
  await rm(spoolFolder(config.dataDir), { recursive: true, force: true });
  // Parts of deposits a stop interrupted: on the embedded database, nothing else can be receiving one.
  const abandonedParts = await removeAbandonedParts(database.db, config.databaseUrl ? UPLOAD_PARTS_IDLE_MS : 0);
  if (abandonedParts > 0) log(`removed ${abandonedParts} parts of deposits interrupted while they arrived`);
  if (!config.databaseUrl) {
    for (const name of await removeInterruptedRestores(database.db))
      log(`removed what an interrupted restore of ${name} had written`);
    for (const entry of await removeRowsOfUnpublishedVersions(database.db))
      log(`finished an interrupted change of the versions of ${entry.dataName} (application ${entry.applicationId})`);
  }
  const mailer = createMailer({
    from: config.mailFrom,
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
  });
  const checks = new CheckPool({ workers: config.checkWorkers, budgetMs: config.checkBudgetMs, log });
  const configurations = new ConfigurationCheckPool({
    workers: config.checkWorkers,
    budgetMs: config.configurationBudgetMs,
    log,
  });
  const clock = options.clock ?? systemClock;
  const stopping = new AbortController();
  const ctx: ServerContext = {
    config,
    db: database.db,
    room,
    mailer,
    log,
    checks,
    configurations,
    clock,
    stopped: stopping.signal,
  };
  const sessions = createSessionKeeper(
    database.db,
    await loadSessionSecret(database.db, config.sessionSecret),
    { idleSeconds: config.sessionIdleSeconds, lastingSeconds: config.deviceSessionDays * 24 * 3600 },
    clock,
  );
  const admin = await ensurePlatformAdmin(ctx);
  const jobs = startJobRunner(database.db, jobHandlers(ctx), log);
  const embedded = database.kind === 'pglite';
  const instance = await startServerInstance(database.db, { onlyInstance: embedded, log });
  const app = await buildApp({
    ctx,
    sessions,
    jobs,
    instance: instance.id,
    logger: options.logger,
    countRows: options.countRows,
    oneSession: embedded,
    onAnswerMismatch: options.onAnswerMismatch,
  });
  // Kept answers expire, parts of deposits broken off stay; any instance may clean them, the deletes do not conflict.
  const housekeeping = setInterval(
    () => {
      void forgetExpiredKeys(database.db).catch((error: unknown) =>
        log(`expired idempotency keys not removed (tried again in an hour): ${(error as Error).message}`),
      );
      void removeAbandonedParts(database.db, UPLOAD_PARTS_IDLE_MS).catch((error: unknown) =>
        log(`parts of interrupted deposits not removed (tried again in an hour): ${(error as Error).message}`),
      );
      void forgetEndedAccountRecords(
        database.db,
        Math.max(config.loginRateLimit.windowSeconds, RIGHTS_REQUESTS_WINDOW_SECONDS),
      ).catch((error: unknown) =>
        log(`ended sessions, keys and counters not removed (tried again in an hour): ${(error as Error).message}`),
      );
    },
    60 * 60 * 1000,
  );
  housekeeping.unref();
  const stopVacuum = embedded ? startEmbeddedVacuum(database.db, log) : () => undefined;
  return {
    app,
    ctx,
    database,
    admin,
    instance,
    async close() {
      clearInterval(housekeeping);
      await stopVacuum();
      const cut = setTimeout(() => {
        log(`requests still under way after ${config.shutdownGraceMs / 1000} s: their connections are closed`);
        app.server.closeAllConnections();
      }, config.shutdownGraceMs);
      await app.close().finally(() => clearTimeout(cut));
      stopping.abort(new Error('the instance is stopping'));
      await instance
        .stop()
        .catch((error: unknown) => log(`instance not recorded as stopped: ${(error as Error).message}`));
      await jobs.stop();
      await checks.close();
      await configurations.close();
      await database.close();
    },
  };
}
