import { isDiskFull } from '../db/diskRoom.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/** PostgreSQL states meaning the server is going away, starting, or not reachable (classes 08 and 57P). */
const UNAVAILABLE_STATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '25006',
]);
/** Socket failures node-postgres passes on as they are. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * node-postgres' own words when a connection dies under a query or cannot be had in time, and the embedded
 * PGlite's when its session broke (its log could not be written: it is reopened on the next request).
 */
const LOST_CONNECTION =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|connection error|cannot drop active portal/i;

/** How long a client should wait before trying again while the database is away, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's SQLSTATEs for a transaction ended to let another through (a deadlock, a serialization failure): the
 * request did nothing wrong and nothing of it was kept; the same request sent again goes through.
 */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/** A conflicting write is over in a moment: sent again a second later, the request meets it no more. */
const CONFLICT_RETRY_SECONDS = 1;

/** PostgreSQL's SQLSTATE for a value larger than a limit of the database (54000). */
const PROGRAM_LIMIT_EXCEEDED = '54000';

/**
 * Database failures that are nobody's request's fault, as the API answers them: the disk (or the quota) of the
 * database is full → 507 STORAGE_FULL, nothing of the request was kept; the database is restarting or out of
 * reach → 503 DATABASE_UNAVAILABLE, to be tried again (the pool opens new connections by itself once it is back); a
 * write ended by the database to let another through → 503 WRITE_CONFLICT, to be sent again. Anything else is not
 * recognised here.
 */
export function databaseFailure(error: unknown): Refusal | undefined {
  if (isDiskFull(error)) return new Refusal('STORAGE_FULL');
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // A value past what the database holds or indexes (an index entry, a text-search vector): the request's own,
  // refused as such rather than as the server's failure; trying it again would fail again.
  if (code === PROGRAM_LIMIT_EXCEEDED) return new Refusal('VALUE_TOO_LARGE');
  if (typeof code === 'string' && CONFLICT_STATES.has(code))
    return new Refusal('WRITE_CONFLICT', { retryAfterSeconds: CONFLICT_RETRY_SECONDS }, CONFLICT_RETRY_SECONDS);
  const text = typeof message === 'string' ? message : '';
  if (
    (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNREACHABLE.has(code))) ||
    LOST_CONNECTION.test(text)
  ) {
    return new Refusal('DATABASE_UNAVAILABLE', { retryAfterSeconds: RETRY_AFTER_SECONDS }, RETRY_AFTER_SECONDS);
  }
  return undefined;
}
