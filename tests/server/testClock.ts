import type { Clock } from '../../server/context.ts';

/** A clock that follows real time and jumps forward when told: an expiry is reached without waiting for it. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let ahead = 0;
  return {
    now: () => new Date(Date.now() + ahead),
    advance(ms) {
      ahead += ms;
    },
  };
}
