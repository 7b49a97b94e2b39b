import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInAsAdmin, switchLanguage } from './applicationSteps';
import { csvLines, download, lookFromTop } from './dataSteps';

/**
 * A wide reference read on a tablet: 40 columns in three tag groups and more lines than the largest page. The header
 * and the first column stay in sight while the table scrolls, a cue says columns are hidden past an edge, columns
 * switched off stay off when the page opens again, and every download (filtered or not) shows its progress and holds
 * every line it announced.
 */

const COLUMNS = 38;
const LINES = 2_400;
const group = (i: number) => (i < 13 ? 'chemistry' : i < 26 ? 'physics' : 'biology');
const column = (i: number) => `m${String(i + 1).padStart(2, '0')}`;

const configuration = (name: string) => `OA_version: 2.0.1
OA_application:
  OA_name: ${name}
  OA_version: 1.0.0
  OA_defaultLanguage: fr
  OA_i18n:
    OA_title: {fr: Stations larges, en: Wide stations}
OA_tags:
  chemistry: {fr: Chimie, en: Chemistry}
  physics: {fr: Physique, en: Physics}
  biology: {fr: Biologie, en: Biology}
OA_data:
  stations:
    OA_i18n:
      OA_title: {fr: Stations, en: Stations}
    OA_naturalKey: [code]
    OA_i18nDisplayPattern:
      OA_title: {fr: "{label}", en: "{label}"}
    OA_basicComponents:
      code:
        OA_required: true
      label: null
${Array.from(
  { length: COLUMNS },
  (_, i) => `      ${column(i)}:
        OA_tags: [${group(i)}]
        OA_exportHeader: {OA_title: {fr: "Mesure ${i + 1}", en: "Measure ${i + 1}"}}
        OA_checker: {OA_name: OA_integer}`,
).join('\n')}
`;

/** Line n: station s0001… named "Station n", with odd stations on the "Lac" side (for a filter that keeps half). */
const stationsCsv = () =>
  [
    ['code', 'label', ...Array.from({ length: COLUMNS }, (_, i) => column(i))].join(';'),
    ...Array.from({ length: LINES }, (_, n) =>
      [
        `s${String(n + 1).padStart(4, '0')}`,
        `${n % 2 ? 'Lac' : 'Col'} ${n + 1}`,
        ...Array.from({ length: COLUMNS }, (_, i) => String((n * 7 + i) % 1000)),
      ].join(';'),
    ),
  ].join('\n') + '\n';

async function createWideApplication(page: Page, name: string) {
  const app = `/api/v1/applications/${name}`;
  const created = await page.request.post(app, {
    multipart: {
      comment: '',
      file: { name: 'wide.yaml', mimeType: 'application/yaml', buffer: Buffer.from(configuration(name)) },
    },
  });
  expect(await created.text()).toContain('"type":"result"');
  const loaded = await page.request.post(`${app}/references/stations`, {
    multipart: { file: { name: 'stations.csv', mimeType: 'text/csv', buffer: Buffer.from(stationsCsv()) } },
  });
  expect(loaded.status(), await loaded.text()).toBe(201);
}

/** Where the table's first body cell lies, relative to the box the table scrolls in. */
const firstCellOffset = (page: Page) =>
  page.getByTestId('reference-table').evaluate((table) => {
    const box = table.parentElement!.getBoundingClientRect();
    const cell = table.querySelector('tbody td')!.getBoundingClientRect();
    const header = table.querySelector('thead th')!.getBoundingClientRect();
    return { left: Math.round(cell.left - box.left), headerTop: Math.round(header.top - box.top) };
  });

test('a 40-column reference of 2,400 lines: sticky header and first column, scroll cue, remembered columns, downloads with progress', async ({
  page,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('wide');
  await signInAsAdmin(page);
  await createWideApplication(page, name);
  const table = page.getByTestId('reference-table');
  const box = table.locator('xpath=..');

  await test.step('the table scrolls inside its box with its header and first column in sight, and says so', async () => {
    await page.goto(`/applications/${name}/references/stations`);
    await expect(page.getByText(`${LINES.toLocaleString('fr-FR').replace(/\s/g, '\u202f')} lignes`)).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(1 + 10);
    await expect(table.getByRole('columnheader', { name: 'Mesure 1', exact: true })).toBeVisible();
    const cue = page.getByTestId('scroll-cue');
    await expect(cue).toContainText('Plus de colonnes que l’écran n’en montre');
    await expect(cue.getByRole('button', { name: 'Montrer les colonnes de gauche' })).toBeDisabled();
    await see('wide-table-fr');
    // The button scrolls smoothly: its scroll must end before the next one, or it goes on from under it.
    type Watched = HTMLElement & { scrollEnded?: Promise<number> };
    await box.evaluate((element: Watched) => {
      element.scrollEnded = new Promise((resolve) =>
        element.addEventListener('scrollend', () => resolve(element.scrollLeft), { once: true }),
      );
    });
    await cue.getByRole('button', { name: 'Montrer les colonnes de droite' }).click();
    expect(await box.evaluate((element: Watched) => element.scrollEnded)).toBeGreaterThan(200);
    await expect(box).toHaveAttribute('data-more-left', 'true');
    expect((await firstCellOffset(page)).left).toBeLessThanOrEqual(1);
    await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('Col 1');
    await box.evaluate((element) => element.scrollTo({ top: element.scrollHeight, left: element.scrollWidth }));
    await expect(box).toHaveAttribute('data-more-right', 'false');
    expect((await firstCellOffset(page)).headerTop).toBeLessThanOrEqual(1);
    await expect(cue.getByRole('button', { name: 'Montrer les colonnes de droite' })).toBeDisabled();
    await see('wide-table-scrolled-fr');
  });

  await test.step('columns switched off, one by one or by tag, stay off when the page opens again', async () => {
    await page.getByTestId('columns-menu').click();
    await page.getByRole('menuitemcheckbox', { name: 'Mesure 2', exact: true }).click();
    await expect(page.getByRole('menuitemcheckbox', { name: 'Mesure 2', exact: true })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await see('wide-columns-menu-fr');
    await page.keyboard.press('Escape');
    await page.getByRole('group', { name: 'Colonnes par étiquette' }).getByRole('button', { name: 'Biologie' }).click();
    await expect(table.getByRole('columnheader', { name: 'Mesure 2', exact: true })).toHaveCount(0);
    await expect(table.getByRole('columnheader', { name: 'Mesure 30', exact: true })).toHaveCount(0);
    await expect(page.getByTestId('columns-menu')).toContainText('(27/40)');
    await page.reload();
    await expect(table.getByRole('columnheader', { name: 'Mesure 1', exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Mesure 2', exact: true })).toHaveCount(0);
    await expect(table.getByRole('columnheader', { name: 'Mesure 30', exact: true })).toHaveCount(0);
    await page.getByTestId('columns-menu').click();
    await page.getByRole('menuitem', { name: 'Montrer toutes les colonnes' }).click();
    await expect(table.getByRole('columnheader', { name: 'Mesure 30', exact: true })).toBeVisible();
  });

  await test.step('every line downloads as CSV with its progress, then the filtered lines or every line', async () => {
    await page.getByTestId('export-menu').click();
    const whole = await download(page, () => page.getByRole('menuitem', { name: 'Fichier CSV', exact: true }).click());
    const progress = page.getByTestId('download-progress');
    await expect(progress).toHaveAttribute('data-status', 'done');
    await expect(progress).toContainText('stations.csv enregistré');
    const lines = csvLines(whole.bytes, ';');
    expect(lines).toHaveLength(1 + LINES);
    expect(lines[0]).toHaveLength(2 + COLUMNS);
    expect(lines.at(-1)![0]).toBe('s2400');
    await see('wide-download-done-fr');

    await page.getByTestId('download-progress').getByRole('button', { name: 'Fermer' }).click();
    await page.getByRole('button', { name: 'Filtres' }).click();
    const measure = page.getByRole('group', { name: 'Mesure 1', exact: true });
    await measure.getByLabel('de').fill('0');
    await measure.getByLabel('à').fill('499');
    await expect(page.getByRole('button', { name: 'Filtres (1)' })).toBeVisible();
    await expect(page.getByText(/^[\d\u202f]+ lignes$/)).not.toHaveText(
      `${LINES.toLocaleString('fr-FR').replace(/\s/g, '\u202f')} lignes`,
    );
    const filtered = Number((await page.getByText(/^[\d\u202f]+ lignes$/).textContent())!.replace(/\D/g, ''));
    expect(filtered).toBeGreaterThan(1000);
    expect(filtered).toBeLessThan(LINES);
    await page.getByTestId('export-menu').click();
    await expect(page.getByTestId('export-filtered')).toHaveAttribute('aria-checked', 'true');
    await see('wide-export-menu-filtered-fr');
    const matching = await download(page, () =>
      page.getByRole('menuitem', { name: 'Fichier CSV', exact: true }).click(),
    );
    expect(csvLines(matching.bytes, ';')).toHaveLength(1 + filtered);
    await page.getByTestId('export-menu').click();
    await page.getByTestId('export-all').click();
    const every = await download(page, () => page.getByRole('menuitem', { name: 'Fichier CSV', exact: true }).click());
    expect(csvLines(every.bytes, ';')).toHaveLength(1 + LINES);
  });

  await test.step('the same in English', async () => {
    await switchLanguage(page, 'English');
    await page.goto(`/applications/${name}/references/stations`);
    await expect(page.getByTestId('scroll-cue')).toContainText('More columns than the screen holds');
    await see('wide-table-en');
    await page.getByTestId('columns-menu').click();
    await see('wide-columns-menu-en');
    await page.keyboard.press('Escape');
    await page.getByTestId('export-menu').click();
    const json = await download(page, () => page.getByRole('menuitem', { name: 'JSON file', exact: true }).click());
    expect(
      (JSON.parse(Buffer.from(json.bytes).toString('utf8')) as { referenceValues: unknown[] }).referenceValues,
    ).toHaveLength(LINES);
    await expect(page.getByTestId('download-progress')).toContainText('stations.json saved');
    await see('wide-download-done-en');
  });
});
