import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, signInAsAdmin, switchLanguage } from './applicationSteps';
import { download, lookFromTop, setUpApi, throttle, zipTexts } from './dataSteps';

/**
 * Upload kit and backup from an application card (download progress, a zip, fr and en), a refused second download
 * shown as a translated toast, and a backup restored as a new application with the server's steps.
 */

// Downloads are slowed down in the page's own network stack, which a service worker would bypass.
test.use({ serviceWorkers: 'block' });

const card = (page: Page, name: string) => page.locator(`[data-testid="application-card"][data-name="${name}"]`);

test('upload kit and backup from a card with their progress, in French and English; a second download refused; a backup restored as a new application', async ({
  page,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('kit');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  for (const [reference, csv] of [
    ['projects', 'surveys-projects.csv'],
    ['sites', 'surveys-sites.csv'],
    ['species', 'surveys-species.csv'],
  ]) {
    await api.loadReference(name, reference, csv);
  }
  await page.goto('/applications');
  await page.getByLabel('Filtrer par nom').fill(name);
  await expect(card(page, name)).toBeVisible();

  await test.step('the upload kit, in French, with its progress', async () => {
    const unthrottle = await throttle(page, 500);
    // Watched from the start: the toast may come and go while the screen is being looked at.
    const downloaded = expect(toast(page, 'Le kit de dépôt de Suivis de sites est téléchargé.')).toBeVisible({
      timeout: 60_000,
    });
    const kit = await download(page, async () => {
      await card(page, name).getByRole('button', { name: `Télécharger le kit de dépôt de Suivis de sites` }).click();
      const progress = card(page, name).getByRole('progressbar', {
        name: 'Téléchargement du kit de dépôt de Suivis de sites',
      });
      await expect(progress).toBeVisible();
      await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
      await see('bundle-kit-progress-fr');
    });
    await unthrottle();
    expect(kit.fileName).toMatch(new RegExp(`^${name}-kit-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const files = zipTexts(kit.bytes);
    expect(Object.keys(files)).toEqual([
      'README.md',
      'configuration/surveys.yaml',
      'templates/01_projects.csv',
      'templates/02_sites.csv',
      'templates/03_species.csv',
      'templates/04_counts.csv',
      // counts names its files (OA_fileName): the kit carries the script that deposits a folder of them.
      'deposit.mjs',
      'manifest.json',
    ]);
    expect(files['deposit.mjs']).toMatch(/^#!\/usr\/bin\/env node/);
    expect(files['README.md']).toContain('deposit.mjs');
    expect(files['README.md']).toContain('kit de dépôt en masse');
    expect(files['templates/04_counts.csv'].split('\n')[0]).toBe('"project";"site";"species";"day";"individuals"');
    await downloaded;
    await expect(card(page, name).getByRole('progressbar')).toHaveCount(0);
    await dismissToasts(page);
  });

  let backup: Buffer;
  await test.step('the backup, in English', async () => {
    await switchLanguage(page, 'English');
    const saved = await download(page, () =>
      card(page, name).getByRole('button', { name: 'Download a backup of Site surveys' }).click(),
    );
    backup = saved.bytes;
    expect(saved.fileName).toMatch(new RegExp(`^${name}-backup-`));
    const files = zipTexts(saved.bytes);
    expect(files['README.md']).toContain('bulk-upload kit');
    expect(JSON.parse(files['manifest.json'])).toMatchObject({ kind: 'backup', locale: 'en' });
    expect(files['data/01_projects.csv']).toBe('"code";"label"\n"alps";"Alpes"\n"pyrenees";"Pyrénées"\n');
    await expect(toast(page, 'The backup of Site surveys is downloaded.')).toBeVisible();
    await see('bundle-backup-done-en');
    await dismissToasts(page);
  });

  await test.step('a second download while one runs is refused with a translated toast', async () => {
    // The server's 429 (one bundle per user at a time, on any instance) is proven by the server tests; here the
    // page meets that answer.
    await page.route('**/upload-bundle?*', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'BUNDLE_ALREADY_RUNNING', message: 'BUNDLE_ALREADY_RUNNING', params: {} }),
      }),
    );
    await card(page, name).getByRole('button', { name: 'Download the upload kit of Site surveys' }).click();
    await expect(
      toast(page, 'A download of yours is already being prepared: wait for it to end before starting another.'),
    ).toBeVisible();
    await see('bundle-refused-en');
    await page.unroute('**/upload-bundle?*');
    await dismissToasts(page);
    await switchLanguage(page, 'Français');
  });

  await test.step('the backup restored as a new application, with the steps of the server', async () => {
    const copy = `${name}copy`;
    await page.getByRole('button', { name: 'Restaurer une sauvegarde' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restaurer une sauvegarde' });
    await dialog.getByLabel('Nom de l’application').fill(copy);
    await dialog
      .getByLabel('Fichier de sauvegarde')
      .setInputFiles({ name: `${name}-backup.zip`, mimeType: 'application/zip', buffer: backup });
    await see('bundle-restore-form-fr');
    await dialog.getByRole('button', { name: 'Restaurer', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${copy}$`));
    await expect(toast(page, `L’application ${copy} a été restaurée.`)).toBeVisible();
    for (const reference of ['projects', 'sites', 'species'])
      expect(await api.count(copy, reference)).toBe(await api.count(name, reference));
  });
});
