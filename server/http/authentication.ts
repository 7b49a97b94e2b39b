import '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.ts';
import type { SessionKeeper } from '../services/sessions.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { OWNER_HEADER, ownerOf } from '../../src/contract/changeOwner.ts';

export const SESSION_COOKIE = 'terrain_session';
/**
 * The session cookie over HTTPS: a browser takes a `__Host-` cookie only from this very host, over HTTPS, for the
 * whole site, so a neighbouring subdomain cannot plant one (signing a person in as someone else).
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export interface Authentication {
  user: UserRow;
  sessionId: string;
  token: string;
  /**
   * The session's user as the database has it now; null once the session ended or the account closed. For answers
   * that run for minutes: what held when they began may no longer hold.
   */
  reread(): Promise<UserRow | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authentication | null;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

const overHttps = (request: FastifyRequest) => request.protocol === 'https';
const cookieName = (request: FastifyRequest) => (overHttps(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number) {
  reply.setCookie(cookieName(request), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: overHttps(request),
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(cookieName(request), { path: '/', secure: overHttps(request) });
}

/**
 * Reads the session from the cookie (browsers) or an `Authorization: Bearer` header (scripts). A closed
 * account's session no longer counts. A change the outbox sends for someone else than the session's user is refused
 * (changeOwner.ts). The cookie is re-issued on each authenticated call so its idle expiry
 * slides with use, as the session row's does.
 */
export function registerAuthentication(app: FastifyInstance, sessions: SessionKeeper) {
  /** The token's session, unless it ended or its account was closed. */
  const openSession = async (token: string) => {
    const session = await sessions.resolve(token);
    return session && session.user.state !== 'closed' ? session : undefined;
  };
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    // Over HTTPS the plain name is never read: anyone on a neighbouring subdomain can set it. Clearing it stays
    // harmless when it cannot work (one planted for a parent domain comes back with each request).
    const fromCookie = request.cookies[cookieName(request)];
    if (overHttps(request) && request.cookies[SESSION_COOKIE] !== undefined)
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    const token = bearerToken(request) ?? fromCookie;
    if (!token) return;
    const session = await openSession(token);
    if (!session) {
      if (fromCookie) clearSessionCookie(request, reply);
      return;
    }
    const reread = async () => (await openSession(token))?.user ?? null;
    request.auth = { user: session.user, sessionId: session.sessionId, token, reread };
    if (fromCookie === token) setSessionCookie(request, reply, token, session.lifetimeSeconds);
    const owner = request.headers[OWNER_HEADER.toLowerCase()];
    if (typeof owner === 'string' && ownerOf(owner) !== session.user.login) throw new Refusal('CHANGE_OF_ANOTHER_USER');
  });
}

export function requireUser(request: FastifyRequest): UserRow {
  if (!request.auth) throw new Refusal('NOT_AUTHENTICATED');
  return request.auth.user;
}

/**
 * The caller as the database has them now, for an answer that runs long: anonymous stays anonymous; a session that
 * ended (signed out, revoked, expired) or an account closed since is refused.
 */
export async function callerNow(auth: Authentication | null): Promise<UserRow | null> {
  if (!auth) return null;
  const user = await auth.reread();
  if (!user) throw new Refusal('NOT_AUTHENTICATED');
  return user;
}
