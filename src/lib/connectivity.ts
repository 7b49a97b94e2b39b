import { useSyncExternalStore } from 'react';

/**
 * Whether the server can be reached. The browser's `navigator.onLine` only knows about the network interface;
 * a tablet on a captive Wi-Fi, or a stopped server, is "online" yet unreachable. So every API call reports its
 * outcome here and the last outcome wins.
 */
type Connectivity = { reachable: boolean; lastReachedAt: number | null };

let state: Connectivity = {
  reachable: typeof navigator === 'undefined' ? true : navigator.onLine,
  lastReachedAt: null,
};
const listeners = new Set<() => void>();

function update(next: Connectivity) {
  if (next.reachable === state.reachable && next.lastReachedAt === state.lastReachedAt) return;
  state = next;
  listeners.forEach((listener) => listener());
}

const backInReachListeners = new Set<() => void>();

export function reportServerReached() {
  const wasUnreachable = !state.reachable;
  update({ reachable: true, lastReachedAt: Date.now() });
  if (wasUnreachable) backInReachListeners.forEach((listener) => listener());
}

/** Calls `listener` each time the server answers after having been out of reach. */
export function onServerBackInReach(listener: () => void): () => void {
  backInReachListeners.add(listener);
  return () => backInReachListeners.delete(listener);
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
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

export function isServerReachable() {
  return state.reachable;
}

const networkUp = () => typeof navigator === 'undefined' || navigator.onLine;

/**
 * While the server is out of reach, asks again now and then (every `firstDelayMs`, doubling up to `maxDelayMs`)
 * whenever the network interface is up. Without it the indicator could stay "offline" for good: when the network
 * returns, the service worker may be the one that sends the pending changes, and its answers never reach the page.
 */
export function startReachabilityProbe(probe: () => void, firstDelayMs = 2000, maxDelayMs = 30_000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = firstDelayMs;
  const watch = () => {
    if (state.reachable) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      delay = firstDelayMs;
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (networkUp()) probe();
      delay = Math.min(delay * 2, maxDelayMs);
      watch();
    }, delay);
  };
  listeners.add(watch);
  watch();
  return () => {
    listeners.delete(watch);
    if (timer) clearTimeout(timer);
  };
}
