import type { FastifyInstance } from 'fastify';
import { holdsNulCharacter } from '../../src/domain/text/nulCharacter.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/**
 * Refuses, before anything reads it, a request whose path, query or JSON body holds a NUL character: no database
 * column can store one, and a statement failing on it half-way through a streamed answer would cut it.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (holdsNulCharacter(request.params) || holdsNulCharacter(request.query) || holdsNulCharacter(request.body)) {
      throw new Refusal('BAD_REQUEST', { reason: 'nulCharacter' });
    }
  });
}
