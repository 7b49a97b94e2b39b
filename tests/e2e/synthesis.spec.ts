import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { goOffline, lookFromTop, setUpApi, waitForServiceWorker } from './dataSteps';

/**
 * The synthesis of a data type: from the sparkline on its card, a chart of the lines with a value of a variable
 * over ten intervals of the period, with named axes dated in the UI language, a tooltip per bar (pointer and
 * keyboard), a table for screen readers that can be shown, and a variable to choose; French and English. A reader
 * of part of the data counts only the lines they may read, and opens the chart offline from the copy kept.
 */

const PLACES = ['alps', 'mont_blanc', 'aiguilles', 'mont_blanc_sud', 'vanoise'];
const DAY = 86_400_000;
const ddmmyyyy = (day: Date) =>
  `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;

/** A year of sightings, more of them in summer, one line in four without a count of birds. */
function sightings() {
  const lines: string[] = [];
  for (let time = Date.UTC(2024, 0, 1); time < Date.UTC(2025, 0, 1); time += DAY) {
    const day = new Date(time);
    const summer = day.getUTCMonth() >= 5 && day.getUTCMonth() <= 7;
    const places = summer ? PLACES : PLACES.slice(0, (day.getUTCDate() % 3) + 1);
    for (const place of places)
      lines.push(`${place};${ddmmyyyy(day)};${lines.length % 4 === 0 ? '' : lines.length % 13}`);
  }
  return lines;
}

/** A place and what lies under it, in the places' tree: what the partial reader may read. */
const MONT_BLANC = 'placesKalps.placesKmont_blanc';
const UNDER_MONT_BLANC = new Set(['mont_blanc', 'aiguilles']);

async function signedInPage(browser: Browser, login: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, login);
  return { context, page };
}

const node = (page: Page, name: string) => page.locator(`[data-testid="reference-node"][data-name="${name}"]`);

test('synthesis: a chart of the lines per variable over time, with axes, tooltips and a table; French and English', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(180_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('synth');
  const lines = sightings();
  const withBirds = lines.filter((line) => !line.endsWith(';')).length;
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'massifs.yaml');
  await api.loadReference(name, 'places', 'massifs-places.csv');
  const loaded = await page.request.post(`/api/v1/applications/${name}/data/sightings`, {
    multipart: {
      file: {
        name: 'sightings.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(['place;day;birds', ...lines].join('\n') + '\n'),
      },
    },
  });
  expect(loaded.status(), await loaded.text()).toBe(201);
  const { login: walker } = await registerUser(request, lastKey, unique('walker'));
  const granted = await page.request.post(`/api/v1/applications/${name}/authorization`, {
    data: {
      name: 'Mont Blanc',
      description: 'The Mont Blanc and what lies under it',
      usersId: [walker],
      authorizationsWithRestriction: {
        sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: [MONT_BLANC] } },
      },
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);
  const dialog = page.getByTestId('synthesis-dialog');
  const bars = dialog.getByTestId('synthesis-bar');
  const tooltip = dialog.getByTestId('synthesis-tooltip');
  const table = dialog.getByTestId('synthesis-table');

  await test.step('the card opens the chart: the most filled variable, its total, named axes in French', async () => {
    await page.goto(`/applications/${name}/dataTypes`);
    const opener = node(page, 'sightings').getByRole('button', {
      name: /^Synthèse de Observations\s: lignes du 1 janv\. 2024 au 31 déc\. 2024$/,
    });
    await expect(opener).toBeVisible();
    await see('synthesis-card-fr');
    await opener.click();
    await expect(dialog.getByRole('heading', { name: 'Synthèse de Observations' })).toBeVisible();
    await expect(
      dialog.getByText(
        'Lignes avec une valeur, du 1 janv. 2024 au 31 déc. 2024, parmi les lignes que vous pouvez lire.',
      ),
    ).toBeVisible();
    const variable = dialog.getByLabel('Variable', { exact: true });
    // Place and day fill every line; birds fewer: the first one by name among the fullest is shown.
    await expect(variable.locator('option')).toHaveText(
      [
        `day (${lines.length.toLocaleString('fr-FR')} lignes)`,
        `place (${lines.length.toLocaleString('fr-FR')} lignes)`,
        `birds (${withBirds.toLocaleString('fr-FR')} lignes)`,
      ].map((text) => text.replace(/\u202f/g, '\u202f')),
    );
    await expect(dialog.getByTestId('synthesis-total')).toHaveText(
      `day : ${lines.length.toLocaleString('fr-FR')} lignes avec une valeur`,
    );
    await expect(dialog.getByText('Début de chaque intervalle')).toBeVisible();
    await expect(dialog.getByText('Lignes avec une valeur', { exact: true })).toBeVisible();
    await expect(bars).toHaveCount(10);
    // Months name the intervals' starts on the time axis, in French.
    await expect(dialog.getByText('janv. 2024', { exact: true })).toBeVisible();
  });

  await test.step('a tooltip per bar, with the pointer and with the keyboard', async () => {
    await bars.nth(5).hover();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toHaveText(/^\d+ \S+ 2024 – \d+ \S+ 2024\s: [\d\u202f ]+ lignes$/);
    await bars.first().focus();
    await expect(tooltip).toHaveText(/^1 janv\. 2024 – \d+ \S+ 2024\s: [\d\u202f ]+ lignes$/);
    await page.keyboard.press('ArrowRight');
    await expect(bars.nth(1)).toBeFocused();
    await expect(bars.nth(1)).toHaveAttribute('tabindex', '0');
    await expect(bars.first()).toHaveAttribute('tabindex', '-1');
    await expect(tooltip).toHaveText((await bars.nth(1).getAttribute('aria-label')) ?? '');
    await see('synthesis-fr');
  });

  await test.step('the table: for screen readers, shown on demand; another variable', async () => {
    await expect(table.getByRole('table', { name: 'Lignes de day par intervalle' })).toBeAttached();
    await expect(table.getByRole('row')).toHaveCount(11);
    await dialog.getByRole('button', { name: 'Afficher en tableau' }).click();
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await dialog.getByLabel('Variable', { exact: true }).selectOption('birds');
    await expect(dialog.getByTestId('synthesis-total')).toHaveText(
      `birds : ${withBirds.toLocaleString('fr-FR')} lignes avec une valeur`,
    );
    const counts = await table.getByRole('row').locator('td:last-child').allInnerTexts();
    expect(counts.reduce((total, text) => total + Number(text.replace(/\D/g, '')), 0)).toBe(withBirds);
    await see('synthesis-table-fr');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toHaveCount(0);
  });

  await test.step('in English', async () => {
    await switchLanguage(page, 'English');
    await node(page, 'sightings')
      .getByRole('button', { name: /^Synthesis of Sightings: lines from Jan 1, 2024 to Dec 31, 2024$/ })
      .click();
    await expect(dialog.getByRole('heading', { name: 'Synthesis of Sightings' })).toBeVisible();
    await expect(dialog.getByText('Start of each interval')).toBeVisible();
    await expect(dialog.getByText('Lines with a value', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Jan 2024', { exact: true })).toBeVisible();
    await bars.nth(2).focus();
    await expect(tooltip).toHaveText(/^\w+ \d+, 2024 – \w+ \d+, 2024: [\d,]+ lines$/);
    await see('synthesis-en');
    await dialog.getByRole('button', { name: 'Show as a table' }).click();
    await expect(table.getByRole('columnheader', { name: 'Interval' })).toBeVisible();
    await see('synthesis-table-en');
  });

  await test.step('a reader of the Mont Blanc only: their lines, no total of the rest; offline from the kept copy', async () => {
    const mine = lines.filter((line) => UNDER_MONT_BLANC.has(line.split(';')[0])).length;
    const { context, page: walkerPage } = await signedInPage(browser, walker);
    await waitForServiceWorker(walkerPage);
    await walkerPage.goto(`/applications/${name}/dataTypes`);
    const card = node(walkerPage, 'sightings');
    const opener = card.getByRole('button', { name: /^Synthèse de Observations\s: lignes du / });
    await expect(opener).toBeVisible();
    // No count of the whole data type on the card: it would tell of the lines the reader may not read.
    await expect(card.getByLabel(/lignes$/)).toHaveCount(0);
    await goOffline(context, walkerPage);
    await walkerPage.reload();
    await opener.click();
    const walkerDialog = walkerPage.getByTestId('synthesis-dialog');
    await expect(walkerDialog.getByTestId('synthesis-total')).toHaveText(
      `day : ${mine.toLocaleString('fr-FR')} lignes avec une valeur`,
    );
    expect(mine).toBeLessThan(lines.length);
    await expect(walkerDialog.getByTestId('synthesis-bar')).toHaveCount(10);
    await lookFromTop(walkerPage, look, 'synthesis-partial-reader-offline-fr');
    await context.close();
  });
});
