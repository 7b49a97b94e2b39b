import { availableParallelism } from 'node:os';
import path from 'node:path';
import { readLogLevel, type LogLevel } from './logging.ts';
import type { SignInLimits } from './services/signInThrottle.ts';
import { PASSWORD_MIN_LENGTH, checkPassword } from '../src/domain/accounts/rules.ts';
import { mailAddressRule } from './mail/address.ts';

/** Everything the server reads from its environment, resolved once at start. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Holds the embedded database, the mail outbox and generated credentials. */
  dataDir: string;
  /** A real PostgreSQL server; when absent the embedded PGlite database in `dataDir/db` is used. */
  databaseUrl?: string;
  sessionIdleSeconds: number;
  /** How long a session kept signed in on a device lasts without use. */
  deviceSessionDays: number;
  /** Overrides the secret otherwise generated once and kept in the database (shared by every instance). */
  sessionSecret?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Public address of the portal, used in mails. */
  publicUrl: string;
  admin: { login?: string; password?: string; email?: string };
  /** Folder of the built UI; served when it exists. */
  staticDir: string;
  loginRateLimit: SignInLimits;
  /** Rights requests one user may send (or change) in an hour. */
  rightsRequestsPerHour: number;
  /** Validity of mailed keys. */
  keyValiditySeconds: number;
  trustProxy: boolean;
  /** Largest additional file accepted (bytes); larger uploads are refused with 413. */
  additionalFileMaxBytes: number;
  /** Largest backup zip accepted for a restore (bytes, 413 above), and what its entries may inflate to in all. */
  bundleMaxBytes: number;
  bundleMaxInflatedBytes: number;
  /** Worker threads checking CSV files and their expressions, and as many validating configurations (each started when first needed). */
  checkWorkers: number;
  /** Time a worker may spend checking one file (ms) before the file is refused with CHECK_BUDGET_EXCEEDED. */
  checkBudgetMs: number;
  /** Time a worker may spend validating one configuration (ms) before it is refused with CONFIGURATION_CHECK_BUDGET_EXCEEDED. */
  configurationBudgetMs: number;
  /** Time an upload may wait for its client's next bytes (ms) before it is abandoned with UPLOAD_STALLED. */
  uploadIdleMs: number;
  /** Time a configuration update waits for the writes under way (ms) before it is refused with WRITES_UNDER_WAY. */
  updateWaitMs: number;
  /** Time a stopping instance lets the requests under way finish (ms) before it closes their connections. */
  shutdownGraceMs: number;
  /** `LOG_LEVEL`: what the log holds (server/logging.ts). */
  logLevel: LogLevel;
  /** Room on the database's disk (docs/deploy.md, "Disk space"). */
  storage: {
    /** Free space that uploads, publications and restores never use, kept for sign-ins, sessions and the database's log. */
    reserveBytes: number;
    /** Bytes the database takes per byte of an uploaded CSV file once its rows are stored; the engine's own by default (uploadRoom.ts). */
    uploadFactor?: number;
    /** A folder on PostgreSQL's disk, when it can be seen from here; the embedded database's folder is used without it. */
    diskPath?: string;
  };
  /** Failures injected by tests to prove that a broken job leaves the previous state (never set in production). */
  faults: { publishFailAfterRows?: number };
}

/**
 * Time one file's checking may take by default: far above what the benchmark's 1,000,000-row files take to check
 * (docs/benchmarks.md), so that only files whose expressions are pathological reach it.
 */
const DEFAULT_CHECK_BUDGET_SECONDS = 300;

/**
 * Time one configuration's validation may take by default: far above what the largest accepted files take (the
 * limits of docs/configuration.md), so that only a configuration built to be slow reaches it.
 */
const DEFAULT_CONFIGURATION_BUDGET_SECONDS = 30;

/**
 * Time an upload may wait for its client's next bytes by default: a network that has given nothing for this long
 * has dropped the connection, and a large upload holds what it writes meanwhile (a transaction on PostgreSQL, its
 * entry closed to writers).
 */
const DEFAULT_UPLOAD_IDLE_SECONDS = 120;

/**
 * Time a stopping instance waits for the requests under way by default: an upload or export sent over a slow network
 * may take longer than this, and is then cut (an upload stores nothing, its change is sent again later): an instance
 * waiting for one client for good would be killed by its supervisor, without the embedded database's orderly close.
 */
const DEFAULT_SHUTDOWN_GRACE_SECONDS = 60;

/**
 * Time a configuration update waits by default for the uploads and publications under way: new writes queue behind
 * the update while it waits, so a long wait would stop every depositor of the application for as long as the
 * longest write under way lasts.
 */
const DEFAULT_UPDATE_WAIT_SECONDS = 10;

const int = (value: string | undefined, fallback: number) => {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = int(env.PORT, 8080);
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sessionIdleSeconds: int(env.SESSION_IDLE_SECONDS, 3600),
    deviceSessionDays: int(env.DEVICE_SESSION_DAYS, 30),
    sessionSecret: env.SESSION_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Terrain <no-reply@terrain.local>',
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    admin: configuredAdmin(env),
    staticDir: path.resolve(env.STATIC_DIR || 'dist'),
    loginRateLimit: {
      perLogin: int(env.LOGIN_RATE_LIMIT_PER_LOGIN, 10),
      perAddress: int(env.LOGIN_RATE_LIMIT_PER_ADDRESS, 50),
      global: int(env.LOGIN_RATE_LIMIT_GLOBAL, 1000),
      windowSeconds: int(env.LOGIN_RATE_LIMIT_WINDOW_SECONDS, 900),
    },
    rightsRequestsPerHour: int(env.RIGHTS_REQUESTS_PER_HOUR, 30),
    keyValiditySeconds: int(env.KEY_VALIDITY_SECONDS, 1800),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    // The original accepted 100 MB per file.
    additionalFileMaxBytes: int(env.ADDITIONAL_FILE_MAX_BYTES, 100 * 1024 * 1024),
    bundleMaxBytes: int(env.BUNDLE_MAX_BYTES, 4 * 1024 ** 3),
    bundleMaxInflatedBytes: int(env.BUNDLE_MAX_INFLATED_BYTES, 16 * 1024 ** 3),
    checkWorkers: Math.max(1, int(env.CHECK_WORKERS, availableParallelism())),
    checkBudgetMs: int(env.CHECK_BUDGET_SECONDS, DEFAULT_CHECK_BUDGET_SECONDS) * 1000,
    configurationBudgetMs: int(env.CONFIGURATION_BUDGET_SECONDS, DEFAULT_CONFIGURATION_BUDGET_SECONDS) * 1000,
    uploadIdleMs: Math.max(1, int(env.UPLOAD_IDLE_SECONDS, DEFAULT_UPLOAD_IDLE_SECONDS)) * 1000,
    // PostgreSQL's lock_timeout and Node's timers both stop at 2^31 - 1 ms.
    updateWaitMs: Math.min(2 ** 31 - 1, Math.max(1, int(env.UPDATE_WAIT_SECONDS, DEFAULT_UPDATE_WAIT_SECONDS)) * 1000),
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_SECONDS, DEFAULT_SHUTDOWN_GRACE_SECONDS) * 1000,
    logLevel: readLogLevel(env.LOG_LEVEL),
    storage: {
      reserveBytes: int(env.STORAGE_RESERVE_MB, 256) * 1024 * 1024,
      uploadFactor: int(env.UPLOAD_SPACE_FACTOR, -1) >= 0 ? int(env.UPLOAD_SPACE_FACTOR, -1) : undefined,
      diskPath: env.DATABASE_DISK_PATH ? path.resolve(env.DATABASE_DISK_PATH) : undefined,
    },
    faults: {},
  };
}

/** The platform administrator to create at first start: refused at once when the account rules would refuse it. */
function configuredAdmin(env: NodeJS.ProcessEnv): ServerConfig['admin'] {
  const admin = {
    login: env.TERRAIN_ADMIN_LOGIN || undefined,
    password: env.TERRAIN_ADMIN_PASSWORD || undefined,
    email: env.TERRAIN_ADMIN_EMAIL || undefined,
  };
  if (admin.password !== undefined && checkPassword(admin.password))
    throw new Error(`TERRAIN_ADMIN_PASSWORD needs ${PASSWORD_MIN_LENGTH} characters or more`);
  if (admin.email !== undefined && mailAddressRule(admin.email))
    throw new Error('TERRAIN_ADMIN_EMAIL is not one valid e-mail address');
  return admin;
}
