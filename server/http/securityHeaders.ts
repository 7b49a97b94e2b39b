import type { FastifyInstance } from 'fastify';

/**
 * What pages may load: only files of the portal itself. Scripts never inline (the built index.html has none, and
 * React never writes HTML), so text from users can never run. Inline styles stay allowed: Radix positions
 * popovers with style attributes. Framing is allowed to the portal's own pages only: the help and the charter
 * are PDFs shown in an iframe of the portal. `blob:` covers reports and exports the browser builds itself.
 * Reverse proxies serving the built UI must send the same policy (deploy/nginx/terrain.conf; a test compares them).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** A year: browsers then refuse plain HTTP to the portal. Sent only over HTTPS, as the standard requires. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Headers every answer carries: what the page may load and run, no type sniffing, no leaking of paths to other
 * sites, no framing by others, no window shared with other sites' pages, no keeping of the API's answers. HTTPS is
 * known directly or, behind a proxy the server is told to trust (TRUST_PROXY), from X-Forwarded-Proto.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    // An answer of the API is one user's: no cache on the way keeps it (a route that says otherwise is heard).
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control'))
      reply.header('Cache-Control', 'private, no-store');
  });
}
