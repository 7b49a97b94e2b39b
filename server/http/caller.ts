import type { FastifyRequest } from 'fastify';
import { mailLanguage } from '../mail/templates.ts';
import type { Caller } from '../services/accounts.ts';

export function callerOf(request: FastifyRequest): Caller {
  return {
    language: mailLanguage(request.headers['accept-language']),
    address: request.ip,
    user: request.auth?.user,
    sessionId: request.auth?.sessionId,
  };
}
