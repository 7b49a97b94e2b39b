import { useSyncExternalStore } from 'react';
import type { AuthenticatedUser } from '@/domain/accounts/user';
import { SIGNED_IN_SETTING, writeSetting } from './db';

/**
 * The signed-in user as the browser remembers it (`authenticatedUser` in local storage). The session itself is
 * an httpOnly cookie the page cannot read; this copy lets the interface work, offline too, until the server
 * says the session is gone.
 */
const STORAGE_KEY = 'authenticatedUser';
const listeners = new Set<() => void>();
let cached: AuthenticatedUser | null | undefined;

function read(): AuthenticatedUser | null {
  if (cached !== undefined) return cached;
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    cached = text ? (JSON.parse(text) as AuthenticatedUser) : null;
  } catch {
    cached = null;
  }
  return cached;
}

export function getCurrentUser(): AuthenticatedUser | null {
  return read();
}

export function setCurrentUser(user: AuthenticatedUser | null) {
  cached = user;
  // The outbox (of the page and of the service worker) sends only the changes of whoever is signed in.
  void writeSetting(SIGNED_IN_SETTING, user?.login ?? null).catch(() => undefined);
  try {
    if (user) localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage unavailable: the user stays signed in for this page only
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab signed in or out.
    if (event.key === STORAGE_KEY) {
      cached = undefined;
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useCurrentUser(): AuthenticatedUser | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
