/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { createOutbox, serverAnswersAt } from './offline/outbox';

declare const self: ServiceWorkerGlobalScope;

// The application shell (scripts, styles, index.html, icons) is precached at install, so the app opens offline.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first installed worker takes charge of the open page at once, so the very first visit already works offline.
clientsClaim();

// Every page of the single-page application is index.html; API paths are never pages, nor the help documents,
// which the help page opens in a frame (a navigation too: without this, the frame showed the app's "Not Found").
const HELP_DOCUMENT = /^\/help\.(fr|en)\.pdf$/;
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, HELP_DOCUMENT] }));

// Help PDFs are large and rarely read: cached the first time they are opened, served from cache afterwards.
const HELP_CACHE = 'terrain-help';
registerRoute(
  ({ url }) => HELP_DOCUMENT.test(url.pathname),
  async ({ request }) => {
    const cache = await caches.open(HELP_CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch {
      return (await cache.match(request)) ?? Response.error();
    }
  },
);

// Charters are kept once shown, so that a user offline can still read the charter they are asked to accept. Each
// version has its own address (?v=upload time): a kept copy never stands in for a newer charter.
const CHARTER_CACHE = 'terrain-charters';
registerRoute(
  ({ url }) => /^\/api\/v1\/applications\/[^/]+\/charter$/.test(url.pathname),
  async ({ request, url }) => {
    const cache = await caches.open(CHARTER_CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) {
        // One copy per application: the previous version's goes.
        for (const kept of await cache.keys())
          if (new URL(kept.url).pathname === url.pathname) await cache.delete(kept);
        await cache.put(request, response.clone());
      }
      return response;
    } catch {
      return (await cache.match(request)) ?? Response.error();
    }
  },
  'GET',
);

// An API call that cannot reach the server gets a recognisable answer instead of a network failure page.
registerRoute(
  ({ url }) => url.pathname.startsWith('/api/'),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      return new Response(JSON.stringify({ code: 'NETWORK_ERROR', message: 'NETWORK_ERROR', params: {} }), {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'X-Terrain-Offline': '1' },
      });
    }
  },
  'GET',
);

// Background Sync: the browser wakes the worker when the network returns, even with every page closed. The pass
// keeps to the hold on sends the page keeps to (both read it from IndexedDB); when changes still wait, the sync
// fails so that the browser wakes the worker again later, with its own backoff (minutes in Chromium).
async function sendPendingChanges() {
  const outbox = createOutbox({ serverAnswers: serverAnswersAt() });
  await outbox.process();
  if ((await outbox.nextDueAt()) !== undefined) throw new Error('changes still wait');
}

self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag: string };
  if (sync.tag === 'terrain-outbox') sync.waitUntil(sendPendingChanges());
});

// The page asks the waiting worker to take over when the user accepts "update available — reload".
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | undefined)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
