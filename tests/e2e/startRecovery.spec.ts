import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// What a stopped service worker does to a start (its module scripts aborted) is made here on purpose: without the
// worker, by aborting the application's own files. public/start-guard.js must then reload once, and say so if the
// reload fails too.
test.use({ serviceWorkers: 'block' });

/** Aborts the files matching `pattern` while `failing()` says so; counts the page's loads of its document. */
async function breakFiles(context: BrowserContext, pattern: RegExp, failing: (documentLoads: number) => boolean) {
  let documentLoads = 0;
  await context.route('**/*', async (route) => {
    const request = route.request();
    if (request.isNavigationRequest()) documentLoads += 1;
    if (pattern.test(new URL(request.url()).pathname) && failing(documentLoads)) await route.abort('aborted');
    else await route.fallback();
  });
  return () => documentLoads;
}

test('a start whose modules could not be fetched reloads once by itself', async ({ page, context }) => {
  // A module the entry imports (and the page preloads): what Chromium aborted when its service worker stopped.
  const documentLoads = await breakFiles(context, /^\/assets\/(dist|setup)-[^/]+\.js$/, (loads) => loads === 1);
  await page.goto('/login');
  await expect(page.getByLabel('Identifiant', { exact: true })).toBeVisible();
  expect(documentLoads()).toBe(2);
});

test('a start whose language could not be fetched reloads once by itself', async ({ page, context }) => {
  const documentLoads = await breakFiles(context, /^\/assets\/messages-[^/]+\.js$/, (loads) => loads === 1);
  await page.goto('/login');
  await expect(page.getByLabel('Identifiant', { exact: true })).toBeVisible();
  expect(documentLoads()).toBe(2);
});

/**
 * Opens the sign-in page with the files matching `pattern` always aborted: after one reload, the heading `fr`
 * shows (looked at as `<name>-fr`); its button reloads, in English once chosen (`<name>-en`); once the files can
 * be fetched again, the button opens the page.
 */
async function saysItFailedThenRecovers(
  { page, context, look }: { page: Page; context: BrowserContext; look: (page: Page, name: string) => Promise<void> },
  pattern: RegExp,
  name: string,
  heading: { fr: string; en: string },
) {
  let broken = true;
  const documentLoads = await breakFiles(context, pattern, () => broken);
  await page.goto('/login');
  // Reloaded once, then the message instead of a loop.
  await expect(page.getByRole('heading', { name: heading.fr })).toBeVisible();
  expect(documentLoads()).toBe(2);
  await look(page, `${name}-fr`);

  await page.evaluate(() => localStorage.setItem('lang', 'en'));
  await page.getByRole('button', { name: 'Recharger la page' }).click();
  await expect(page.getByRole('heading', { name: heading.en })).toBeVisible();
  await look(page, `${name}-en`);

  broken = false;
  await page.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.getByLabel('Login', { exact: true })).toBeVisible();
}

test('a start that fails again says so, in French and English, with a button that reloads', async ({
  page,
  context,
  look,
}) => {
  await saysItFailedThenRecovers({ page, context, look }, /^\/assets\/index-[^/]+\.js$/, 'start-failed', {
    fr: 'Terrain n’a pas pu démarrer',
    en: 'Terrain could not start',
  });
});

test('a page whose part cannot be fetched says so in the page, translated, with a way on', async ({
  page,
  context,
  look,
}) => {
  // The sign-in page's own module, fetched when the page opens: the router reloads once, then shows the error.
  await saysItFailedThenRecovers({ page, context, look }, /^\/assets\/LoginPage-[^/]+\.js$/, 'page-error', {
    fr: 'Cette page n’a pas pu s’ouvrir',
    en: 'This page could not be opened',
  });
});
