import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';
import { registerUser, signIn, switchLanguage } from './applicationSteps';
import { setUpApi } from './dataSteps';
import { expect, toast } from './fixtures';
import { signInAsAdmin, test, waitForServiceWorker } from './offlineSteps';

/**
 * The read cache in a browser with a profile on disk, as a tablet keeps it: what was read survives closing the
 * browser, and opens with the server out of reach.
 */

/** Starts Chromium on the profile in `folder` (the same folder again is the same browser, restarted). */
async function browserWithProfile(folder: string, origin: string, viewport: Page['viewportSize']) {
  const context = await chromium.launchPersistentContext(folder, {
    executablePath: findChromium(),
    args: CHROMIUM_ARGS,
    baseURL: origin,
    locale: 'fr-FR',
    viewport: viewport() ?? { width: 1024, height: 768 },
    hasTouch: true,
    serviceWorkers: 'allow',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

test('a table seen once opens offline after the browser restarts, and making the application available offline keeps what a partial reader may read and names the rest', async ({
  page,
  network,
  lastKey,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const name = unique('kept');
  const reader = unique('reader');
  const profile = await mkdtemp(path.join(path.resolve('test-results'), 'profile-'));
  let browser: { context: BrowserContext; page: Page } | undefined;
  try {
    await test.step('an application whose reader may read every table but one', async () => {
      // Registered before the administrator signs in on this page: activation acts as whoever is signed in.
      await registerUser(page.request, lastKey, reader);
      await signInAsAdmin(page);
      const api = setUpApi(page);
      await api.createApplication(name, 'surveys.yaml');
      for (const reference of ['projects', 'sites', 'species'])
        await api.loadReference(name, reference, `surveys-${reference}.csv`);
      const granted = await page.request.post(`/api/v1/applications/${name}/authorization`, {
        data: {
          name: 'lecture partielle',
          description: 'tout sauf les espèces',
          usersId: [reader],
          authorizationForAll: { projects: ['extraction'], sites: ['extraction'], counts: ['extraction'] },
        },
      });
      expect(granted.status(), await granted.text()).toBe(201);
    });

    await test.step('online: the reader opens a table, then makes the application available offline', async () => {
      browser = await browserWithProfile(profile, network.origin, () => page.viewportSize());
      const reader_ = browser.page;
      await signIn(reader_, reader);
      await waitForServiceWorker(reader_);
      await reader_.goto(`/applications/${name}/references/sites`);
      await expect(reader_.getByText('Lac Blanc')).toBeVisible();
      // The one table the reader may not read: its downloads say why instead of failing unseen.
      await reader_.goto(`/applications/${name}/references/species`);
      await reader_.getByTestId('export-menu').click();
      await expect(reader_.getByTestId('export-unavailable')).toContainText(
        'Vous ne pouvez pas télécharger ces lignes',
      );
      await expect(reader_.getByTestId('export-zip')).toHaveAttribute('aria-disabled', 'true');
      await look(reader_, 'table-refused-export-fr');
      await reader_.keyboard.press('Escape');
      await reader_.goto(`/users/${reader}`);
      await expect(reader_.getByRole('heading', { name: `Profil de ${reader}` })).toBeVisible();

      await reader_.goto(`/applications/${name}`);
      await reader_.getByRole('button', { name: 'Rendre disponible hors ligne' }).click();
      await expect(
        toast(reader_, 'L’application est disponible hors ligne sur cet appareil, sauf ce que le serveur a refusé.'),
      ).toBeVisible();
      const skipped = reader_.getByTestId('offline-skipped');
      await expect(skipped.getByRole('listitem')).toHaveCount(1);
      await expect(skipped.getByRole('listitem')).toContainText('species');
      await look(reader_, 'offline-availability-skipped-fr');
      await browser.context.close();
      browser = undefined;
    });

    await test.step('the browser restarts with the server out of reach: what was read opens, with its date', async () => {
      network.unplug();
      browser = await browserWithProfile(profile, network.origin, () => page.viewportSize());
      const offline = browser.page;
      await offline.goto(`/applications/${name}/references/sites`);
      await expect(offline.getByTestId('offline-notice')).toBeVisible();
      await expect(offline.getByText('Lac Blanc')).toBeVisible();
      await look(offline, 'table-offline-after-restart-fr');
      // A download needs the server: the menu says so instead of offering links that would fail unseen.
      await offline.getByTestId('export-menu').click();
      await expect(offline.getByTestId('export-unavailable')).toHaveText(
        'Les téléchargements ont besoin du serveur, hors d’atteinte pour l’instant : les lignes affichées sont celles gardées sur cet appareil.',
      );
      await expect(offline.getByTestId('export-csv')).toHaveAttribute('aria-disabled', 'true');
      await look(offline, 'table-offline-export-fr');
      await offline.keyboard.press('Escape');
      await offline.goto(`/users/${reader}`);
      await expect(offline.getByRole('heading', { name: `Profil de ${reader}` })).toBeVisible();
      await expect(offline.getByTestId('offline-notice')).toBeVisible();

      // Never opened, but kept by "Make available offline": the data type's first page.
      await offline.goto(`/applications/${name}/dataTypes/counts`);
      await expect(offline.getByTestId('offline-notice')).toBeVisible();
      await expect(offline.getByRole('heading', { name: 'Comptages' })).toBeVisible();

      await offline.goto(`/applications/${name}/references/sites`);
      await switchLanguage(offline, 'English');
      await expect(offline.getByText('Lac Blanc')).toBeVisible();
      await look(offline, 'table-offline-after-restart-en');
      await offline.goto(`/applications/${name}`);
      await expect(offline.getByTestId('offline-skipped')).toContainText('species');
      await look(offline, 'offline-availability-skipped-en');
    });
  } finally {
    network.plugIn();
    await browser?.context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
