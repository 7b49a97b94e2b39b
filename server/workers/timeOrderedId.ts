import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;
const random = new Uint8Array(8);

/**
 * A new row id as a UUID of version 7 (RFC 9562): the time in milliseconds first, then a counter within the
 * millisecond, then random bits. Ids made one after the other sort one after the other, so a large write appends to
 * the right edge of the primary key's index instead of touching a random page of it for every row, as random ids
 * did (docs/benchmarks.md). An id is a name, never a right: that it tells when its row was written is no secret.
 */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // More than 4,096 ids in one millisecond: borrow the next one, keeping the order.
    lastMs += 1;
    sequence = 0;
  }
  randomFillSync(random);
  const time = lastMs.toString(16).padStart(12, '0');
  const counter = (0x7000 | sequence).toString(16);
  const variant = ((random[0] & 0x3f) | 0x80).toString(16).padStart(2, '0');
  const tail = Array.from(random.subarray(1), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${time.slice(0, 8)}-${time.slice(8)}-${counter}-${variant}${tail.slice(0, 2)}-${tail.slice(2)}`;
}
