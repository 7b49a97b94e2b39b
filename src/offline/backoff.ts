/** Waiting time before the next attempt after `attempts` failed ones: 2 s, 4 s, 8 s … up to 5 minutes. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(300_000, 1000 * 2 ** Math.max(1, attempts));
  // A little jitter keeps a room full of tablets from retrying in step when the Wi-Fi comes back.
  return Math.round(base * (0.8 + random() * 0.4));
}
