import { Readable } from 'node:stream';

/** About how much of an answer goes out between two looks at whether its reader may still have the rest. */
export const RECHECK_BYTES = 1024 * 1024;

async function* untilRefused(
  content: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  allowed: () => Promise<void>,
): AsyncGenerator<string | Uint8Array> {
  let sinceLook = 0;
  for await (const piece of content) {
    if (sinceLook >= RECHECK_BYTES) {
      await allowed();
      sinceLook = 0;
    }
    sinceLook += typeof piece === 'string' ? piece.length : piece.byteLength;
    yield piece;
  }
}

/**
 * A long answer (an export of a million rows, a deposited file of hundreds of megabytes) as a stream that stops once
 * `allowed` refuses: what the reader could read when it began may have been withdrawn since. The answer is under
 * way, so the client sees it cut short, never complete. One piece is read ahead at most, so that little is already
 * on its way when a right goes; a page of rows or a slice of a file costs far more than the look.
 */
export function sentWhileAllowed(
  content: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  allowed: () => Promise<void>,
): Readable {
  return Readable.from(untilRefused(content, allowed), { highWaterMark: 1 });
}
