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
