import { Inflate } from 'fflate';
import { DamagedZip, type ZipDirectoryEntry } from './zipDirectory';

/** Compressed bytes given to the inflater at a time: DEFLATE inflates a piece to a thousand times its size at most. */
const PIECE_BYTES = 1024;
const STORED = 0;
const DEFLATED = 8;

/** An entry whose content is not the size its directory declares: more (a zip bomb, cut short) or less. */
export class EntrySizeMismatch extends Error {}

class PastDeclaredSize extends Error {}

/**
 * The content of an entry, inflated no further than the size it declares: an entry that would inflate past it is
 * stopped there and refused (EntrySizeMismatch), as is one that inflates to less.
 */
export function inflateEntry(bytes: Uint8Array, entry: ZipDirectoryEntry): Uint8Array {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new DamagedZip('truncated archive');
  if (entry.method === STORED) {
    if (entry.compressedSize !== entry.declaredSize) throw new EntrySizeMismatch(entry.name);
    return data.slice();
  }
  if (entry.method !== DEFLATED) throw new DamagedZip(`unknown compression type ${entry.method}`);
  const content = new Uint8Array(entry.declaredSize);
  let filled = 0;
  const inflater = new Inflate((chunk) => {
    if (filled + chunk.length > content.length) throw new PastDeclaredSize();
    content.set(chunk, filled);
    filled += chunk.length;
  });
  try {
    let start = 0;
    do {
      const end = Math.min(start + PIECE_BYTES, data.length);
      inflater.push(data.subarray(start, end), end === data.length);
      start = end;
    } while (start < data.length);
  } catch (error) {
    if (error instanceof PastDeclaredSize) throw new EntrySizeMismatch(entry.name);
    throw error;
  }
  if (filled !== content.length) throw new EntrySizeMismatch(entry.name);
  return content;
}
