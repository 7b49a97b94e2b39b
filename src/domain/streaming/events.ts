/**
 * Long operations answer a stream of newline-delimited JSON events. `info` carries an i18n key and its
 * parameters, `progress` a number from 0 to 1, `error` one problem (several may come), `warning` one remark that
 * does not stop the operation (configuration warnings), `result` the outcome. A stream that ends without a
 * `result` failed.
 */
export type StreamEvent<Result = unknown> =
  | { type: 'info'; result: string; params: Record<string, string>; time: string }
  | { type: 'progress'; result: number; time: string }
  | { type: 'error'; errorType: string; result: StreamProblem; time: string }
  | { type: 'warning'; warningType: string; result: StreamProblem; time: string }
  | { type: 'result'; result: Result; time: string };

export interface StreamProblem {
  /** The catalogue code (SCREAMING_SNAKE for configuration error and warning codes). */
  code: string;
  /** The original's message key (lower camel case of the code), kept for its clients. */
  message: string;
  params: Record<string, unknown>;
  path?: string;
  line?: number;
  column?: number;
  /** The zip entry the position is in, for multi-file configurations. */
  file?: string;
}

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

/**
 * Codes of failures that are the server's, not the request's (its answer had begun, so they come as stream
 * errors): the same request may succeed later, and is neither kept as its answer nor shown as a refusal.
 */
const SERVER_FAILURES: ReadonlySet<string> = new Set(['INTERNAL_ERROR', 'STORAGE_FULL', 'DATABASE_UNAVAILABLE']);

/** Whether a stream that ended without a result failed because of the server: its first error is such a failure. */
export function endedByServerFailure(events: readonly StreamEvent[]): boolean {
  if (events.some((event) => event.type === 'result')) return false;
  const first = events.find((event) => event.type === 'error');
  return first !== undefined && SERVER_FAILURES.has(first.result.code);
}
