import { useSyncExternalStore } from 'react';

/**
 * Whether the server can be reached. The browser's `navigator.onLine` only knows about the network interface;
 * a tablet on a captive Wi-Fi, or a stopped server, is "online" yet unreachable. So every API call reports its
 * outcome here and the last outcome wins.
 */
type Connectivity = { reachable: boolean; lastReachedAt: number | null };

let state: Connectivity = { reachable: typeof navigator === 'undefined' ? true : navigator.onLine, lastReachedAt: null };
const listeners = new Set<() => void>();

function update(next: Connectivity) {
  if (next.reachable === state.reachable && next.lastReachedAt === state.lastReachedAt) return;
  state = next;
  listeners.forEach((listener) => listener());
}

export function reportServerReached() {
  update({ reachable: true, lastReachedAt: Date.now() });
}

export function reportServerUnreachable() {
  update({ ...state, reachable: false });
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', reportServerUnreachable);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribe, () => state, () => state);
}

export function isServerReachable() {
  return state.reachable;
}
