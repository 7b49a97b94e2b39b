import type { Page } from '@playwright/test';

/**
 * Waits until the service worker controls the page and has finished activating, so that the app shell opens without
 * network. `ready` resolves, and the page gets its controller (clientsClaim), while the worker is still activating;
 * a journey that went offline at that moment met a blank page whose scripts had all been aborted.
 */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const worker =
      navigator.serviceWorker.controller ??
      (await new Promise<ServiceWorker>((resolve) =>
        navigator.serviceWorker.addEventListener(
          'controllerchange',
          () => resolve(navigator.serviceWorker.controller!),
          {
            once: true,
          },
        ),
      ));
    if (worker.state === 'activated') return;
    await new Promise<void>((resolve) =>
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') resolve();
      }),
    );
  });
}
