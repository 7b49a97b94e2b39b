import { expect, test } from './fixtures';
import { dismissToasts, signInAsAdmin, switchLanguage } from './applicationSteps';
import { lookFromTop, setUpApi, shownKeys } from './dataSteps';

/**
 * A filter on a component pointing to a reference is typed as people see the reference's rows (issue 26, item 2):
 * samplings point to lakes, shown by their name in each language. Part of a name, accents left out, offers the
 * lakes whose name has words beginning so; the one picked filters the samplings by its natural key while its chip
 * shows the name; by keyboard and by a tap; in French and in English.
 */
test('reference filters: typed by display label, picked among suggestions, filtering by natural key', async ({
  page,
  unique,
  look,
}) => {
  test.setTimeout(120_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('lakes');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'lakes-filters.yaml');
  await api.loadReference(name, 'lakes', 'lakes-lakes.csv');
  await api.loadReference(name, 'samplings', 'lakes-samplings.csv');

  await test.step('the API answers a display label with its natural key', async () => {
    const answer = await page.request.get(
      `/api/v1/applications/${name}/references/lakes/suggestions?${new URLSearchParams({ q: 'Lac Léman', lang: 'fr' })}`,
    );
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ suggestions: [{ naturalKey: 'leman', label: 'Lac Léman' }] });
  });

  await page.goto(`/applications/${name}/references/samplings`);
  await expect(page.getByRole('heading', { name: 'Prélèvements', exact: true })).toBeVisible();
  await expect(page.getByText('8 lignes', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Filtres' }).click();
  const panel = page.getByTestId('filter-panel');
  const field = panel.getByRole('combobox', { name: 'Filtrer Lac' });

  await test.step('typed without accents, a lake is offered by its name, and picked by keyboard', async () => {
    await field.fill('lac le');
    const list = page.getByRole('listbox', { name: 'Lignes de Lac' });
    await expect(list.getByRole('option')).toHaveText(['Lac Lémanleman']);
    await expect(field).toHaveAttribute('aria-expanded', 'true');
    await dismissToasts(page);
    await see('reference-filter-suggestions-fr');
    await field.press('ArrowDown');
    await expect(list.getByRole('option', { name: /Lac Léman/ })).toHaveAttribute('aria-selected', 'true');
    await field.press('Enter');
    await expect(panel.getByRole('button', { name: 'Retirer Lac Léman' })).toBeVisible();
    await expect(page.getByText('3 lignes', { exact: true })).toBeVisible();
    await expect.poll(async () => (await shownKeys(page)).sort()).toEqual(['s01', 's02', 's08']);
    await expect(field).toHaveValue('');
    await see('reference-filter-picked-fr');
  });

  await test.step('a word inside a name offers every lake it begins a word of; one more picked by a tap', async () => {
    await field.fill('LÉMAN');
    const list = page.getByRole('listbox', { name: 'Lignes de Lac' });
    await expect(list.getByRole('option')).toHaveCount(2);
    await list.getByRole('option', { name: /Bassin lémanique/ }).click();
    await expect(page.getByText('4 lignes', { exact: true })).toBeVisible();
    await expect.poll(async () => (await shownKeys(page)).sort()).toEqual(['s01', 's02', 's06', 's08']);
    await panel.getByRole('button', { name: 'Retirer Lac Léman' }).click();
    await expect.poll(() => shownKeys(page)).toEqual(['s06']);
    await field.fill('zzz');
    await expect(panel.getByText('Aucune ligne de la référence ne correspond.')).toBeVisible();
    await field.press('Escape');
    await field.fill('');
  });

  await test.step('in English, labels in English', async () => {
    await switchLanguage(page, 'English');
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await expect(page.getByText('8 lines', { exact: true })).toBeVisible();
    const english = page.getByTestId('filter-panel').getByRole('combobox', { name: 'Filter Lake' });
    await english.fill('genev');
    const list = page.getByRole('listbox', { name: 'Lines of Lake' });
    await expect(list.getByRole('option')).toHaveText(['Lake Genevaleman']);
    await dismissToasts(page);
    await see('reference-filter-suggestions-en');
    await list.getByRole('option', { name: /Lake Geneva/ }).click();
    await expect(page.getByText('3 lines', { exact: true })).toBeVisible();
    await expect(page.getByTestId('filter-panel').getByRole('button', { name: 'Remove Lake Geneva' })).toBeVisible();
    await see('reference-filter-picked-en');
    await switchLanguage(page, 'Français');
  });
});
