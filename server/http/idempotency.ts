import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Expression, type Kysely } from 'kysely';
import { claimForWork, inRequestWork, type KeyClaim } from '../db/appliedWork.ts';
import type { Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { endedByServerFailure, type StreamEvent } from '../../src/domain/streaming/events.ts';
import { formParts } from './formParts.ts';
import { multipartFailure } from './multipartFailure.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEPT_HOURS = 24;
/**
 * After its answer is dropped, how long a key is remembered as applied: a tablet offline for weeks that sends a
 * change again (its answer lost the first time) learns it was applied instead of applying it twice.
 */
const REMEMBERED_DAYS = 90;
/**
 * A request holds its key for this long, renewed while it runs. A key left "running" by a server that died
 * (kill -9, power cut) is taken over by a retry as soon as its instance is known gone (serverInstance.ts); the lease
 * is what keys taken before instances were recorded go by, and what frees a key whose request ended unrecorded.
 */
const LEASE_SECONDS = 60;
const RENEW_EVERY_MS = 20_000;
/** How long a first request's body may not come before a retry with its key takes it for abandoned. */
const STALLED_BODY_MS = 1_000;
/** Seconds looked at, at most, while the thread is too busy for a fair one. */
const STALLED_LOOKS = 5;
/** How long a retry waits for the hanging first request it ended to free its key. */
const SUPERSEDE_WAIT_MS = 5_000;
const STORED_HEADERS = ['content-type', 'content-disposition', 'location'];

interface IdempotentRequest extends KeyClaim {
  /** `first`: this request does the work and its answer is kept. `replay`: the kept answer is the reply. */
  mode: 'first' | 'replay';
  /** The fingerprint the key was first used with (null while a multipart first request has not read its parts). */
  fingerprint: string | null;
  /** Renews the lease of a first request until its answer is kept or forgotten. */
  renewal?: NodeJS.Timeout;
  /** Ends the request's work: what runs afterwards no longer applies its key (appliedWork.ts). */
  endWork?: () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotentRequest | null;
    /** For the first multipart request with a key: records the digest of the parts it read. */
    recordIdempotentUpload(bodyDigest: string): Promise<void>;
  }
}

interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

function sendStoredAnswer(reply: FastifyReply, answer: StoredAnswer) {
  return reply
    .code(answer.status)
    .headers({ ...answer.headers, 'idempotent-replayed': 'true' })
    .send(Buffer.from(answer.body));
}

const digest = (...parts: Array<string | Uint8Array>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex');
};

function isMultipart(request: FastifyRequest) {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
}

/** What identifies a payload: method, path and body (parsed bodies are compared through their JSON). */
function fingerprintOf(request: FastifyRequest, bodyDigest: string) {
  return digest(request.method, request.url, bodyDigest);
}

/**
 * Every POST, PUT and DELETE under /api/v1 that carries an `Idempotency-Key` runs at most once per key and
 * caller for 24 hours: a replay with the same payload gets the kept answer (status, headers, body — streams
 * included), the same key with another payload 422, and a replay while the first is still running 409 (a first
 * request that died with its instance is not running: the replay takes over). The answer is then dropped, the key
 * remembered for REMEMBERED_DAYS more: a replay gets 409 ALREADY_APPLIED.
 * The keys live in the database, so every server instance sees them. Refusals (4xx) and failures (5xx) are
 * not kept: nothing was applied, so trying again must run again. The transaction applying a work marks its key
 * `applied` (appliedWork.ts): a key whose answer was never kept stays so, and a retry then gets 409 ALREADY_APPLIED.
 */
export function registerIdempotency(app: FastifyInstance, db: Kysely<Schema>, instance: string) {
  /** First requests running on this instance, by scope and key, with what settles once their key is kept or freed. */
  const runningHere = new Map<string, { request: FastifyRequest; settled: Promise<void>; settle: () => void }>();
  const idOf = (scope: string, key: string) => `${scope}\u0000${key}`;
  const runFirst = (request: FastifyRequest, scope: string, key: string, claim: string, fingerprint: string | null) => {
    const renewal = renewLease(db, { scope, key, claim });
    const endWork = claimForWork({ scope, key, claim });
    request.idempotency = { scope, key, claim, mode: 'first', fingerprint, renewal, endWork };
    // A body cut short can never be applied: should its request then fail to answer, its key is not held beyond the
    // lease it has.
    request.raw.once('close', () => {
      if (!request.raw.complete) clearInterval(renewal);
    });
    let settle = () => {};
    const settled = new Promise<void>((resolve) => (settle = resolve));
    runningHere.set(idOf(scope, key), { request, settled, settle });
  };
  /** The key of a first request is kept or freed: a retry waiting for it may go on. */
  const settleHere = (request: FastifyRequest) => {
    const idempotency = request.idempotency;
    if (idempotency?.mode !== 'first') return;
    const id = idOf(idempotency.scope, idempotency.key);
    const running = runningHere.get(id);
    if (running?.request !== request) return;
    runningHere.delete(id);
    running.settle();
  };
  app.addHook('onRequest', (_request, _reply, done) => inRequestWork(done));
  app.decorateRequest('idempotency', null);
  app.decorateRequest('recordIdempotentUpload', function (this: FastifyRequest, bodyDigest: string) {
    return recordFingerprint(db, this, bodyDigest);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'DELETE') return;
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || !request.url.startsWith('/api/')) return;
    if (key.length === 0 || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) throw new Refusal('BAD_IDEMPOTENCY_KEY');
    const scope = request.auth?.user.id ?? 'anonymous';
    const fingerprint = isMultipart(request)
      ? null
      : fingerprintOf(request, digest(JSON.stringify(request.body ?? null)));
    return claim(request, reply, scope, key, fingerprint, true);
  });

  /** Claims the key for this request (it runs), or answers with the kept answer, or refuses. */
  async function claim(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    key: string,
    fingerprint: string | null,
    mayEndStalled: boolean,
  ): Promise<unknown> {
    const path = request.url;
    const claimed = randomUUID();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        scope,
        key,
        method: request.method,
        path,
        fingerprint,
        status: 'running',
        claim: claimed,
        instance,
        locked_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`,
        expires_at: sql<Date>`now() + make_interval(hours => ${KEPT_HOURS})`,
      })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return runFirst(request, scope, key, claimed, fingerprint);

    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    // Freed since the insert met it (its request refused, or ended): claimed again, for this request.
    if (!existing) return claim(request, reply, scope, key, fingerprint, mayEndStalled);
    if (existing.method !== request.method || existing.path !== path)
      throw new Refusal('IDEMPOTENCY_KEY_REUSED', { key });
    if (existing.status === 'running') {
      const takenOver = await db
        .updateTable('idempotency_keys')
        .set({
          locked_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`,
          fingerprint,
          instance,
          claim: claimed,
        })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('status', '=', 'running')
        .where((eb) =>
          eb.or([eb('locked_until', '<', sql<Date>`now()`), ranByAnInstanceGone(eb.ref('instance'), instance)]),
        )
        .executeTakeFirst();
      if (Number(takenOver.numUpdatedRows) === 1) return runFirst(request, scope, key, claimed, fingerprint);
      const first = runningHere.get(idOf(scope, key));
      if (mayEndStalled && first && (await bodyStalled(first.request.raw))) {
        // The client sends the key again: it gave up on the first request, whose body stopped coming (a connection
        // the network left hanging, which would hold the key until the server's timeouts). Nothing of it can be
        // applied before its body ends: it is ended, and once its key is freed this request runs. A first request
        // whose body still comes is not ended: the same change sent twice at once (two tabs sending one queue) is
        // told 409, not cut off.
        first.request.raw.destroy();
        await Promise.race([first.settled, new Promise((resolve) => setTimeout(resolve, SUPERSEDE_WAIT_MS))]);
        return claim(request, reply, scope, key, fingerprint, false);
      }
      // Freed or answered between the read and the takeover (its request ended meanwhile): looked at again.
      if (!(await isRunning(scope, key))) return claim(request, reply, scope, key, fingerprint, mayEndStalled);
      throw new Refusal('IDEMPOTENCY_KEY_IN_PROGRESS', { key });
    }
    // Applied, its answer not kept yet: kept soon while its request still runs, else never (its server stopped).
    if (existing.status === 'applied' && (await appliedStillRunning(scope, key)))
      throw new Refusal('IDEMPOTENCY_KEY_IN_PROGRESS', { key });
    // A multipart body is read here to be compared: the route must not run (its checks would now refuse).
    const replayed = fingerprint ?? fingerprintOf(request, await digestMultipart(request));
    // An upload applied before its parts were recorded has nothing to compare with: its key was applied all the same.
    const unrecorded = existing.status === 'applied' && existing.fingerprint === null;
    if (!unrecorded && existing.fingerprint !== replayed) throw new Refusal('IDEMPOTENCY_KEY_REUSED', { key });
    if (existing.response_body === null) throw new Refusal('ALREADY_APPLIED', { key });
    const stored: StoredAnswer = {
      status: existing.response_status ?? 200,
      headers: existing.response_headers ?? {},
      body: existing.response_body,
    };
    request.idempotency = { scope, key, claim: existing.claim ?? '', mode: 'replay', fingerprint: replayed };
    return sendStoredAnswer(reply, stored);
  }

  async function isRunning(scope: string, key: string) {
    const row = await db
      .selectFrom('idempotency_keys')
      .select('status')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.status === 'running' || row?.status === 'applied';
  }

  /** Whether the request that applied a key still runs: here, or on another instance alive within its lease. */
  async function appliedStillRunning(scope: string, key: string) {
    if (runningHere.has(idOf(scope, key))) return true;
    const running = await db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('instance', '<>', instance)
      .where('locked_until', '>', sql<Date>`now()`)
      .where((eb) => eb.not(ranByAnInstanceGone(eb.ref('instance'), instance)))
      .executeTakeFirst();
    return running !== undefined;
  }

  // A request that ended without its answer being kept or freed (its client gone before onSend) lets a waiting
  // retry look again: the key then goes by its lease.
  app.addHook('onResponse', async (request) => settleHere(request));

  app.addHook('onSend', async (request, reply, payload) => {
    const idempotency = request.idempotency;
    if (!idempotency || idempotency.mode !== 'first') return payload;
    // A key whose work was applied is never freed: a retry must learn it was applied, not apply it again.
    const forget = () => {
      clearInterval(idempotency.renewal);
      idempotency.endWork?.();
      return db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', idempotency.scope)
        .where('key', '=', idempotency.key)
        .where('claim', '=', idempotency.claim)
        .where('status', '=', 'running')
        .execute()
        .finally(() => settleHere(request));
    };
    if (reply.statusCode >= 400) {
      // With the database away the key cannot be freed now: its lease runs out and a retry takes over then.
      await forget().catch(() => undefined);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const keep = (body: Uint8Array) => {
      clearInterval(idempotency.renewal);
      idempotency.endWork?.();
      return db
        .updateTable('idempotency_keys')
        .set({
          status: 'done',
          response_status: reply.statusCode,
          response_headers: JSON.stringify(headers),
          response_body: body,
        })
        .where('scope', '=', idempotency.scope)
        .where('key', '=', idempotency.key)
        .where('claim', '=', idempotency.claim)
        .execute()
        .finally(() => settleHere(request));
    };
    if (payload instanceof Readable) {
      // The answer is read from its source and kept whether or not the client stays to the end: a client whose
      // connection broke in the middle sends the key again and must get this answer, not run the work twice (nor
      // wait for the key's lock). The client's copy ends once the whole answer is kept, so a replay sent right
      // after the end finds it instead of a key still running.
      const chunks: Buffer[] = [];
      const toClient = new PassThrough();
      const endClient = () => {
        if (!toClient.destroyed) toClient.end();
      };
      payload.on('data', (chunk: Buffer | string) => {
        const bytes = Buffer.from(chunk);
        chunks.push(bytes);
        if (!toClient.destroyed) toClient.write(bytes);
      });
      payload.on('end', () => {
        const body = Buffer.concat(chunks);
        // A stream the server failed (its disk full, its database away) is not this key's answer: a retry runs again.
        const settled = endedByServerFailure(streamedEvents(body)) ? forget() : keep(body);
        settled.then(endClient, () => forget().then(endClient, endClient));
      });
      payload.on('error', (error) => {
        // Not forgotten now (the database away), the key's lease runs out and a retry takes over then.
        void forget().catch(() => undefined);
        toClient.destroy(error);
      });
      return toClient;
    }
    // An answer that could not be kept (the database gone since the work) is still the work's answer: the client
    // learns it was applied. A replay then finds the key applied (its work marked it) or running until its lease ends.
    await keep(
      payload === null || payload === undefined ? new Uint8Array() : Buffer.from(payload as string | Buffer),
    ).catch(() => undefined);
    return payload;
  });
}

/** The events of an NDJSON answer (lines that are not events are left out). */
function streamedEvents(body: Buffer): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const line of body.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line) as StreamEvent);
    } catch {
      // Not an event: the answer is kept as it is.
    }
  }
  return events;
}

/**
 * Whether a request's body stopped coming: not all of it arrived, and no byte came for STALLED_BODY_MS while none
 * waited to be read (a body the server reads slowly, behind a lock or the checking workers, is not stalled).
 */
async function bodyStalled(raw: IncomingMessage): Promise<boolean> {
  for (let look = 1; ; look++) {
    if (raw.complete || !raw.socket) return false;
    const before = raw.socket.bytesRead;
    const asked = performance.now();
    await new Promise((resolve) => setTimeout(resolve, STALLED_BODY_MS));
    // Bytes the kernel holds are read in the poll phase, after the timers: let it run once before looking.
    await new Promise((resolve) => setImmediate(resolve));
    if (raw.complete || !raw.socket) return false;
    const waiting = raw.readableLength + raw.socket.readableLength;
    if (raw.socket.bytesRead !== before || waiting > 0) return false;
    // A statement of the embedded database holding the thread held the timer too: the body had no fair second,
    // and is given a few more before it is taken for stalled all the same.
    if (performance.now() - asked < STALLED_BODY_MS * 1.25 || look === STALLED_LOOKS) return true;
  }
}

/**
 * The key's request ran on another instance that is no longer alive. Never this one: it knows it is alive, even when
 * its heartbeat is late (a long write holding the embedded database's one session).
 */
function ranByAnInstanceGone(keyInstance: Expression<string | null>, thisInstance: string) {
  return sql<boolean>`(${keyInstance} is not null and ${keyInstance} <> ${thisInstance} and not exists (
    select 1 from server_instances where server_instances.id = ${keyInstance} and server_instances.alive_until > now()
  ))`;
}

/** Keeps a running request's key claimed while it works (the timer never holds the process open). */
function renewLease(db: Kysely<Schema>, { scope, key, claim }: KeyClaim): NodeJS.Timeout {
  // One renewal at a time: one waiting (for the key's row, locked by the commit of its work) is not joined by more.
  let renewing = false;
  const renewal = setInterval(() => {
    if (renewing) return;
    renewing = true;
    void db
      .updateTable('idempotency_keys')
      .set({ locked_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('claim', '=', claim)
      .where('status', 'in', ['running', 'applied'])
      .execute()
      // The lease lasts several renewals: one missed is made good by the next.
      .catch(() => undefined)
      .finally(() => (renewing = false));
  }, RENEW_EVERY_MS);
  renewal.unref();
  return renewal;
}

/** Called once the first multipart request with a key has read its parts: records what they were. */
async function recordFingerprint(db: Kysely<Schema>, request: FastifyRequest, bodyDigest: string) {
  const idempotency = request.idempotency;
  if (!idempotency || idempotency.mode !== 'first') return;
  const fingerprint = fingerprintOf(request, bodyDigest);
  await db
    .updateTable('idempotency_keys')
    .set({ fingerprint })
    .where('scope', '=', idempotency.scope)
    .where('key', '=', idempotency.key)
    .where('claim', '=', idempotency.claim)
    .execute();
}

/**
 * The digest of a multipart body's parts, in order (boundaries differ between sends of the same form). Files are
 * hashed as they stream, never held: a replayed upload is as large as the first one was, beyond the plugin's
 * default 1 MB.
 */
async function digestMultipart(request: FastifyRequest): Promise<string> {
  const digest = digestParts();
  try {
    for await (const part of formParts(request, { limits: { fileSize: Infinity } })) {
      if (part.type === 'file') {
        const file = digest.fileStream(part.fieldname, part.filename || 'upload');
        for await (const chunk of part.file) file.update(chunk as Buffer);
        file.end();
      } else digest.field(part.fieldname, String(part.value));
    }
  } catch (error) {
    throw multipartFailure(error);
  }
  return digest.done();
}

/** The digest of a form's parts in order; a file may be given whole or fed as it streams. */
export function digestParts() {
  const hash = createHash('sha256');
  const fileStream = (name: string, fileName: string) => {
    hash.update(`file\u0000${name}\u0000${fileName}\u0000`);
    return { update: (bytes: Uint8Array) => hash.update(bytes), end: () => hash.update('\u0000') };
  };
  return {
    field: (name: string, value: string) => hash.update(`field\u0000${name}\u0000${value}\u0000`),
    file: (name: string, fileName: string, bytes: Uint8Array) => {
      const file = fileStream(name, fileName);
      file.update(bytes);
      file.end();
    },
    fileStream,
    done: () => hash.digest('hex'),
  };
}

/**
 * Drops the answers kept past their time, remembering their keys as applied for REMEMBERED_DAYS; forgets keys
 * remembered that long, and keys whose request never ended.
 */
export async function forgetExpiredKeys(db: Kysely<Schema>) {
  await db
    .updateTable('idempotency_keys')
    .set({
      status: 'done',
      response_body: null,
      response_headers: null,
      expires_at: sql<Date>`now() + make_interval(days => ${REMEMBERED_DAYS})`,
    })
    .where('expires_at', '<', sql<Date>`now()`)
    .where((eb) =>
      eb.or([eb.and([eb('status', '=', 'done'), eb('response_body', 'is not', null)]), eb('status', '=', 'applied')]),
    )
    .execute();
  await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}
