import { useSyncExternalStore } from 'react';

/** The browser's deferred install prompt (Chromium browsers), captured as soon as the page loads. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const publish = () => listeners.forEach((listener) => listener());

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    publish();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    publish();
  });
}

/** iPhone and iPad Safari have no install prompt: users add the site from the Share menu. */
function isIosBrowser(): boolean {
  const iPadOs = navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1;
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || iPadOs;
}

function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

export interface InstallState {
  /** The browser offers an install prompt. */
  canPrompt: boolean;
  /** Safari on iOS/iPadOS, not yet installed: show the Add to Home Screen steps. */
  showIosSteps: boolean;
}

let snapshot: InstallState = { canPrompt: false, showIosSteps: false };
function read(): InstallState {
  const next = {
    canPrompt: deferred !== null,
    showIosSteps: typeof window !== 'undefined' && isIosBrowser() && !isStandalone(),
  };
  if (next.canPrompt !== snapshot.canPrompt || next.showIosSteps !== snapshot.showIosSteps) snapshot = next;
  return snapshot;
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    read,
  );
}

export async function promptInstall(): Promise<void> {
  if (!deferred) return;
  await deferred.prompt();
  await deferred.userChoice.catch(() => undefined);
  deferred = null;
  publish();
}
