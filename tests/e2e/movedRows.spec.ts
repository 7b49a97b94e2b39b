import { readFile } from 'node:fs/promises';
import { signInAsAdmin, switchLanguage } from './applicationSteps';
import { csvFixture, setUpApi } from './dataSteps';
import { expect, test, toast } from './fixtures';

/**
 * A reference file moving a place nothing points to under another parent: the grant naming the place follows it,
 * and the upload's confirmation says how many rows moved and what followed them, in French and in English.
 */

test('a place moved under another parent: its grant follows, and the confirmation says so', async ({
  page,
  unique,
  look,
}) => {
  test.setTimeout(120_000);
  const name = unique('moved');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'massifs.yaml');
  await api.loadReference(name, 'places', 'massifs-places.csv');
  const places = await readFile(csvFixture('massifs-places.csv'), 'utf8');
  const granted = await page.request.post(`/api/v1/applications/${name}/authorization`, {
    data: {
      name: 'Mont Blanc Sud',
      usersId: ['e2e-admin'],
      authorizationsWithRestriction: {
        sightings: {
          operationTypes: ['extraction'],
          requiredAuthorizations: { place: ['placesKalps.placesKmont_blanc_sud'] },
        },
      },
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);

  const load = async (csv: string, labels: { load: string; file: string; check: string; send: string }) => {
    await page.getByRole('button', { name: labels.load, exact: true }).click();
    const dialog = page.getByTestId('csv-upload');
    await dialog
      .getByLabel(labels.file)
      .setInputFiles({ name: 'places.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: labels.check, exact: true }).click();
    await dialog.getByRole('button', { name: labels.send, exact: true }).click();
  };

  await test.step('moved under the Vanoise, in French', async () => {
    await page.goto(`/applications/${name}/references`);
    await load(places.replace('mont_blanc_sud;alps', 'mont_blanc_sud;vanoise'), {
      load: 'Charger un fichier CSV dans Lieux',
      file: 'Fichier CSV',
      check: 'Vérifier',
      send: 'Envoyer',
    });
    await expect(
      toast(
        page,
        'Lignes déplacées sous un autre parent\u00a0: 1. Autorisations qui les suivent à leur nouvelle place\u00a0: 1\u202f; demandes de droits\u00a0: 0\u202f; fichiers additionnels\u00a0: 0.',
      ),
    ).toBeVisible();
    await look(page, 'moved-rows-fr');
  });

  await test.step('moved back, in English', async () => {
    await switchLanguage(page, 'English');
    await load(places, { load: 'Load a CSV file into Places', file: 'CSV file', check: 'Check', send: 'Send' });
    await expect(
      toast(
        page,
        'Lines moved under another parent: 1. Authorizations following them to their new place: 1; rights requests: 0; additional files: 0.',
      ),
    ).toBeVisible();
    await look(page, 'moved-rows-en');
    const grants = await page.request.get(`/api/v1/applications/${name}/authorization`);
    expect(await grants.text()).toContain('"placesKalps.placesKmont_blanc_sud"');
  });
});
