import { AsyncLocalStorage } from 'node:async_hooks';
import { waitForTurn, type TurnQueue } from '../db/turnQueue.ts';

/**
 * Writes of an entry's rows go one at a time, in the order they asked; a large write on the embedded database
 * (entryWrite.ts) also keeps the entry's readers out while it or its undo is under way: it commits batch after
 * batch, so that other users are answered in between, and without the gate a reader would see part of an upload.
 * Readers of other entries and applications go on. Writes done in one transaction need not keep readers out.
 *
 * A request reads an entry over several statements (rights, a page and its count, an export's pages), so it holds
 * the entry from its first read until its answer is sent or dropped; a large write waits for the requests reading
 * the entry, and requests coming after it wait for it (or a steady flow of readers would keep it out for good).
 * Work outside a request (jobs) waits for the entry to be open but holds nothing. The gate lives in this process:
 * the embedded database has no other.
 */
interface Request {
  /** The entries the request reads, released when its answer is done. */
  entries: Set<string>;
}

interface Gate {
  readers: Set<Request>;
  /** A write holds the entry; `writers` wait for it, in order. */
  writing: boolean;
  writers: TurnQueue;
  /** The write holding the entry keeps readers out (or waits for those reading to finish). */
  closed: boolean;
  /** What the closing write waits for: the last reader gone. */
  readersGone?: () => void;
  /** Readers waiting for the entry to open. */
  waiting: Array<{ request: Request | undefined; enter: () => void }>;
}

/** A write's hold of its entry. */
export interface EntryLock {
  /** Keeps readers out from now until the release, once those reading have finished. */
  closeToReaders(): Promise<void>;
  /** Lets the next write in, and readers; once however often it is called. */
  release(): void;
  /**
   * Runs `work` as this write: its own reads of the entry go on while the entry is closed. A publication checks its
   * version against the entry's published rows once it holds the entry; waiting for itself, it never ended.
   */
  within<T>(work: () => Promise<T>): Promise<T>;
}

const requests = new AsyncLocalStorage<Request>();
/**
 * The entries the work under way writes (`EntryLock.within`), while their locks are held: work it started that
 * outlives the lock (a timer, a queued job) reads as anyone else does.
 */
const writes = new AsyncLocalStorage<ReadonlyArray<{ key: string; held: () => boolean }>>();
const gates = new Map<string, Gate>();

const keyOf = (applicationId: string, dataName: string) => `${applicationId}\u0000${dataName}`;

function gateOf(key: string): Gate {
  let gate = gates.get(key);
  if (!gate) {
    gate = { readers: new Set(), writing: false, writers: [], closed: false, waiting: [] };
    gates.set(key, gate);
  }
  return gate;
}

function hold(key: string, gate: Gate, request: Request | undefined) {
  if (!request) return;
  gate.readers.add(request);
  request.entries.add(key);
}

/** Lets the waiting readers in when the entry is open, tells a closing write when nobody reads, forgets idle gates. */
function settle(key: string, gate: Gate) {
  if (gate.closed) {
    if (gate.readers.size === 0) gate.readersGone?.();
    return;
  }
  for (const reader of gate.waiting.splice(0)) {
    hold(key, gate, reader.request);
    reader.enter();
  }
  if (gate.readers.size === 0 && !gate.writing) gates.delete(key);
}

/** Runs a request's handling; `release` is what the request's end calls to let go of what it read. */
export function inGatedRequest<T>(handle: (release: () => void) => T): T {
  const request: Request = { entries: new Set() };
  const release = () => {
    for (const key of request.entries) {
      const gate = gates.get(key);
      if (!gate) continue;
      gate.readers.delete(request);
      settle(key, gate);
    }
    request.entries.clear();
  };
  return requests.run(request, () => handle(release));
}

/** Waits until the entry may be read, and holds it for the rest of the request. */
export async function readEntry(applicationId: string, dataName: string): Promise<void> {
  const key = keyOf(applicationId, dataName);
  const request = requests.getStore();
  if (request?.entries.has(key) || writes.getStore()?.some((write) => write.key === key && write.held())) return;
  const gate = gates.get(key);
  if (!gate?.closed) {
    if (request) hold(key, gateOf(key), request);
    return;
  }
  await new Promise<void>((enter) => gate.waiting.push({ request, enter }));
}

/**
 * Runs `read` once the entry may be read, holding it only meanwhile: for work that reads an entry in passing (the
 * rows a file refers to), which must not keep writes of that entry waiting for the rest of its request.
 */
export function whileReading<T>(applicationId: string, dataName: string, read: () => Promise<T>): Promise<T> {
  return inGatedRequest(async (release) => {
    try {
      await readEntry(applicationId, dataName);
      return await read();
    } finally {
      release();
    }
  });
}

/** Writes of an entry waiting for an earlier one, in this process. */
export const entryWritersWaiting = (applicationId: string, dataName: string): number =>
  gates.get(keyOf(applicationId, dataName))?.writers.length ?? 0;

/** Waits until the earlier writes of the entry are done, and holds it. */
export async function lockEntryForWrite(
  applicationId: string,
  dataName: string,
  giveUp?: AbortSignal,
): Promise<EntryLock> {
  if (giveUp?.aborted) throw giveUp.reason;
  const key = keyOf(applicationId, dataName);
  const gate = gateOf(key);
  // Leaves the queue at once when `giveUp` is aborted (the upload failed).
  if (gate.writing) await waitForTurn(gate.writers, giveUp);
  gate.writing = true;
  let released = false;
  return {
    async closeToReaders() {
      // A request that read the entry itself (its rights, a reference of its own file) is not waited for: it no
      // longer reads once it writes.
      const request = requests.getStore();
      if (request?.entries.delete(key)) gate.readers.delete(request);
      gate.closed = true;
      if (gate.readers.size > 0) await new Promise<void>((gone) => (gate.readersGone = gone));
      gate.readersGone = undefined;
    },
    release() {
      if (released) return;
      released = true;
      gate.closed = false;
      gate.readersGone = undefined;
      const next = gate.writers.shift();
      if (next) next();
      else gate.writing = false;
      settle(key, gate);
    },
    within(work) {
      return writes.run([...(writes.getStore() ?? []), { key, held: () => !released }], work);
    },
  };
}

/** Runs a write of an entry done in one transaction (a deletion) once the earlier writes of it are done. */
export async function whileWriting<T>(applicationId: string, dataName: string, write: () => Promise<T>): Promise<T> {
  const lock = await lockEntryForWrite(applicationId, dataName);
  try {
    return await write();
  } finally {
    lock.release();
  }
}
