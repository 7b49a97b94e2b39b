import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../src/domain/errors/refusal.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * A state-changing call sent by a page of another site carries that site in `Origin` (or `Referer`): refuse
 * it. Calls with neither header come from scripts, which cannot ride on a victim's cookie, and pass.
 */
export function registerCsrfGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const source = request.headers.origin ?? request.headers.referer;
    if (source === undefined) return;
    // request.host honours X-Forwarded-Host only when the server is told to trust its proxy.
    if (source === 'null' || hostOf(source) !== request.host) throw new Refusal('CSRF_REFUSED');
  });
}
