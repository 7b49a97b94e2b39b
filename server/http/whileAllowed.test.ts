import { describe, expect, it } from 'vitest';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { RECHECK_BYTES, sentWhileAllowed } from './whileAllowed.ts';

/** A deposited file of PARTS parts of a mebibyte, as `storedFile` gives it. */
const PART = 1024 * 1024;
const PARTS = 40;

/** What the stream let through of the file while `allowed` let `allowedLooks` looks pass. */
async function send(allowedLooks: number, refusal: Error = new Refusal('NO_RIGHT_FOR_USER_DATA_READER')) {
  let looks = 0;
  let produced = 0;
  const logged: string[] = [];
  const parts = (function* () {
    for (let index = 0; index < PARTS; index += 1) {
      produced += 1;
      yield new Uint8Array(PART);
    }
  })();
  const stream = sentWhileAllowed(
    parts,
    async () => {
      looks += 1;
      if (looks > allowedLooks) throw refusal;
    },
    (line) => logged.push(line),
  );
  let received = 0;
  try {
    for await (const piece of stream) received += (piece as Uint8Array).byteLength;
  } catch (error) {
    return { received, looks, produced, logged, failure: error as Error };
  }
  return { received, looks, produced, logged, failure: null };
}

describe('an answer sent while its reader may have it', () => {
  it('goes out whole while the right holds, looked at again between pieces', async () => {
    const sent = await send(Infinity);
    expect(sent).toMatchObject({ received: PART * PARTS, failure: null, logged: [] });
    expect(sent.looks).toBe(PARTS - 1);
  });

  it('stops at the first look that fails, says why in the log, and neither sends nor reads the rest', async () => {
    const sent = await send(2);
    expect(sent.failure).toBeInstanceOf(Refusal);
    expect(sent.received).toBe(3 * PART);
    expect(sent.produced).toBeLessThanOrEqual(5);
    expect(sent.logged).toEqual(['a long answer stopped, its reader no longer allowed: NO_RIGHT_FOR_USER_DATA_READER']);
    const broken = await send(0, new Error('database gone'));
    expect(broken.logged).toEqual(["a long answer stopped, its reader's rights unreadable: database gone"]);
  });

  it('looks again once a mebibyte at most, not once a piece, counting bytes, not characters', async () => {
    let looks = 0;
    // Two bytes a character in UTF-8.
    const pieces = Array.from({ length: 2048 }, () => 'é'.repeat(1024));
    for await (const piece of sentWhileAllowed(
      pieces,
      async () => void (looks += 1),
      () => undefined,
    ))
      expect(piece).toHaveLength(1024);
    expect(looks).toBe(Math.floor((2048 * 2048 - 1) / RECHECK_BYTES));
  });
});
