import { Refusal } from '../../src/domain/errors/refusal.ts';

/**
 * A failure of the multipart parser (no boundary, a body cut short, a malformed part header) is the client's
 * mistake: 400 MALFORMED_MULTIPART. Refusals already made (too large, too many parts) keep their status.
 */
export function multipartFailure(error: unknown): unknown {
  if (error instanceof Refusal) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) return error;
  return new Refusal('MALFORMED_MULTIPART');
}
