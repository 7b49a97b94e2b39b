import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, toast } from './fixtures';
import { dismissToasts, fixture, signInAsAdmin, switchLanguage, testConfiguration } from './applicationSteps';
import { setUpApi } from './dataSteps';

/** More species than a page of the table, so that the counts the update shows are the server's, not a page's. */
const SPECIES = 1_500;

test('an update that drops a column of a table holding rows says what it deletes, and applies only once confirmed', async ({
  page,
  unique,
  look,
}) => {
  const name = unique('update');
  const folder = path.resolve('test-results', name);
  const next = path.join(folder, 'surveys-1.1.0.yaml');
  const api = setUpApi(page);

  await test.step('an application whose species are loaded, and a version without their name column', async () => {
    await signInAsAdmin(page);
    await api.createApplication(name, 'surveys.yaml');
    const csv = ['code;name', ...Array.from({ length: SPECIES }, (_, i) => `sp${i};Espèce ${i}`)].join('\n') + '\n';
    const loaded = await page.request.post(`/api/v1/applications/${name}/references/species`, {
      multipart: { file: { name: 'species.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } },
    });
    expect(loaded.status(), await loaded.text()).toBe(201);
    const species = '  species:\n    OA_naturalKey: [code]\n    OA_basicComponents:\n      code: null\n';
    const current = await readFile(fixture('surveys.yaml'), 'utf8');
    expect(current).toContain(`${species}      name: null\n`);
    await mkdir(folder, { recursive: true });
    await writeFile(
      next,
      current.replace('  OA_version: 1.0.0', '  OA_version: 1.1.0').replace(`${species}      name: null\n`, species),
    );
  });

  await test.step('tested, the update lists the deletion with its count and waits for the confirmation', async () => {
    await page.goto(`/applicationCreation/${name}/1.0.0`);
    await testConfiguration(page, next);
    await expect(page.getByTestId('version-tag')).toHaveText('1.0.0 → 1.1.0');
    const impact = page.getByTestId('update-impact');
    await expect(impact).toContainText(`Les valeurs de name seront supprimées de ${SPECIES.toLocaleString('fr-FR')}`);
    const update = page.getByRole('button', { name: 'Modifier', exact: true });
    await expect(update).toBeDisabled();
    await dismissToasts(page);
    await look(page, 'application-update-impact-fr');
    await switchLanguage(page, 'English');
    await expect(impact).toContainText('The values of name will be deleted from');
    await look(page, 'application-update-impact-en');
    await switchLanguage(page, 'Français');
    await page.getByTestId('confirm-data-loss').check();
    await expect(update).toBeEnabled();
  });

  await test.step('confirmed, the update applies: the column is gone from every row', async () => {
    await page.getByRole('button', { name: 'Modifier', exact: true }).click();
    await expect(toast(page, `L’application ${name} a été modifiée.`)).toBeVisible();
    const rows = await page.request.get(`/api/v1/applications/${name}/references/species/json`);
    const body = (await rows.json()) as { totalRows: number; referenceValues: Array<{ values: object }> };
    expect(body.totalRows).toBe(SPECIES);
    expect(body.referenceValues.filter((row) => 'name' in row.values)).toEqual([]);
  });
});
