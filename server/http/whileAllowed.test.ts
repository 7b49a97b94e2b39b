import { describe, expect, it } from 'vitest';
import { RECHECK_BYTES, sentWhileAllowed } from './whileAllowed.ts';

const SLICE = 4 * 1024 * 1024;
const SLICES = 10;

/** A stored file of SLICES slices, as `storedFile` gives it, and what the stream let through of it. */
async function send(allowedLooks: number) {
  let looks = 0;
  let produced = 0;
  const slices = (function* () {
    for (let index = 0; index < SLICES; index += 1) {
      produced += 1;
      yield new Uint8Array(SLICE);
    }
  })();
  const stream = sentWhileAllowed(slices, async () => {
    looks += 1;
    if (looks > allowedLooks) throw new Error('withdrawn');
  });
  let received = 0;
  try {
    for await (const piece of stream) received += (piece as Uint8Array).byteLength;
  } catch (error) {
    return { received, looks, produced, failure: (error as Error).message };
  }
  return { received, looks, produced, failure: null };
}

describe('an answer sent while its reader may have it', () => {
  it('goes out whole while the right holds, looked at again between pieces', async () => {
    const sent = await send(Infinity);
    expect(sent).toMatchObject({ received: SLICE * SLICES, failure: null });
    expect(sent.looks).toBe(SLICES - 1);
  });

  it('stops at the first look that fails: the rest is neither sent nor read', async () => {
    const sent = await send(2);
    expect(sent.failure).toBe('withdrawn');
    expect(sent.received).toBe(3 * SLICE);
    expect(sent.produced).toBeLessThanOrEqual(4);
  });

  it('looks again once a mebibyte at most, not once a piece', async () => {
    let looks = 0;
    const pieces = Array.from({ length: 4096 }, () => 'x'.repeat(1024));
    for await (const piece of sentWhileAllowed(pieces, async () => void (looks += 1))) expect(piece).toHaveLength(1024);
    expect(looks).toBe(Math.floor((4096 * 1024 - 1) / RECHECK_BYTES));
  });
});
