import { pino, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The server's log: one JSON object per line on standard output (pino, Fastify's own logger), so that a log
 * collector reads it as it is. Lines about a request carry its `reqId`. At `info` (the default) it holds what the
 * server does (start, jobs, database trouble) and every internal error with its stack; each request's
 * arrival, answer (status and time) and a client leaving before its answer are logged at `debug`, too many lines for
 * a busy instance's default.
 */
export function createLogger(level: LogLevel): Logger {
  return pino({ level });
}

export function readLogLevel(text: string | undefined): LogLevel {
  const level = (text ?? '').trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : 'info';
}
