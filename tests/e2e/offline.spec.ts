import { expect, test } from './fixtures';
import { E2E_ADMIN } from '../../playwright.config';
import { waitForServiceWorker } from './serviceWorker';

test('after one visit the app shell opens offline, with an offline badge', async ({ page, context, look }) => {
  await page.goto('/login');
  await page.getByLabel('Identifiant', { exact: true }).fill(E2E_ADMIN.login);
  await page.getByLabel('Mot de passe', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toBeVisible();
  await look(page, 'offline-shell-fr');

  await context.setOffline(false);
});

test('the web manifest makes the portal installable', async ({ request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest.name).toBe('Terrain');
  expect(
    manifest.icons.map(
      (icon: { sizes: string; purpose?: string }) => `${icon.sizes}${icon.purpose ? ` ${icon.purpose}` : ''}`,
    ),
  ).toEqual(['192x192', '512x512', '512x512 maskable']);
  const worker = await request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['cache-control']).toBe('no-cache');
});
