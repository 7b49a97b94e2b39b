import { ApiError } from '@/lib/api/apiError';
import { saveFile } from '@/lib/saveFile';

/**
 * Downloads read by the page (to tell their progress, stop them, and show a refusal rather than save it) are
 * written to a file of the site's private file system as they arrive, and that file is handed to the browser's
 * download: a backup of gigabytes held in the tab's memory would end the tab on a tablet. See docs/decisions.md.
 */

/** The folder of the origin private file system that holds downloads while they arrive, and nothing else. */
export const DOWNLOAD_FOLDER = 'downloads';
/** Each temporary file is held by a lock of this name and its own: a file nobody holds was left by a closed page. */
const LOCK_PREFIX = 'terrain-download:';

export type DownloadTarget = 'disk' | 'memory';

export interface DeviceRoom {
  /** The browser writes files of the private file system from the page (`createWritable`). */
  writableFiles: boolean;
  /** The size the server announces, when it does. */
  expectedBytes?: number;
  /** What the browser still grants this site (`navigator.storage.estimate()`), when it says. */
  free?: number;
}

/** Where a download is kept while it arrives. */
export function downloadTarget({ writableFiles, expectedBytes, free }: DeviceRoom): DownloadTarget {
  // Older Safari has the private file system but writes its files from workers only: memory, as before.
  if (!writableFiles) return 'memory';
  // A file that cannot fit would fail part way, after a long wait; memory may still hold it, and did before.
  if (expectedBytes !== undefined && free !== undefined && expectedBytes > free) return 'memory';
  return 'disk';
}

const writableFiles = () =>
  typeof FileSystemFileHandle !== 'undefined' &&
  'createWritable' in FileSystemFileHandle.prototype &&
  typeof navigator.storage?.getDirectory === 'function' &&
  // Without locks a page could not tell a file being written by another tab from one left by a crash.
  'locks' in navigator;

interface Sink {
  write(chunk: Uint8Array<ArrayBuffer>): Promise<void>;
  /** The whole file, once the last chunk is written. */
  finish(): Promise<Blob>;
  /** Removes what is kept, once the browser has read the file or when the download fails. */
  discard(): Promise<void>;
}

function memorySink(type: string): Sink {
  let parts: Uint8Array<ArrayBuffer>[] = [];
  return {
    write: async (chunk) => void parts.push(chunk),
    finish: async () => new Blob(parts, { type }),
    discard: async () => void (parts = []),
  };
}

/** Holds a lock until the returned function is called. */
function holdLock(name: string): Promise<() => void> {
  return new Promise((acquired, failed) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    navigator.locks
      .request(name, () => {
        acquired(release);
        return held;
      })
      .catch(failed);
  });
}

/**
 * Removes a temporary file. Chromium frees a file that a writable stream held shortly after `abort()` resolves, not
 * when it does: meanwhile the removal is refused (`NoModificationAllowedError`) and is tried again. A file still
 * held after that is removed at the next start.
 */
async function removeFile(folder: FileSystemDirectoryHandle, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await folder.removeEntry(name);
    } catch (error) {
      if ((error as { name?: string } | null)?.name !== 'NoModificationAllowedError' || attempt === 10) return;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

const isQuotaError = (error: unknown) => (error as { name?: string } | null)?.name === 'QuotaExceededError';

/** A failure to write the file is the device's, not the network's: it is told as such. */
const storageError = (error: unknown) =>
  new ApiError(0, isQuotaError(error) ? 'DOWNLOAD_DEVICE_FULL' : 'DOWNLOAD_NOT_STORED');

async function diskSink(type: string): Promise<Sink> {
  const root = await navigator.storage.getDirectory();
  const folder = await root.getDirectoryHandle(DOWNLOAD_FOLDER, { create: true });
  // Two downloads at once, in one tab or two, never share a file.
  const name = `${Date.now().toString(36)}-${crypto.randomUUID()}`;
  // Taken before the file exists, so that no other page's clean-up ever sees the file unheld.
  const release = await holdLock(LOCK_PREFIX + name);
  const remove = () => removeFile(folder, name).finally(release);
  let writable: FileSystemWritableFileStream;
  let handle: FileSystemFileHandle;
  try {
    handle = await folder.getFileHandle(name, { create: true });
    writable = await handle.createWritable();
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    write: (chunk) =>
      writable.write(chunk).catch((error: unknown) => {
        throw storageError(error);
      }),
    async finish() {
      await writable.close().catch((error: unknown) => {
        throw storageError(error);
      });
      const file = await handle.getFile();
      // A slice names the type and still reads from the disk.
      return file.slice(0, file.size, type);
    },
    async discard() {
      await writable.abort().catch(() => undefined);
      await remove();
    },
  };
}

async function openSink(type: string, expectedBytes: number | undefined): Promise<Sink> {
  if (!writableFiles()) return memorySink(type);
  try {
    let free: number | undefined;
    if (expectedBytes !== undefined) {
      const { quota, usage } = await navigator.storage.estimate();
      if (quota !== undefined && usage !== undefined) free = quota - usage;
    }
    if (downloadTarget({ writableFiles: true, expectedBytes, free }) === 'memory') return memorySink(type);
    return await diskSink(type);
  } catch {
    // The file system refused before anything was written (a private window's SecurityError, a full device's
    // QuotaExceededError when the size was not known): memory, as before.
    return memorySink(type);
  }
}

export interface StreamedSave {
  fileName: string;
  type: string;
  /** The size the server announces: a download the device has no room for is kept in memory instead. */
  expectedBytes?: number;
  /** The signal the response was fetched with: stopping it stops the write. */
  signal?: AbortSignal;
  /** Each chunk once written, to tell the progress. */
  onChunk?(chunk: Uint8Array): void;
}

/**
 * The next chunk of an answer whose status and first bytes came: one that breaks off now was cut on its way (the
 * network dropped, or the server stopped it, the reader's rights or the data having changed), not unreachable.
 */
async function read(reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>, signal: AbortSignal | undefined) {
  try {
    return await reader.read();
  } catch (error) {
    throw signal?.aborted ? error : new ApiError(0, 'DOWNLOAD_CUT');
  }
}

/**
 * Writes a response body as it arrives and hands the file to the browser's download once it is whole. It rejects
 * with `DOWNLOAD_CUT` when the answer breaks off, the body's own error when the signal stops it, and
 * `DOWNLOAD_DEVICE_FULL` or `DOWNLOAD_NOT_STORED` when the device cannot write it: then nothing is saved and no
 * temporary file is left.
 */
export async function saveStreamed(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  { fileName, type, expectedBytes, signal, onChunk }: StreamedSave,
): Promise<void> {
  const reader = body.getReader();
  const sink = await openSink(type, expectedBytes);
  let file: Blob;
  try {
    for (let chunk = await read(reader, signal); !chunk.done; chunk = await read(reader, signal)) {
      await sink.write(chunk.value);
      onChunk?.(chunk.value);
    }
    file = await sink.finish();
    // Stopped after the last chunk: the page said it stopped, so nothing is saved.
    signal?.throwIfAborted();
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    await sink.discard();
    throw error;
  }
  saveFile(file, fileName, () => void sink.discard());
}

/**
 * Removes the temporary files that no page holds any more: left by a tab closed or a browser ended during a
 * download, or before its file was read. Downloads running in other tabs hold theirs and are left alone.
 */
export async function removeLeftDownloads(): Promise<void> {
  if (!writableFiles()) return;
  try {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle(DOWNLOAD_FOLDER).catch(() => null);
    if (!folder) return;
    // Listed before the locks are read: a file listed was locked before it was made, so a download starting
    // meanwhile is seen held.
    const names: string[] = [];
    // The lib this project compiles with lacks the handle's async iteration, which every browser here has.
    for await (const name of (folder as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
    const held = new Set(((await navigator.locks.query()).held ?? []).map((lock) => lock.name));
    // A browser's swap file beside a file being written bears its name and a suffix.
    for (const name of names) if (!held.has(LOCK_PREFIX + name.split('.')[0])) await removeFile(folder, name);
  } catch {
    // Nothing to clean, or no right to: the next start tries again.
  }
}
