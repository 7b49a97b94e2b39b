import { describe, expect, it } from 'vitest';
import { inUploadLane, LANE_STALL_MS, type LaneUpload } from './uploadLanes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upload whose client either keeps sending (never waits for bytes) or stopped sending at a moment. */
const upload = (waitingSince?: () => number | undefined): LaneUpload => ({
  waitingForBytesSince: waitingSince ?? (() => undefined),
});

describe('upload lanes', () => {
  it('runs uploads one at a time, in the order they came, however long each takes to check', async () => {
    const events: string[] = [];
    const work = (name: string, ms: number) => async () => {
      events.push(`${name} starts`);
      await sleep(ms);
      events.push(`${name} ends`);
    };
    // The first is slower to check than a stalled client may hold its lane, but it is not waiting for bytes.
    await Promise.all([
      inUploadLane(upload(), work('first', LANE_STALL_MS + 300)),
      inUploadLane(upload(), work('second', 10)),
      inUploadLane(upload(), work('third', 10)),
    ]);
    expect(events).toEqual([
      'first starts',
      'first ends',
      'second starts',
      'second ends',
      'third starts',
      'third ends',
    ]);
  });

  it('lets the next upload run beside one whose client has sent nothing for a while', async () => {
    let waitingSince: number | undefined;
    let resume!: () => void;
    const stalled = inUploadLane(
      upload(() => waitingSince),
      async () => {
        waitingSince = performance.now();
        await new Promise<void>((resolve) => (resume = resolve));
      },
    );
    const started = performance.now();
    await inUploadLane(upload(), async () => undefined);
    expect(performance.now() - started).toBeGreaterThanOrEqual(LANE_STALL_MS - 5);
    resume();
    await stalled;
  });
});
