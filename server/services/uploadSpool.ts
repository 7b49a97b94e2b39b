import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ServerContext } from '../context.ts';
import type { StreamedUpload } from '../http/readUpload.ts';

/**
 * Where files being received (CSV uploads, backups being restored) are kept while they are read: in the instance's
 * own folder, emptied at its start (start.ts), since a file cut by a stop or a crash is never removed otherwise. The
 * system's temporary folder kept them for good, and is often memory.
 */
export const spoolFolder = (dataDir: string) => path.join(dataDir, 'spool');

/** What the check reads from the spool at a time. */
const READ_BYTES = 256 * 1024;
/**
 * The spool shares the embedded database's disk: every this many bytes, the upload asks for room as the database's
 * bulk writes do, so that it never eats into the reserve kept for sign-ins and the database's own log.
 */
const ROOM_STEP_BYTES = 8 * 1024 * 1024;

/**
 * An upload whose file is written to the spool as fast as its client sends it, while the check reads it from there
 * at its own pace. The writing of rows waits for the file's last byte (`arrival`): a write holds its entry (its
 * readers on the embedded database, its other writers on both engines, a connection on PostgreSQL), and must never
 * hold it for as long as a slow network takes to bring the file.
 */
export interface SpooledUpload extends StreamedUpload {
  /**
   * Resolves once the whole file is in the spool; refuses as the upload is refused (its bytes stopped coming, it is
   * too large, its client left), or once `giveUp` is aborted. Meanwhile the upload counts as waiting for its
   * client's bytes.
   */
  arrival(giveUp?: AbortSignal): Promise<void>;
  /** Removes the file; the part of the upload still arriving is left to the request's end. */
  remove(): Promise<void>;
  /** Where the file is, and its bytes so far (all of them once it has arrived): a backup is read from there. */
  readonly path: string;
  size(): number;
}

/**
 * Spools `upload`'s file. Nothing is read from the client before the check first asks for bytes: an upload waiting
 * for its lane stays unread (uploadLanes.ts).
 */
export async function spoolUpload(ctx: ServerContext, upload: StreamedUpload): Promise<SpooledUpload> {
  await mkdir(spoolFolder(ctx.config.dataDir), { recursive: true });
  const file = path.join(spoolFolder(ctx.config.dataDir), `upload-${randomUUID()}`);
  const handle = await open(file, 'w+');
  let written = 0;
  let arrived = false;
  let failure: { error: unknown } | undefined;
  let removed = false;
  let wake: (() => void) | undefined;
  let moved = new Promise<void>((resolve) => (wake = resolve));
  const tell = () => {
    wake?.();
    moved = new Promise<void>((resolve) => (wake = resolve));
  };
  // The handle is closed once the pump has ended and the file is removed, whichever comes last: the check reads
  // the spool after its last byte has come.
  let pumpEnded = false;
  const closeOnce = (() => {
    let closing: Promise<void> | undefined;
    return () => (closing ??= handle.close().catch(() => undefined));
  })();

  let pumping: Promise<void> | undefined;
  const pump = async () => {
    try {
      let roomFor = 0;
      for await (const chunk of upload.stream) {
        // Once removed (the upload refused), the rest is read to nowhere: the client can finish sending and read
        // the answer.
        if (removed) continue;
        if (written + chunk.byteLength > roomFor) {
          await ctx.room.require(ROOM_STEP_BYTES);
          roomFor = written + ROOM_STEP_BYTES;
        }
        let done = 0;
        while (done < chunk.byteLength) {
          const { bytesWritten } = await handle.write(chunk, done, chunk.byteLength - done, written + done);
          done += bytesWritten;
        }
        written += chunk.byteLength;
        tell();
      }
      upload.complete();
      arrived = true;
    } catch (error) {
      failure = { error };
    } finally {
      pumpEnded = true;
      tell();
      if (removed) await closeOnce();
    }
  };
  const start = () => (pumping ??= pump());

  // Whether the check waits for bytes not in the spool yet, or the write for the file's last byte: the upload then
  // waits for its client, as long as the client has sent nothing (uploadLanes.ts).
  let waitingAtTail = false;
  let waitingForArrival = 0;

  async function* chunks(): AsyncGenerator<Uint8Array> {
    start();
    let position = 0;
    for (;;) {
      if (position < written) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, written - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
        position += bytesRead;
        yield new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
      } else if (failure) throw failure.error;
      else if (arrived) return;
      else {
        waitingAtTail = true;
        await moved.finally(() => (waitingAtTail = false));
      }
    }
  }

  return {
    fileName: upload.fileName,
    fields: upload.fields,
    stream: chunks(),
    complete() {
      if (failure) throw failure.error;
    },
    record: () => upload.record(),
    // A slow network that keeps sending holds the upload's lane, as before it was spooled; one that stops lets the
    // next upload run beside it.
    waitingForBytesSince: () =>
      !arrived && !failure && (waitingAtTail || waitingForArrival > 0) ? upload.waitingForBytesSince() : undefined,
    async arrival(giveUp) {
      start();
      if (arrived) return;
      let giveUpNow = () => undefined as void;
      const givenUp = new Promise<void>((resolve) => (giveUpNow = resolve));
      giveUp?.addEventListener('abort', giveUpNow, { once: true });
      waitingForArrival += 1;
      try {
        while (!arrived) {
          if (failure) throw failure.error;
          giveUp?.throwIfAborted();
          await Promise.race([moved, givenUp]);
        }
      } finally {
        waitingForArrival -= 1;
        giveUp?.removeEventListener('abort', giveUpNow);
      }
    },
    path: file,
    size: () => written,
    async remove() {
      removed = true;
      if (pumpEnded || !pumping) await closeOnce();
      await rm(file, { force: true });
    },
  };
}

/** Runs `work` on the spooled upload, and removes its file however the work ends. */
export async function whileSpooled<T>(
  ctx: ServerContext,
  upload: StreamedUpload,
  work: (spooled: SpooledUpload) => Promise<T>,
): Promise<T> {
  const spooled = await spoolUpload(ctx, upload);
  try {
    return await work(spooled);
  } finally {
    // The answer is the work's: a file left behind is removed at the next start.
    await spooled
      .remove()
      .catch((error: unknown) =>
        ctx.log(`spooled upload not removed (removed at the next start): ${(error as Error).message}`),
      );
  }
}
