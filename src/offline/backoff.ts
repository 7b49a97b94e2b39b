/** Waiting time before the next attempt after `attempts` failed ones: 2 s, 4 s, 8 s … up to 5 minutes. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(300_000, 1000 * 2 ** Math.max(1, attempts));
  // A little jitter keeps a room full of tablets from retrying in step when the Wi-Fi comes back.
  return Math.round(base * (0.8 + random() * 0.4));
}

/** The longest any wait of the outbox lasts (the last step, with its jitter). */
const LONGEST_WAIT_MS = 360_000;

/**
 * Whether a wait until `until` (a time of this device's clock) is still under way at `now`. A wait longer than any
 * the outbox sets means the clock was set back since: it is over, rather than lasting as long as the clock moved.
 */
export function stillWaiting(until: number, now: number): boolean {
  return until > now && until - now <= LONGEST_WAIT_MS;
}
