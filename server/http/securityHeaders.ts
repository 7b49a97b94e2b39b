import type { FastifyInstance } from 'fastify';

/** Headers every answer carries: no type sniffing, no leaking of paths to other sites, no framing by others. */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000');
  });
}
