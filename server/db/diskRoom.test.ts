import { describe, expect, it } from 'vitest';
import { bulkBytes } from './bulkWriteGuard.ts';
import { diskRoom, isDiskFull, NoRoom } from './diskRoom.ts';

describe('the room on the database disk', () => {
  it('refuses a write that would eat into the reserve, as the database refuses a full disk', async () => {
    const room = diskRoom(
      async () => 1000,
      600,
      () => undefined,
    );
    await expect(room.require(400)).resolves.toBeUndefined();
    const refusal = await room.require(401).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(NoRoom);
    expect(isDiskFull(refusal)).toBe(true);
    // Where the disk cannot be seen, nothing is refused.
    await expect(diskRoom(undefined, 600, () => undefined).require(10 ** 12)).resolves.toBeUndefined();
  });

  it('gives space back one pass at a time, folding the refusals that come while a pass waits', async () => {
    const log: string[] = [];
    const room = diskRoom(undefined, 0, (line) => log.push(line));
    let release!: () => void;
    const passes: string[] = [];
    room.giveBack(() => new Promise<void>((resolve) => ((release = resolve), passes.push('first'))));
    await Promise.resolve();
    room.giveBack(async () => void passes.push('second'));
    room.giveBack(async () => void passes.push('folded'));
    room.giveBack(async () => Promise.reject(new Error('disk gone')));
    expect(passes).toEqual(['first']);
    release();
    await room.givenBack();
    expect(passes).toEqual(['first', 'second']);
    room.giveBack(async () => Promise.reject(new Error('disk gone')));
    await room.givenBack();
    expect(log).toEqual(['giving back the space of a refused write failed: disk gone']);
  });

  it('counts as bulk the large parameters of inserts and updates only', () => {
    const document = 'x'.repeat(20_000);
    expect(bulkBytes('insert into data_rows select * from json_to_recordset($1::json)', [document, 'small'])).toBe(
      20_000,
    );
    expect(bulkBytes('\n  update additional_files set content = $1', [new Uint8Array(15_000)])).toBe(15_000);
    expect(bulkBytes('insert into sessions values ($1, $2)', ['id', 'user'])).toBe(0);
    expect(bulkBytes('select * from data_rows where natural_key = any($1)', [document])).toBe(0);
  });
});
