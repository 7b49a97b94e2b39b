import { Readable } from 'node:stream';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/** About how many bytes of an answer go out between two looks at whether its reader may still have the rest. */
export const RECHECK_BYTES = 1024 * 1024;

const bytesOf = (piece: string | Uint8Array) =>
  typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength;

async function* untilRefused(
  content: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  allowed: () => Promise<void>,
  log: (line: string) => void,
): AsyncGenerator<string | Uint8Array> {
  let sinceLook = 0;
  for await (const piece of content) {
    if (sinceLook >= RECHECK_BYTES) {
      // The answer is under way with its 200: nothing else records why it was cut.
      await allowed().catch((error: unknown) => {
        log(
          error instanceof Refusal
            ? `a long answer stopped, its reader no longer allowed: ${error.code}`
            : `a long answer stopped, its reader's rights unreadable: ${(error as Error).message}`,
        );
        throw error;
      });
      sinceLook = 0;
    }
    sinceLook += bytesOf(piece);
    yield piece;
  }
}

/**
 * A long answer (an export of a million rows, a deposited file of hundreds of megabytes) as a stream that stops once
 * `allowed` refuses: what the reader could read when it began may have been withdrawn since. The answer is under
 * way, so the client sees it cut short, never complete. One piece is read ahead at most, so that little is already
 * on its way when a right goes; a page of rows or a part of a file costs far more than the look.
 */
export function sentWhileAllowed(
  content: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  allowed: () => Promise<void>,
  log: (line: string) => void,
): Readable {
  return Readable.from(untilRefused(content, allowed, log), { highWaterMark: 1 });
}
