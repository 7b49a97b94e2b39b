import { OWNER_HEADER, ownerHeaderValue } from '@/contract/changeOwner';
import { RUNNING_BUILD } from '@/lib/build';
import { endedByServerFailure, type StreamEvent, type StreamProblem } from '@/domain/streaming/events';
import { backoffMs, stillWaiting } from './backoff';
import { offlineDb, SIGNED_IN_SETTING, type TerrainDatabase } from './db';
import { HeldResources } from './heldResources';
import { holdSends, isHeld, liftSendHold, readSendHold } from './sendHold';
import type { OutboxError, OutboxItem, OutboxKind, OutboxOutcome, StoredRequest } from './outboxTypes';
import { isStorageFull } from './storageErrors';
import { sizeOf, toFetchBody, unreadableFile } from './storedRequest';
import { fetchWithUploadProgress } from './uploadProgress';

/**
 * The one way the interface changes anything on the server. A change is written to IndexedDB first, then
 * sent; when the network or the server fails it stays queued and is sent again later with the same
 * Idempotency-Key, so the server applies it exactly once. Changes to one resource are sent in order; a
 * refused one (4xx) waits for the user (retry, edit or discard) and holds back later changes to its resource.
 * While the server cannot be reached, sends are held with a growing delay shared by every outbox of the device.
 */
export interface OutboxOptions {
  db?: TerrainDatabase;
  fetch?: typeof fetch;
  now?: () => number;
  /** Whether the device has a network at all (`navigator.onLine`). */
  online?: () => boolean;
  /** Base of the API paths. */
  apiBase?: string;
  /** Told after each send whether the server answered (any status) or could not be reached. */
  onReachability?: (reachable: boolean) => void;
  /** Told when the server answers that the session is gone (the page then asks the person to sign in again). */
  onSignedOut?: (path: string) => void;
  /** The login signed in on this device now; by default the one the page recorded (`SIGNED_IN_SETTING`). */
  signedIn?: () => Promise<string | null>;
  /** Told once a change is kept on the device (the page asks the browser to keep its storage). */
  onQueued?: () => void;
  /**
   * Asked after a change could not be sent at all: whether the server answers another request meanwhile. When it
   * does, the change's own sending failed (a body the network path refuses, a file the browser can no longer read):
   * it waits, backing off, and the others go on instead of all waiting behind it. Without it, any such failure
   * counts as the server being out of reach.
   */
  serverAnswers?: () => Promise<boolean>;
  /** Whether a file kept with a change can still be read (by default, its first byte is read). */
  fileReadable?: (blob: Blob) => Promise<boolean>;
}

/** Statuses of a captive portal's page asking to sign in to the network (with HTML: the API answers JSON). */
const PORTAL_STATUSES = new Set([401, 403, 407]);

/** A captive portal's or a proxy's page answering in the API's place: a redirect, or HTML (the API answers JSON). */
const isStandIn = (response: Response) =>
  response.redirected || /text\/html/i.test(response.headers.get('Content-Type') ?? '');

/** Whether a change may be sent in `who`'s session: theirs, or one kept before owners were recorded. */
const sentBy = (item: Pick<OutboxItem, 'owner'>, who: string | null) => item.owner === undefined || item.owner === who;

/** Whether the server answers a small request (any status) rather than the service worker's offline stand-in. */
export function serverAnswersAt(
  apiBase = '/api/v1',
  doFetch: typeof fetch = (input, init) => globalThis.fetch(input, init),
) {
  return async (): Promise<boolean> => {
    try {
      const response = await doFetch(`${apiBase}/me`, { credentials: 'same-origin', cache: 'no-store' });
      // A captive portal answers too, with its page: that is not the server.
      return response.headers.get('X-Terrain-Offline') !== '1' && !isStandIn(response);
    } catch {
      return false;
    }
  };
}

export interface Submission {
  kind: OutboxKind;
  summary: Record<string, string>;
  resource: string;
  request: StoredRequest;
  streamed?: boolean;
  input?: unknown;
}

export interface SubmitOptions {
  /** Events of a streamed answer, while this page sends it. */
  onEvent?: (event: StreamEvent) => void;
  /** Bytes of the request sent so far, while this page sends it (large uploads show a progress bar). */
  onUploadProgress?: (sent: number, total: number) => void;
  /**
   * A refusal of the first, immediate attempt goes back to the form that is still on screen, and the change
   * leaves the outbox, unless this says to keep it (asked at the refusal when a function: `useOutboxSubmit` keeps
   * it once the form has left the screen). Refusals met later, in the background, stay for the user to deal with.
   */
  keepOnRefusal?: boolean | (() => boolean);
  /**
   * The pending change this one replaces (its form was reopened to edit it): this one takes its place, in one step,
   * so it neither holds this one back nor is lost if the page dies in between, and what was made after it still
   * follows.
   */
  replaces?: number;
}

const DONE_KEPT_MS = 24 * 60 * 60 * 1000;
/** Sends answered with the server's internal error after which a change needs attention instead of waiting. */
const INTERNAL_ERRORS_TRIED = 5;
const DEVICE_FULL: OutboxError = { status: 0, code: 'DEVICE_FULL', params: {} };
const CHANGE_SENT_MEANWHILE: OutboxError = { status: 0, code: 'CHANGE_SENT_MEANWHILE', params: {} };
const DEVICE_STORAGE_FAILED: OutboxError = { status: 0, code: 'DEVICE_STORAGE_FAILED', params: {} };
class ReplacedChangeSent extends Error {}

const newKey = () => globalThis.crypto.randomUUID();

export function createOutbox(options: OutboxOptions = {}) {
  const db = options.db ?? offlineDb;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const online = options.online ?? (() => (globalThis.navigator as Navigator | undefined)?.onLine ?? true);
  const apiBase = options.apiBase ?? '/api/v1';
  const signedIn =
    options.signedIn ??
    (async () => ((await db.settings.get(SIGNED_IN_SETTING))?.value as string | null | undefined) ?? null);
  const listeners = new Map<number, (event: StreamEvent) => void>();
  const uploadListeners = new Map<number, (sent: number, total: number) => void>();
  const changeListeners = new Set<() => void>();
  let chain: Promise<unknown> = Promise.resolve();

  /** One pass at a time across tabs and the service worker (Web Locks), or in this context without them. */
  function exclusively<T>(work: () => Promise<T>): Promise<T> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (locks) return locks.request('terrain-outbox', work) as Promise<T>;
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  }

  const notify = () => changeListeners.forEach((listener) => listener());

  async function enqueue(submission: Submission, replaces?: number): Promise<number> {
    const item: OutboxItem = {
      idempotencyKey: newKey(),
      kind: submission.kind,
      summary: submission.summary,
      resource: submission.resource,
      request: submission.request,
      streamed: submission.streamed ?? false,
      createdAt: now(),
      attempts: 0,
      nextAttemptAt: 0,
      status: 'queued',
      size: sizeOf(submission.request),
      input: submission.input,
      owner: (await signedIn()) ?? undefined,
      build: RUNNING_BUILD,
    };
    const id = await db.transaction('rw', db.outbox, async () => {
      if (replaces !== undefined) {
        // Only a refused change is edited. One retried since its form was reopened (another tab, the address
        // opened again) may be on its way or applied: deleting it would hide it, and this one would apply it twice.
        if ((await db.outbox.get(replaces))?.status !== 'needs-attention') throw new ReplacedChangeSent();
        // In its place (its id, the queue's order): the changes made after it still wait behind it.
        return (await db.outbox.put({ ...item, id: replaces })) as number;
      }
      return (await db.outbox.add(item)) as number;
    });
    notify();
    options.onQueued?.();
    return id;
  }

  type Attempt =
    | { kind: 'applied'; result: unknown }
    /** `byServer`: the server's own answer to this key, which tells that no earlier sending of it was applied. */
    | { kind: 'refused'; error: OutboxError; byServer: boolean }
    | { kind: 'retry-later'; error: OutboxError; mayHaveArrived?: boolean }
    | { kind: 'unreachable'; mayHaveArrived: boolean }
    | { kind: 'signed-out' }
    | { kind: 'not-theirs' };

  async function readStream(
    response: Response,
    onEvent?: (event: StreamEvent) => void,
  ): Promise<{ result?: unknown; problems: StreamProblem[]; serverFailed: boolean }> {
    const text = response.body ? await readLines(response.body, onEvent) : '';
    const events = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as StreamEvent);
    return {
      result: events.find((event) => event.type === 'result')?.result,
      problems: events.flatMap((event) => (event.type === 'error' ? [event.result] : [])),
      serverFailed: endedByServerFailure(events),
    };
  }

  async function readLines(body: ReadableStream<Uint8Array>, onEvent?: (event: StreamEvent) => void): Promise<string> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let all = '';
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      all += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') onEvent?.(JSON.parse(line) as StreamEvent);
    }
    return all;
  }

  async function attempt(item: OutboxItem): Promise<Attempt> {
    const { body, contentType } = toFetchBody(item.request.body);
    const progress = uploadListeners.get(item.id!);
    const send = progress && typeof XMLHttpRequest !== 'undefined' ? fetchWithUploadProgress(progress) : doFetch;
    let response: Response;
    try {
      response = await send(apiBase + item.request.path, {
        method: item.request.method,
        headers: {
          ...item.request.headers,
          ...(contentType ? { 'Content-Type': contentType } : {}),
          'Idempotency-Key': item.idempotencyKey,
          // The server refuses the change in another person's session (CHANGE_OF_ANOTHER_USER): the device's record
          // of who is signed in may lag behind the session cookie.
          ...(item.owner !== undefined ? { [OWNER_HEADER]: ownerHeaderValue(item.owner) } : {}),
        },
        body,
        credentials: 'same-origin',
      });
    } catch {
      options.onReachability?.(false);
      // With a network, the request may have reached the server and only its answer been lost.
      return { kind: 'unreachable', mayHaveArrived: online() };
    }
    // A captive portal or a proxy's page answering in the API's place (a redirect, a page of HTML) applied nothing:
    // the network is not through yet (a portal asking to sign in to the Wi-Fi answers 401, 403 or 407 as often as
    // 200). A proxy's other refusals (a body too large, a firewall's 400) are the change's own, read below.
    const standIn = isStandIn(response) && (response.ok || PORTAL_STATUSES.has(response.status));
    const offline = standIn || (response.status === 503 && response.headers.get('X-Terrain-Offline') === '1');
    options.onReachability?.(!offline);
    if (offline) return { kind: 'unreachable', mayHaveArrived: !standIn && online() };
    if (response.ok) {
      if (!item.streamed) {
        let text: string;
        try {
          text = await response.text();
        } catch {
          // Applied, its answer cut: sent again with its key, the server gives the kept answer, which the form and
          // the pending changes read (the lines loaded, the charters accepted) instead of none.
          return { kind: 'unreachable', mayHaveArrived: true };
        }
        return { kind: 'applied', result: text === '' ? null : safeJson(text) };
      }
      try {
        const stream = await readStream(response, listeners.get(item.id!));
        if (stream.result !== undefined && stream.problems.length === 0)
          return { kind: 'applied', result: stream.result };
        const error = {
          status: response.status,
          code: stream.problems[0]?.code ?? 'STREAM_ENDED_WITHOUT_RESULT',
          params: {},
          problems: stream.problems,
        };
        // The server failed it (its disk full, its database away) or another sending holds its key, not its
        // content: sent again later. Its work may have been applied before the failure: its key is kept.
        if (stream.serverFailed || error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS')
          return { kind: 'retry-later', error, mayHaveArrived: true };
        return { kind: 'refused', error, byServer: true };
      } catch {
        // The connection broke in the middle of the answer: the server may have applied it; the resend will tell.
        return { kind: 'unreachable', mayHaveArrived: true };
      }
    }
    const byServer = !isStandIn(response);
    const error = byServer
      ? errorOf(response.status, await response.text().catch(() => ''))
      : proxyError(response.status);
    if (error.code === 'CHANGE_OF_ANOTHER_USER') return { kind: 'not-theirs' };
    // Sent again long after it was applied (its answer lost then): applied, its answer no longer kept.
    if (error.code === 'ALREADY_APPLIED') return { kind: 'applied', result: null };
    if (response.status === 401) {
      if (error.code === 'NOT_AUTHENTICATED') options.onSignedOut?.(item.request.path);
      return { kind: 'signed-out' };
    }
    // 408: the server gave up waiting for the rest of an upload (nothing stored); the network, not the change, failed.
    const transient = response.status >= 500 || response.status === 429 || response.status === 408;
    // A gateway's failure (502, 504: the server behind the proxy broke off or was too slow to answer) came after the
    // request was passed on, perhaps whole: the server may be applying it. Its own failures (500, 503) applied nothing.
    const passedOn = response.status === 502 || response.status === 504;
    if (transient || error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS')
      return { kind: 'retry-later', error, mayHaveArrived: passedOn || error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS' };
    // A key used before for another change tells nothing of whether this one arrived.
    return { kind: 'refused', error, byServer: byServer && error.code !== 'IDEMPOTENCY_KEY_REUSED' };
  }

  /**
   * Marks a listed change as being sent, unless it left the queue since the pass listed it (cancelled, discarded or
   * replaced by an edit meanwhile): checked and marked in one transaction, so a cancel is either seen or refused.
   */
  function claim(item: OutboxItem): Promise<boolean> {
    return db.transaction('rw', db.outbox, async () => {
      if ((await db.outbox.get(item.id!))?.status !== 'queued') return false;
      await db.outbox.update(item.id!, { status: 'sending', attempts: item.attempts + 1 });
      return true;
    });
  }

  /**
   * Sends what is due, oldest first, keeping the order within each resource, and an application's data after its
   * configuration and references (heldResources.ts). Nothing is sent while sends are held
   * (the server was out of reach), unless `despiteHold` (a change the user has just made is tried at once) or
   * `liftHold` (the server is known to answer again: the hold ends, in the pass, so a failed pass running meanwhile
   * cannot put it back before this one reads it).
   */
  async function process({
    despiteHold = false,
    liftHold = false,
  }: { despiteHold?: boolean; liftHold?: boolean } = {}): Promise<void> {
    await exclusively(async () => {
      // Left being sent by a page closed or reloaded meanwhile: the server may have applied it.
      await db.outbox.where('status').equals('sending').modify({ status: 'queued', mayHaveArrived: true });
      await db.outbox
        .where('status')
        .equals('done')
        .filter((item) => (item.doneAt ?? 0) < now() - DONE_KEPT_MS)
        .delete();
      if (liftHold) await liftSendHold(db);
      const hold = await readSendHold(db);
      if (!despiteHold && isHeld(hold, now(), online())) return;
      const items = await db.outbox.where('status').anyOf('queued', 'needs-attention').sortBy('id');
      let answered = hold === undefined;
      const held = new HeldResources();
      for (const item of items) {
        // Someone else's change waits for them to sign in again, holding nothing of this user's back. Asked again
        // for each change: someone may sign out, and another in, while a long upload of the pass is sent.
        if (!sentBy(item, await signedIn())) continue;
        if (item.status === 'needs-attention' || held.holds(item.resource)) {
          held.hold(item.resource);
          continue;
        }
        if (stillWaiting(item.nextAttemptAt, now())) {
          held.hold(item.resource);
          continue;
        }
        if (!(await claim(item))) continue;
        notify();
        const outcome = await attempt(item);
        // An answer lifts the hold; a 401 does not: sending again before the user signs in would meet another.
        if (!answered && outcome.kind !== 'unreachable' && outcome.kind !== 'signed-out') {
          answered = true;
          await liftSendHold(db);
        }
        if (outcome.kind === 'not-theirs') {
          // The session is someone else's: the change waits, untouched, for its owner; the pass ends, since the
          // device's record of who is signed in is behind.
          await db.outbox.update(item.id!, { status: 'queued', attempts: item.attempts });
          notify();
          return;
        }
        if (outcome.kind === 'applied') {
          await db.outbox.update(item.id!, {
            status: 'done',
            result: outcome.result,
            doneAt: now(),
            lastError: undefined,
          });
        } else if (outcome.kind === 'refused') {
          await db.outbox.update(item.id!, {
            status: 'needs-attention',
            lastError: outcome.error,
            mayHaveArrived: outcome.byServer ? false : item.mayHaveArrived,
          });
          held.hold(item.resource);
        } else if (outcome.kind === 'unreachable' && online() && (await options.serverAnswers?.())) {
          options.onReachability?.(true);
          // A file the browser can no longer read (its storage cleared under it) will never go: waiting for the
          // network would say the wrong thing for ever. It needs the person: choose the file again, or discard.
          const unreadable = await unreadableFile(item.request.body, options.fileReadable);
          if (unreadable !== undefined) {
            await db.outbox.update(item.id!, {
              status: 'needs-attention',
              lastError: { status: 0, code: 'FILE_UNREADABLE', params: { fileName: unreadable } },
              mayHaveArrived: item.mayHaveArrived || outcome.mayHaveArrived,
            });
            held.hold(item.resource);
            notify();
            continue;
          }
          await db.outbox.update(item.id!, {
            status: 'queued',
            lastError: { status: 0, code: 'NETWORK_ERROR', params: {} },
            nextAttemptAt: now() + backoffMs(item.attempts + 1),
            mayHaveArrived: item.mayHaveArrived || outcome.mayHaveArrived,
          });
          held.hold(item.resource);
        } else if (
          outcome.kind === 'retry-later' &&
          outcome.error.code === 'INTERNAL_ERROR' &&
          item.attempts + 1 >= INTERNAL_ERRORS_TRIED
        ) {
          // A failure of the server that comes back each time (a bug this change meets) is not waited out for ever.
          await db.outbox.update(item.id!, { status: 'needs-attention', lastError: outcome.error });
          held.hold(item.resource);
        } else if (outcome.kind === 'retry-later') {
          await db.outbox.update(item.id!, {
            status: 'queued',
            lastError: outcome.error,
            nextAttemptAt: now() + backoffMs(item.attempts + 1),
            mayHaveArrived: item.mayHaveArrived || outcome.mayHaveArrived === true,
          });
          held.hold(item.resource);
        } else {
          // Offline, or signed out: nothing else can go now, and nothing will until the hold ends (or the server
          // is heard from, or the user signs in). The hold counts the failure, not the item: it is no worse.
          await holdSends(db, now(), !online());
          await db.outbox.update(item.id!, {
            status: 'queued',
            attempts: item.attempts,
            mayHaveArrived: item.mayHaveArrived || (outcome.kind === 'unreachable' && outcome.mayHaveArrived),
            lastError:
              outcome.kind === 'unreachable'
                ? { status: 0, code: 'NETWORK_ERROR', params: {} }
                : { status: 401, code: 'NOT_AUTHENTICATED', params: {} },
          });
          notify();
          return;
        }
        notify();
      }
    });
  }

  /** Records a change and sends it at once when possible. */
  async function submit(submission: Submission, submitOptions: SubmitOptions = {}): Promise<OutboxOutcome> {
    let id: number;
    try {
      id = await enqueue(submission, submitOptions.replaces);
    } catch (error) {
      // The transaction wrote nothing: the form keeps what was typed, and the person learns at once why.
      if (isStorageFull(error)) return { status: 'needs-attention', error: DEVICE_FULL };
      // The form keeps what was typed; the change it edited stays in the pending changes as it is.
      if (error instanceof ReplacedChangeSent) return { status: 'needs-attention', error: CHANGE_SENT_MEANWHILE };
      // Any other failure of the device's storage (a file it cannot write, a database closed under it) left the
      // form waiting on "Sending…" for good: the person is told, and the form keeps what was typed.
      return { status: 'needs-attention', error: DEVICE_STORAGE_FAILED };
    }
    if (submitOptions.onEvent) listeners.set(id, submitOptions.onEvent);
    if (submitOptions.onUploadProgress) uploadListeners.set(id, submitOptions.onUploadProgress);
    try {
      // One request per change the user makes: it may find the server back before the hold ends.
      await process({ despiteHold: true });
    } finally {
      listeners.delete(id);
      uploadListeners.delete(id);
    }
    const item = await db.outbox.get(id);
    if (item?.status === 'done') return { status: 'done', result: item.result };
    if (item?.status === 'needs-attention') {
      const keep = submitOptions.keepOnRefusal;
      if (!(typeof keep === 'function' ? keep() : keep)) await db.outbox.delete(id);
      notify();
      return { status: 'needs-attention', error: item.lastError! };
    }
    return { status: 'queued', id };
  }

  /**
   * Whether `id` still needs attention, and then `change` done to it in the same transaction: a second click, or
   * another tab, may have retried it since the button was shown, and it may be on its way or applied by now.
   */
  function whileRefused(id: number, change: (item: OutboxItem) => Promise<unknown>): Promise<boolean> {
    return db.transaction('rw', db.outbox, async () => {
      const item = await db.outbox.get(id);
      if (item?.status !== 'needs-attention') return false;
      await change(item);
      return true;
    });
  }

  /**
   * Sends a refused change again, as a new request: the refusal applied nothing. A new key only for a change still
   * refused: given to one already being sent again, whose answer may be lost, it would be applied a second time. Nor
   * for a change an earlier sending may have applied (its answer lost, then stopped by something other than the
   * server's answer to its key: a proxy, a file no longer readable, a failure that kept coming back): sent again
   * with its key, the server answers what it applied, or runs it when it did not.
   */
  async function retry(id: number) {
    const retried = await whileRefused(id, (item) =>
      db.outbox.update(id, {
        status: 'queued',
        ...(item.mayHaveArrived ? {} : { idempotencyKey: newKey() }),
        nextAttemptAt: 0,
        attempts: 0,
      }),
    );
    if (!retried) return;
    notify();
    await process({ despiteHold: true });
  }

  /** The server answered another call, the network came back or the user signed in: send at once. */
  function resume() {
    return process({ liftHold: true });
  }

  /**
   * Withdraws a change still waiting to be sent. Refused (false) once a pass has begun sending it: the server may
   * already be applying it. Safe during a pass, which checks each change again right before sending it.
   */
  async function cancel(id: number): Promise<boolean> {
    const cancelled = await db.transaction('rw', db.outbox, async () => {
      if ((await db.outbox.get(id))?.status !== 'queued') return false;
      await db.outbox.delete(id);
      return true;
    });
    notify();
    return cancelled;
  }

  /** Drops a refused change. False once it was retried meanwhile: it is then cancelled, if at all, as any other. */
  async function discard(id: number): Promise<boolean> {
    const discarded = await whileRefused(id, () => db.outbox.delete(id));
    notify();
    await process();
    return discarded;
  }

  return {
    submit,
    process,
    resume,
    retry,
    cancel,
    discard,
    enqueue,
    /**
     * Runs `work` once no pass is sending, in any tab or the service worker, and before the next one starts: a page
     * reloaded into a new version then never cuts a send short.
     */
    betweenSends: <T>(work: () => Promise<T>) => exclusively(work),
    /** Every change not yet applied, and those applied in the last day, in order. */
    items: () => db.outbox.orderBy('id').toArray(),
    pendingCount: () => db.outbox.where('status').anyOf('queued', 'sending', 'needs-attention').count(),
    onChange(listener: () => void) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    /** The earliest time a queued change is due again (not before sends are held until), for the page's timer. */
    nextDueAt: async () => {
      // Only what a pass would send, walked as a pass walks: neither someone else's changes nor those a refused or
      // still waiting change before them holds back, which would otherwise make a pass due every moment (and the
      // service worker's sync fail for ever).
      const who = await signedIn();
      const waiting = await db.outbox.where('status').anyOf('queued', 'needs-attention').sortBy('id');
      const at = now();
      const waitEnd = (until: number) => (stillWaiting(until, at) ? until : Math.min(until, at));
      const held = new HeldResources();
      const due: number[] = [];
      for (const item of waiting) {
        if (!sentBy(item, who)) continue;
        // What follows a change of its resource goes in the pass that sends it, not before.
        if (item.status === 'queued' && !held.holds(item.resource)) due.push(waitEnd(item.nextAttemptAt));
        held.hold(item.resource);
      }
      if (due.length === 0) return undefined;
      const heldUntil = waitEnd((await readSendHold(db))?.until ?? 0);
      return Math.max(heldUntil, Math.min(...due));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A failure or refusal answered by a proxy in front of the server (nginx's page for a 502 while an instance restarts,
 * for a 413 past its body limit): its HTML is no reason to show, and its 413 means what the server's own would.
 */
function proxyError(status: number): OutboxError {
  return { status, code: status === 413 ? 'PAYLOAD_TOO_LARGE' : '', params: {} };
}

function errorOf(status: number, text: string): OutboxError {
  const body = safeJson(text) as
    { code?: string; message?: string; params?: Record<string, unknown>; errors?: OutboxError['lineErrors'] } | string;
  if (body && typeof body === 'object') {
    return {
      status,
      code: body.code ?? body.message ?? '',
      params: body.params ?? {},
      ...(Array.isArray(body.errors) ? { lineErrors: body.errors } : {}),
    };
  }
  return { status, code: typeof body === 'string' ? body.replace(/^"|"$/g, '') : '', params: {} };
}
