import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { Refusal } from '../../src/domain/errors/refusal.ts';

type PartsOptions = Parameters<FastifyRequest['parts']>[0];

/**
 * The parts of a multipart body, as `request.parts` gives them, for a body that may already be cut. The plugin learns
 * of a body cut short from the request's `close` event: a client that left while the request waited (for the
 * database, for its key) has closed it before the parts are asked for, and they would then never end nor fail,
 * holding the request and its idempotency key for good. Such a body is refused at once: nothing of it can be used.
 */
export function formParts(request: FastifyRequest, options: PartsOptions) {
  if (request.raw.destroyed && !request.raw.readableEnded) throw new Refusal('MALFORMED_MULTIPART');
  return request.parts(options);
}
