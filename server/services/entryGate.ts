import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Keeps the readers of an entry out while a large write or its undo is under way on the embedded database
 * (entryWrite.ts): such a write commits batch after batch, so that other users are answered in between, and
 * without the gate a reader would see part of an upload. Readers of other entries and applications go on.
 *
 * A request reads an entry over several statements (rights, a page and its count, an export's pages), so it holds
 * the entry from its first read until its answer is sent or dropped; a write waits for the requests reading the
 * entry, and requests coming after a waiting write wait for it (or a steady flow of readers would keep it out for
 * good). Writes of one entry go one at a time, in the order they asked. Work outside a request (jobs) waits for the
 * entry to be free but holds nothing. The gate lives in this process: the embedded database has no other.
 */
interface Request {
  /** The entries the request reads, released when its answer is done. */
  entries: Set<string>;
}

interface Gate {
  readers: Set<Request>;
  writing: boolean;
  writers: Array<{ request: Request | undefined; enter: () => void }>;
  /** Readers waiting for the writes before them. */
  waiting: Array<{ request: Request | undefined; enter: () => void }>;
}

const requests = new AsyncLocalStorage<Request>();
const gates = new Map<string, Gate>();

const keyOf = (applicationId: string, dataName: string) => `${applicationId}\u0000${dataName}`;

function gateOf(key: string): Gate {
  let gate = gates.get(key);
  if (!gate) {
    gate = { readers: new Set(), writing: false, writers: [], waiting: [] };
    gates.set(key, gate);
  }
  return gate;
}

/** Lets in the next write when nobody reads, or the readers waiting when no write is under way or asked for. */
function settle(key: string, gate: Gate) {
  if (gate.writing) return;
  if (gate.writers.length > 0) {
    if (gate.readers.size > 0) return;
    gate.writing = true;
    gate.writers.shift()!.enter();
    return;
  }
  for (const reader of gate.waiting.splice(0)) {
    if (reader.request) {
      gate.readers.add(reader.request);
      reader.request.entries.add(key);
    }
    reader.enter();
  }
  if (gate.readers.size === 0) gates.delete(key);
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
  if (request?.entries.has(key)) return;
  const gate = gates.get(key);
  if (!gate || (!gate.writing && gate.writers.length === 0)) {
    if (request) {
      gateOf(key).readers.add(request);
      request.entries.add(key);
    }
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

/**
 * Waits until the entry is the caller's alone to write (the entry's readers gone, earlier writes done) and answers
 * the function that lets others in again. A request that read the entry itself (its rights, a reference of its
 * own file) is not waited for: it no longer reads once it writes.
 */
export async function lockEntryForWrite(applicationId: string, dataName: string): Promise<() => void> {
  const key = keyOf(applicationId, dataName);
  const gate = gateOf(key);
  const request = requests.getStore();
  if (request?.entries.delete(key)) gate.readers.delete(request);
  await new Promise<void>((enter) => {
    gate.writers.push({ request, enter });
    settle(key, gate);
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    gate.writing = false;
    settle(key, gate);
  };
}

/** Runs a short write of an entry (a deletion) once no large write of it is under way, nor reader in the way. */
export async function whileWriting<T>(applicationId: string, dataName: string, write: () => Promise<T>): Promise<T> {
  const release = await lockEntryForWrite(applicationId, dataName);
  try {
    return await write();
  } finally {
    release();
  }
}
