import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, signInAsAdmin, switchLanguage } from './applicationSteps';
import {
  csvFixture,
  csvLines,
  download,
  goOffline,
  goOnline,
  lookFromTop,
  setUpApi,
  shownKeys,
  waitForServiceWorker,
  zipTexts,
} from './dataSteps';

/**
 * References end to end on the fieldnotes application (sites: code, label, altitude as an integer): a file with
 * errors is checked in the CSV worker and its report downloads; the fixed file is sent; offline, a bigger file
 * of sites and a file of counts (checked against the sites and species kept on the device) are queued, then stored
 * once back online; the rows are browsed, filtered, sorted, paged, exported and deleted; in French and in English.
 */

/** 32 more sites, generated: site_01 … site_32 at 1,050 m … 2,600 m. */
const GENERATED = Array.from({ length: 32 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return { code: `site_${n}`, label: `Site ${n}`, altitude: 1000 + (i + 1) * 50 };
});
const generatedCsv = () =>
  Buffer.from(['code;label;altitude', ...GENERATED.map((s) => `${s.code};${s.label};${s.altitude}`)].join('\n') + '\n');
const FIXED = [
  { code: 'lac_blanc', label: 'Lac Blanc', altitude: 2352 },
  { code: 'mont_joly', label: 'Mont Joly', altitude: 2525 },
  { code: 'col_de_voza', label: 'Col de Voza', altitude: 1653 },
];

/** Counts of the data type without versioning, pointing to the sites and species. */
const COUNTS =
  'site;species;day;individuals\nlac_blanc;Tichodroma muraria;02/06/2024;3\nmont_joly;Lagopus muta;03/06/2024;2\n';
/** With a site known on the device only from the sites file still waiting to be sent. */
const COUNTS_WITH_QUEUED_SITE = `${COUNTS}site_07;Lagopus muta;04/06/2024;1\n`;
const COUNTS_WITH_UNKNOWN_SITE =
  'site;species;day;individuals\nlac_blanc;Tichodroma muraria;02/06/2024;3\nnowhere;Lagopus muta;03/06/2024;2\n';

const node = (page: Page, name: string) => page.locator(`[data-testid="reference-node"][data-name="${name}"]`);
const uploadDialog = (page: Page) => page.getByTestId('csv-upload');

async function openUpload(page: Page, title: string, label = `Charger un fichier CSV dans ${title}`) {
  await page.getByRole('button', { name: label, exact: true }).click();
  await expect(uploadDialog(page)).toBeVisible();
  return uploadDialog(page);
}

test('references: a file with errors and its report, the fixed file, files checked offline against the kept references, queued and stored once, then browse, filter, sort, page, export and delete', async ({
  page,
  context,
  unique,
  look,
}) => {
  test.setTimeout(240_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('refs');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'fieldnotes-v1.yaml');
  await api.loadReference(name, 'species', 'fieldnotes-species.csv');

  await test.step('the reference tree with line counts', async () => {
    await page.goto(`/applications/${name}/references`);
    await expect(page.getByRole('heading', { name: 'Références de Carnet de terrain' })).toBeVisible();
    await expect(page.getByRole('tree', { name: 'Références' })).toBeVisible();
    await expect(node(page, 'sites').getByLabel('0 lignes')).toBeVisible();
    await expect(node(page, 'species').getByLabel('3 lignes')).toBeVisible();
    await see('references-tree-fr');
  });

  await test.step('a file with errors: the report, in French, and downloaded as CSV', async () => {
    const dialog = await openUpload(page, 'Sites');
    await expect(dialog.getByRole('heading', { name: 'Charger un fichier CSV dans Sites' })).toBeVisible();
    await dialog.getByLabel('Fichier CSV').setInputFiles(csvFixture('fieldnotes-sites-broken.csv'));
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    const report = dialog.getByTestId('csv-report');
    await expect(report.getByRole('heading', { name: /erreurs dans fieldnotes-sites-broken\.csv$/ })).toBeVisible();
    const rows = report.locator('[data-code]');
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    // Every message is a sentence of the catalogue, never a code or a missing translation.
    for (const text of await rows.allInnerTexts()) {
      expect(text).not.toMatch(/translation missing|csvError\.|exceptionMessage\./i);
    }
    await expect(report.locator('[data-code="invalidIntegerWithComponent"]')).toContainText(
      '« haut » n’est pas un nombre entier (altitude).',
    );
    await expect(report.locator('[data-code="requiredValueWithComponent"]')).toContainText(
      'Une valeur est obligatoire pour code.',
    );
    await expect(dialog.getByRole('button', { name: 'Envoyer', exact: true })).toBeDisabled();
    await dismissToasts(page);
    await see('reference-upload-errors-fr');

    const saved = await download(page, () => report.getByRole('button', { name: 'Télécharger le rapport' }).click());
    expect(saved.fileName).toBe('fieldnotes-sites-broken-errors.csv');
    const lines = csvLines(saved.bytes, ';');
    expect(lines[0]).toEqual(['ligne', 'colonne', 'valeur', 'message']);
    expect(lines.length - 1).toBe(await rows.count());
    const altitude = lines.find((cells) => cells[1] === 'altitude');
    expect(altitude, 'the altitude error is in the report').toBeDefined();
    expect(altitude![0]).toBe('2');
    expect(altitude![2]).toBe('haut');
    expect(altitude![3]).not.toMatch(/translation missing|csvError\./i);
    expect(altitude![3].length).toBeGreaterThan(10);
    for (const cells of lines.slice(1)) expect(cells[3]).not.toMatch(/translation missing|csvError\./i);
    // The dialog closes without storing anything.
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();
    expect(await api.count(name, 'sites')).toBe(0);
  });

  await test.step('the same report in English', async () => {
    await switchLanguage(page, 'English');
    const dialog = await openUpload(page, 'Sites', 'Load a CSV file into Sites');
    await dialog.getByLabel('CSV file').setInputFiles(csvFixture('fieldnotes-sites-broken.csv'));
    await dialog.getByRole('button', { name: 'Check', exact: true }).click();
    const report = dialog.getByTestId('csv-report');
    await expect(report.getByRole('heading', { name: /errors in fieldnotes-sites-broken\.csv$/ })).toBeVisible();
    await expect(report.getByRole('columnheader', { name: 'Problem' })).toBeVisible();
    for (const text of await report.locator('[data-code]').allInnerTexts()) {
      expect(text).not.toMatch(/translation missing|csvError\.|exceptionMessage\./i);
    }
    await dismissToasts(page);
    await see('reference-upload-errors-en');
    const saved = await download(page, () => report.getByRole('button', { name: 'Download the report' }).click());
    const lines = csvLines(saved.bytes, ';');
    expect(lines[0]).toEqual(['line', 'column', 'value', 'message']);
    await dialog.getByRole('button', { name: 'Close' }).click();
    // A spreadsheet's Unicode text, said once for the file, in English.
    const unicode = await openUpload(page, 'Sites', 'Load a CSV file into Sites');
    await unicode.getByLabel('CSV file').setInputFiles({
      name: 'sites-unicode.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('\ufeffcode;label;altitude\r\nlac_blanc;Lac Blanc;2352\r\n', 'utf16le'),
    });
    await unicode.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(unicode.getByTestId('csv-report').locator('[data-code="invalidFormat"]')).toContainText(
      'The file is saved as UTF-16',
    );
    await dismissToasts(page);
    await see('reference-upload-utf16-en');
    await unicode.getByRole('button', { name: 'Close' }).click();
    await switchLanguage(page, 'Français');
    await expect(page.getByRole('heading', { name: 'Références de Carnet de terrain' })).toBeVisible();
  });

  await test.step('a file saved as Latin-1: said so, in words a spreadsheet user can act on', async () => {
    const dialog = await openUpload(page, 'Sites');
    const latin1 = Buffer.from(
      'code;label;altitude\nlac_blanc;Lac Blanc;2352\npres;Pr\xe9s de Loriaz;2020\n',
      'latin1',
    );
    await dialog
      .getByLabel('Fichier CSV')
      .setInputFiles({ name: 'sites-latin1.csv', mimeType: 'text/csv', buffer: latin1 });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    const report = dialog.getByTestId('csv-report');
    await expect(report.locator('[data-code="invalidFormat"]')).toContainText('La colonne 2 n’est pas du texte UTF-8');
    await expect(report.locator('[data-code="invalidFormat"]')).toContainText('« CSV UTF-8 »');
    await expect(dialog.getByRole('button', { name: 'Envoyer', exact: true })).toBeDisabled();
    await dismissToasts(page);
    await see('reference-upload-latin1-fr');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('a file saved as UTF-16 (a spreadsheet’s Unicode text): said once, for the file', async () => {
    const dialog = await openUpload(page, 'Sites');
    const utf16 = Buffer.from('\ufeffcode;label;altitude\r\nlac_blanc;Lac Blanc;2352\r\n', 'utf16le');
    await dialog
      .getByLabel('Fichier CSV')
      .setInputFiles({ name: 'sites-unicode.csv', mimeType: 'text/csv', buffer: utf16 });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    const report = dialog.getByTestId('csv-report');
    await expect(report.locator('[data-code="invalidFormat"]')).toHaveCount(1);
    await expect(report.locator('[data-code="invalidFormat"]')).toContainText('Le fichier est enregistré en UTF-16');
    await dismissToasts(page);
    await see('reference-upload-utf16-fr');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the fixed file: valid, sent, counted in the tree', async () => {
    const dialog = await openUpload(page, 'Sites');
    await dialog.getByLabel('Fichier CSV').setInputFiles(csvFixture('fieldnotes-sites.csv'));
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(dialog.getByText('3 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await expect(dialog.getByTestId('csv-report')).toHaveCount(0);
    await see('reference-upload-valid-fr');
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(toast(page, '3 lignes chargées dans Sites.')).toBeVisible();
    await expect(toast(page, '3 lignes ajoutées, 0 remplacée.')).toBeVisible();
    await see('reference-upload-stored-fr');
    await expect(dialog).toBeHidden();
    await expect(node(page, 'sites').getByLabel('3 lignes')).toBeVisible();
    expect(await api.count(name, 'sites')).toBe(3);
  });

  await test.step('offline: the bigger file is checked on the device and queued', async () => {
    // Kept on the device: the application and its references.
    await waitForServiceWorker(page);
    await page.goto(`/applications/${name}`);
    await page.getByRole('button', { name: 'Rendre disponible hors ligne' }).click();
    await expect(toast(page, 'L’application est disponible hors ligne sur cet appareil.')).toBeVisible();

    await goOffline(context, page);
    await page.goto(`/applications/${name}/references`);
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(node(page, 'sites').getByLabel('3 lignes')).toBeVisible();
    const dialog = await openUpload(page, 'Sites');
    await dialog
      .getByLabel('Fichier CSV')
      .setInputFiles({ name: 'more-sites.csv', mimeType: 'text/csv', buffer: generatedCsv() });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(dialog.getByText('32 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await dismissToasts(page);
    await see('reference-upload-offline-fr');
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const badge = page.getByTestId('pending-badge');
    await expect(badge).toHaveText('1');
    await expect(badge).toHaveAccessibleName('1 modifications en attente');
    expect(await api.count(name, 'sites')).toBe(3);
  });

  await test.step('offline: counts are checked against the sites and species kept on the device', async () => {
    await page.goto(`/applications/${name}/dataTypes`);
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    const dialog = await openUpload(page, 'Comptages');
    await dialog
      .getByLabel('Fichier CSV')
      .setInputFiles({ name: 'counts-wrong.csv', mimeType: 'text/csv', buffer: Buffer.from(COUNTS_WITH_UNKNOWN_SITE) });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    const unknown = dialog.getByTestId('csv-report').locator('[data-code="invalidReferenceWithComponent"]');
    await expect(unknown).toHaveCount(1);
    await expect(unknown).toContainText('« nowhere » n’est pas une valeur de Sites (site).');
    await expect(unknown).toContainText('lac_blanc');
    await expect(dialog.getByText('Pas de copie de', { exact: false })).toHaveCount(0);
    await dismissToasts(page);
    await see('data-upload-offline-errors-fr');
    await dialog
      .getByLabel('Fichier CSV')
      .setInputFiles({ name: 'counts.csv', mimeType: 'text/csv', buffer: Buffer.from(COUNTS_WITH_QUEUED_SITE) });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(dialog.getByText('3 lignes vérifiées : le fichier est valide.')).toBeVisible();
    // A station loaded in this outing and its counts are recorded together, the device saying where it knows it from.
    await expect(dialog.getByTestId('device-notes')).toHaveText(
      'Connu par vos envois dans Sites qui attendent encore d’être envoyés : site_07.',
    );
    await see('data-upload-offline-queued-site-fr');
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
    const badge = page.getByTestId('pending-badge');
    await expect(badge).toHaveText('2');
    expect(await api.count(name, 'counts', 'data')).toBe(0);

    await badge.click();
    await expect(page).toHaveURL(/\/pendingChanges$/);
    await expect(page.getByTestId('pending-change').filter({ hasText: 'more-sites.csv' })).toHaveAttribute(
      'data-status',
      'queued',
    );
    await expect(page.getByTestId('pending-change').filter({ hasText: 'counts.csv' })).toHaveAttribute(
      'data-status',
      'queued',
    );
    // Each change names what it loads into: a reference, or a data type.
    await expect(page.getByText(`Charger more-sites.csv dans la référence sites de ${name}`)).toBeVisible();
    await expect(page.getByText(`Charger counts.csv dans le type de données counts de ${name}`)).toBeVisible();
    await dismissToasts(page);
    await see('reference-upload-pending-fr');
  });

  await test.step('back online: stored exactly once', async () => {
    const change = page.getByTestId('pending-change').filter({ hasText: 'more-sites.csv' });
    await goOnline(context, page);
    await expect(change).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(page.getByTestId('pending-change').filter({ hasText: 'counts.csv' })).toHaveAttribute(
      'data-status',
      'done',
      { timeout: 30_000 },
    );
    await expect(page.getByTestId('pending-badge')).toHaveCount(0);
    expect(await api.count(name, 'sites')).toBe(35);
    expect(await api.count(name, 'counts', 'data')).toBe(3);
    // A second sending would bring back a line deleted meanwhile: it stays deleted.
    await api.deleteReferenceRow(name, 'sites', 'site_32');
    const syncNow = page.getByRole('button', { name: 'Synchroniser maintenant' });
    await syncNow.click();
    await page.reload();
    await expect(change).toHaveAttribute('data-status', 'done');
    // A pass asked for after the reload's own waits for it (one pass at a time): once "Sync now" is enabled again
    // after a click, both passes are over and anything they sent has been answered.
    await syncNow.click();
    await expect(syncNow).toBeEnabled();
    expect(await api.count(name, 'sites')).toBe(34);
    expect(await api.naturalKeys(name, 'sites')).not.toContain('site_32');
    await see('reference-upload-synced-fr');
  });

  const all = [...FIXED, ...GENERATED.slice(0, 31)];
  const byAltitude = [...all].sort((a, b) => a.altitude - b.altitude);

  await test.step('browse: the rows of Sites, ten a page', async () => {
    await page.goto(`/applications/${name}/references`);
    await expect(node(page, 'sites').getByLabel('34 lignes')).toBeVisible();
    await page.getByRole('link', { name: 'Consulter Sites' }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/references/sites$`));
    await expect(page.getByRole('heading', { name: 'Sites', exact: true })).toBeVisible();
    await expect(page.getByText('34 lignes', { exact: true })).toBeVisible();
    await expect(page.getByTestId('reference-row')).toHaveCount(10);
    await see('reference-consultation-fr');
  });

  await test.step('sort by a column header', async () => {
    const header = page.getByRole('columnheader', { name: 'altitude' });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => shownKeys(page)).toEqual(byAltitude.slice(0, 10).map((s) => s.code));
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect
      .poll(() => shownKeys(page))
      .toEqual(
        [...byAltitude]
          .reverse()
          .slice(0, 10)
          .map((s) => s.code),
      );
    await see('reference-sorted-fr');
  });

  await test.step('pages: next page, then 25 a page', async () => {
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect
      .poll(() => shownKeys(page))
      .toEqual(
        [...byAltitude]
          .reverse()
          .slice(10, 20)
          .map((s) => s.code),
      );
    // While the next page is read, the rows shown stay (dimmed, the table busy) instead of a blank table.
    let releasePage: () => void = () => {};
    const held = new Promise<void>((resolve) => (releasePage = resolve));
    // The service worker sends the page's API calls: the context's routes see them, the page's do not.
    const pageAsked = page.context().waitForEvent('request', (request) => request.url().includes('%22offset%22%3A20'));
    const thirdPage = (url: URL) => url.href.includes('%22offset%22%3A20');
    await page.context().route(thirdPage, async (route) => {
      await held;
      await route.continue();
    });
    await pages.getByRole('button', { name: 'Page suivante' }).click();
    await pageAsked;
    await expect(page.getByTestId('reference-table')).toHaveAttribute('aria-busy', 'true');
    expect(await shownKeys(page)).toEqual(
      [...byAltitude]
        .reverse()
        .slice(10, 20)
        .map((s) => s.code),
    );
    releasePage();
    await expect
      .poll(() => shownKeys(page))
      .toEqual(
        [...byAltitude]
          .reverse()
          .slice(20, 30)
          .map((s) => s.code),
      );
    await expect(page.getByTestId('reference-table')).toHaveAttribute('aria-busy', 'false');
    await page.context().unroute(thirdPage);
    await pages.getByRole('button', { name: 'Page suivante' }).click();
    await expect
      .poll(() => shownKeys(page))
      .toEqual(
        [...byAltitude]
          .reverse()
          .slice(30)
          .map((s) => s.code),
      );
    await see('reference-last-page-fr');
    await page.getByLabel('Lignes par page').selectOption('25');
    await expect(page.getByTestId('reference-row')).toHaveCount(25);
    await expect(pages.getByRole('button', { name: 'Page 2', exact: true })).toBeVisible();
    await expect(pages.getByRole('button', { name: 'Page 3', exact: true })).toHaveCount(0);
    await page.getByLabel('Lignes par page').selectOption('10');
  });

  const inInterval = byAltitude.filter((s) => s.altitude >= 2000 && s.altitude <= 2500).reverse();

  await test.step('filter: an interval on altitude', async () => {
    await page.getByRole('button', { name: 'Filtres' }).click();
    const panel = page.getByTestId('filter-panel');
    await expect(panel).toBeVisible();
    const altitude = panel.getByRole('group', { name: 'altitude' });
    await altitude.getByLabel('de').fill('2000');
    await altitude.getByLabel('à').fill('2500');
    await expect(page.getByText(`${inInterval.length} lignes`, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filtres (1)' })).toBeVisible();
    await expect.poll(() => shownKeys(page)).toEqual(inInterval.slice(0, 10).map((s) => s.code));
    await dismissToasts(page);
    await see('reference-filtered-fr');
  });

  await test.step('export: the filtered rows as CSV (safe for spreadsheets) and as export.zip', async () => {
    await page.getByRole('button', { name: 'Exporter' }).click();
    await expect(page.getByRole('menuitemcheckbox', { name: /Sans risque pour les tableurs/ })).toBeChecked();
    await expect(page.getByText(`Les ${inInterval.length} lignes qui répondent aux filtres`)).toBeVisible();
    await see('reference-export-menu-fr');
    const csv = await download(page, () => page.getByRole('menuitem', { name: 'Fichier CSV', exact: true }).click());
    expect(csv.fileName).toBe('sites.csv');
    expect(new TextDecoder().decode(csv.bytes).split(/\r?\n/).filter(Boolean)).toHaveLength(inInterval.length + 1);
    await page.getByRole('button', { name: 'Exporter' }).click();
    const saved = await download(page, () => page.getByRole('menuitem', { name: 'Zip du fichier CSV' }).click());
    expect(saved.fileName).toBe('export.zip');
    const files = zipTexts(saved.bytes);
    expect(Object.keys(files)).toEqual(['sites.csv']);
    const lines = files['sites.csv'].split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(inInterval.length + 1);
    expect(lines[0]).toMatch(/code.*label.*altitude/);
    for (const site of inInterval) expect(files['sites.csv']).toContain(site.code);
    expect(files['sites.csv']).not.toContain('col_de_voza');
  });

  await test.step('export: the filtered rows to load again, as uploaded, never safe for spreadsheets', async () => {
    await page.getByRole('button', { name: 'Exporter' }).click();
    await page.getByRole('menuitemradio', { name: /Pour recharger/ }).click();
    const safe = page.getByRole('menuitemcheckbox', { name: /Sans risque pour les tableurs/ });
    await expect(safe).not.toBeChecked();
    await expect(safe).toHaveAttribute('aria-disabled', 'true');
    await see('reference-export-menu-upload-fr');
    const csv = await download(page, () => page.getByRole('menuitem', { name: 'Fichier CSV', exact: true }).click());
    const lines = new TextDecoder().decode(csv.bytes).split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(inInterval.length + 1);
    for (const site of inInterval) expect(lines.join('\n')).toContain(site.code);
    await page.getByRole('button', { name: 'Exporter' }).click();
    await page.getByRole('menuitemradio', { name: /Pour lire/ }).click();
    await expect(page.getByRole('menuitemcheckbox', { name: /Sans risque pour les tableurs/ })).toBeChecked();
    await page.keyboard.press('Escape');
  });

  await test.step('delete a row after confirmation', async () => {
    const target = inInterval[0];
    await page.getByRole('button', { name: `Supprimer ${target.label}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Supprimer la ligne ${target.code} ?` });
    await expect(dialog).toBeVisible();
    await see('reference-delete-confirm-fr');
    // Cancel keeps it.
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).toBeHidden();
    expect(await api.naturalKeys(name, 'sites')).toContain(target.code);
    await page.getByRole('button', { name: `Supprimer ${target.label}`, exact: true }).click();
    await dialog.getByRole('button', { name: 'Supprimer', exact: true }).click();
    await expect(toast(page, `La ligne ${target.code} a été supprimée.`)).toBeVisible();
    await expect(page.getByText(`${inInterval.length - 1} lignes`, { exact: true })).toBeVisible();
    await expect.poll(() => shownKeys(page)).not.toContain(target.code);
    expect(await api.count(name, 'sites')).toBe(33);
    expect(await api.naturalKeys(name, 'sites')).not.toContain(target.code);
  });

  await test.step('the consultation in English', async () => {
    await switchLanguage(page, 'English');
    await expect(page.getByText('Lines per page')).toBeVisible();
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await expect(page.getByText('33 lines', { exact: true })).toBeVisible();
    const panel = page.getByTestId('filter-panel');
    await panel.getByRole('group', { name: 'altitude' }).getByLabel('from').fill('2500');
    await panel.getByRole('group', { name: 'altitude' }).getByLabel('to').fill('3000');
    const high = all.filter((s) => s.altitude >= 2500 && s.code !== inInterval[0].code);
    await expect(page.getByText(`${high.length} lines`, { exact: true })).toBeVisible();
    await dismissToasts(page);
    await see('reference-consultation-en');
    await page.getByRole('button', { name: 'Export' }).click();
    await see('reference-export-menu-en');
    await page.getByRole('menuitemradio', { name: /To load again/ }).click();
    await see('reference-export-menu-upload-en');
    await page.getByRole('menuitemradio', { name: /To read/ }).click();
    const saved = await download(page, () => page.getByRole('menuitem', { name: 'Zip of the CSV file' }).click());
    const lines = zipTexts(saved.bytes)['sites.csv'].split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(high.length + 1);
    await page.getByRole('link', { name: 'References' }).click();
    await expect(page.getByRole('heading', { name: 'References of Field notebook' })).toBeVisible();
    await expect(node(page, 'sites').getByLabel('33 lines')).toBeVisible();
    await see('references-tree-en');
    await switchLanguage(page, 'Français');
  });
});
