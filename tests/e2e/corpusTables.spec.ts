import { expect, test } from './fixtures';
import { signInAsAdmin, switchLanguage } from './applicationSteps';
import { lookFromTop } from './dataSteps';
import { loadCorpusApplication, plannedCorpusApplication } from './corpusSteps';

/**
 * OpenADOM's monsore application, loaded from the corpus as the corpus suite plans it (eleven references, the `pem`
 * data type deposited per site and published), read as a person would on a tablet: its tables, a row's details,
 * the deposits page of a site under a recursive parent and the synthesis. Every screen looked at is also scanned
 * for stored keys (`NULL_KEY__scarff`, `sitesKnivelle__p1`), which must never reach the reader.
 */

const monsore = plannedCorpusApplication('monsore');

test('monsore from the corpus: wide data table, references and deposits read without stored keys, fr and en', async ({
  page,
  unique,
  look,
}) => {
  test.skip(!monsore, 'the OpenADOM corpus is absent (../shared/corpus/openadom): nothing to load');
  test.setTimeout(240_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('monsore');
  await signInAsAdmin(page);
  await loadCorpusApplication(page, monsore!, name);
  const table = page.getByTestId('reference-table');

  await test.step('the pem data type: its lines, a scroll cue and natural keys in place of stored ones', async () => {
    await page.goto(`/applications/${name}/dataTypes/pem`);
    await expect(page.getByRole('heading', { name: 'Piégeage en Montée' })).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(1 + 10);
    await expect(table).not.toContainText(/NULL_KEY|[a-z]K[a-z]/);
    await see('monsore-pem-fr');
    await table
      .getByRole('button', { name: /^Détails/ })
      .first()
      .click();
    const details = page.getByTestId('row-details');
    await expect(details).toBeVisible();
    await see('monsore-pem-details-fr');
    await page.keyboard.press('Escape');
  });

  await test.step('a small reference and the reference with a recursive parent', async () => {
    await page.goto(`/applications/${name}/references/unites`);
    await expect(table.getByRole('row').first()).toBeVisible();
    await see('monsore-unites-fr');
    await page.goto(`/applications/${name}/references/sites`);
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(table).not.toContainText(/NULL_KEY/);
    await see('monsore-sites-fr');
  });

  await test.step('the deposits page names sites by their path, not by stored keys', async () => {
    await page.goto(`/applications/${name}/dataVersioning/pem`);
    await expect(page.getByRole('heading', { name: /Piégeage en Montée/ })).toBeVisible();
    await expect(page.getByLabel('Chargement')).toHaveCount(0);
    await expect(page.getByRole('combobox').first()).toBeVisible();
    await see('monsore-deposits-fr');
  });

  await test.step('the same in English', async () => {
    await switchLanguage(page, 'English');
    await page.goto(`/applications/${name}/dataTypes/pem`);
    await expect(table.getByRole('row')).toHaveCount(1 + 10);
    await see('monsore-pem-en');
    await page.goto(`/applications/${name}/dataTypes`);
    await expect(page.getByRole('button', { name: /Synthesis/ }).first()).toBeVisible();
    await see('monsore-data-types-en');
  });
});
