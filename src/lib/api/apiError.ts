/** A failed call as the UI sees it: the HTTP status (0 when the network failed) and the catalogue code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly params: Record<string, unknown> | unknown[] = {},
  ) {
    super(code);
  }

  get isNetworkError() {
    return this.status === 0;
  }
}

/**
 * Reads an error answer whatever its form: our `{code, params}` envelope, a bare (possibly JSON-quoted) code,
 * or the original's "text [a,b]" message form whose bracketed list gives positional parameters.
 */
export function readErrorBody(status: number, text: string): ApiError {
  let body: unknown = text;
  try {
    body = text === '' ? '' : JSON.parse(text);
  } catch {
    // plain text body
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as { code?: unknown; message?: unknown; params?: unknown };
    const code =
      typeof record.code === 'string' ? record.code : typeof record.message === 'string' ? record.message : '';
    const params = record.params && typeof record.params === 'object' ? (record.params as Record<string, unknown>) : {};
    return fromMessage(status, code, params);
  }
  return fromMessage(status, typeof body === 'string' ? body : '', {});
}

function fromMessage(status: number, message: string, params: Record<string, unknown> | unknown[]): ApiError {
  const bracketed = message.match(/^(.*?)\s*\[(.*)\]\s*$/s);
  if (bracketed)
    return new ApiError(
      status,
      bracketed[1].trim(),
      bracketed[2].split(',').map((p) => p.trim()),
    );
  return new ApiError(status, message.trim(), params);
}
