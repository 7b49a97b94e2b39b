/**
 * A refusal the client can act on: an HTTP status and a code from the error catalogue, with the values its
 * translated message interpolates. Every error body has the one shape `{code, message, params}` where
 * `message` repeats the code (clients of the original read `message`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly params: Record<string, unknown> = {},
    /** For a 429: when trying again may succeed (the Retry-After header). */
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
  }
}

export interface ErrorBody {
  code: string;
  message: string;
  params: Record<string, unknown>;
}

export function errorBody(code: string, params: Record<string, unknown> = {}): ErrorBody {
  return { code, message: code, params };
}
