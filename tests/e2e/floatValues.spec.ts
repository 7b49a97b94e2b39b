import { expect, test } from './fixtures';
import { dismissToasts, signInAsAdmin, switchLanguage } from './applicationSteps';
import { setUpApi } from './dataSteps';

/**
 * Numbers never changed without a word (fidelity audit M2, S4): a float a number cannot hold exactly is refused by
 * the check on the device, saying what it would have become; a list of floats that looks like a decimal comma is
 * read as the original reads it, and the device says so before the file is sent.
 */

const LOSING = 'code;mass;depths\ns1;9007199254740993;1.5\ns2;0.10;\n';
const COMMA_LIST = 'code;mass;depths\ns1;12,5;"1,5"\ns2;0.10;"9,4.5"\n';

test('floats: digits a number cannot keep are refused, a list holding a decimal comma is pointed out', async ({
  page,
  unique,
  look,
}) => {
  test.setTimeout(120_000);
  const name = unique('floats');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'measures.yaml');
  await page.goto(`/applications/${name}/references`);
  const dialog = page.getByTestId('csv-upload');

  await test.step('a float that would lose digits: refused on the device, with what it would become', async () => {
    await page.getByRole('button', { name: 'Charger un fichier CSV dans Échantillons', exact: true }).click();
    await dialog.getByLabel('Fichier CSV').setInputFiles({
      name: 'samples.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(LOSING),
    });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(dialog.getByTestId('csv-report').locator('[data-code="floatPrecisionLost"]')).toContainText(
      '« 9007199254740993 » serait enregistré comme 9007199254740992 : un nombre garde environ 15 chiffres significatifs (mass).',
    );
    await expect(dialog.getByRole('button', { name: 'Envoyer', exact: true })).toBeDisabled();
    await dismissToasts(page);
    await look(page, 'float-precision-lost-fr');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
  });

  await test.step('a list of floats with a decimal comma: read as several numbers, and said', async () => {
    await page.getByRole('button', { name: 'Charger un fichier CSV dans Échantillons', exact: true }).click();
    await dialog.getByLabel('Fichier CSV').setInputFiles({
      name: 'samples.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(COMMA_LIST),
    });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(dialog.getByText('2 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await expect(dialog.getByTestId('device-notes')).toHaveText(
      'Dans depths, les virgules séparent les nombres d’une liste, donc chacune de ces valeurs est lue comme plusieurs nombres : « 1,5 ». Écrivez un point décimal (1.5) pour un nombre à décimales.',
    );
    await dismissToasts(page);
    await look(page, 'float-decimal-comma-list-fr');
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => api.count(name, 'samples')).toBe(2);
  });

  await test.step('the same note in English', async () => {
    await switchLanguage(page, 'English');
    await page.getByRole('button', { name: 'Load a CSV file into Samples', exact: true }).click();
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'samples.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(COMMA_LIST),
    });
    await dialog.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(dialog.getByTestId('device-notes')).toHaveText(
      'In depths, commas separate the numbers of a list, so each of these is read as several numbers: “1,5”. Write a decimal point (1.5) for a number with decimals.',
    );
    await dismissToasts(page);
    await look(page, 'float-decimal-comma-list-en');
  });
});
