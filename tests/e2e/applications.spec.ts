import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, toast } from './fixtures';
import {
  CORPUS,
  cardNames,
  corpusPresent,
  dismissToasts,
  fixture,
  grantPatternInUi,
  registerUser,
  saveCreatorRights,
  signIn,
  signInAsAdmin,
  signOut,
  switchLanguage,
  testConfiguration,
} from './applicationSteps';
import { setUpApi } from './dataSteps';

/** The corpus configuration the creator starts with (read in place), or our own when the corpus is absent. */
const FIRST = corpusPresent
  ? {
      file: path.join(CORPUS, 'doc_basicComponents/configuration.yaml'),
      fileName: 'basic_case',
      title: 'Exemple de configuration basique',
      version: '1.0.1',
    }
  : { file: fixture('fieldnotes-v1.yaml'), fileName: 'fieldnotes', title: 'Carnet de terrain', version: '1.0.0' };

test('a creator granted a name pattern tests, creates, finds, opens, updates and downloads applications', async ({
  page,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(180_000);
  const { login } = await registerUser(request, lastKey, unique('creator'));
  const prefix = unique('ap');
  const pattern = `${prefix}_.*`;
  const first = `${prefix}_first`;
  const notes = `${prefix}_notes`;

  await test.step('the platform administrator grants a name pattern on the creator-rights page', async () => {
    await signInAsAdmin(page);
    const row = await grantPatternInUi(page, login, pattern);
    // An invalid pattern beside it: marked on its row, nothing sent nor claimed saved, what was typed kept.
    const broken = `${prefix}_(`;
    const field = row.getByLabel(`Ajouter un motif de nom pour ${login}`, { exact: true });
    await field.fill(broken);
    await field.press('Enter');
    const invalid = row.getByTestId('invalid-patterns');
    await expect(invalid).toHaveText(`${broken} n’est pas une expression régulière valide.`);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Enregistrer (1)' }).click();
    await expect(
      toast(page, 'Rien n’a été enregistré : corrigez ou retirez les motifs signalés comme invalides.'),
    ).toBeVisible();
    await expect(toast(page, 'Les droits ont été enregistrés.')).toHaveCount(0);
    await expect(row.getByRole('button', { name: `Retirer ${pattern}` })).toBeVisible();
    await expect(row.getByRole('button', { name: `Retirer ${broken}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enregistrer (1)' })).toBeEnabled();
    await look(page, 'creator-rights-invalid-fr');
    await switchLanguage(page, 'English');
    await expect(invalid).toHaveText(`${broken} is not a valid regular expression.`);
    await look(page, 'creator-rights-invalid-en');
    await switchLanguage(page, 'Français');
    await dismissToasts(page);
    await row.getByRole('button', { name: `Retirer ${broken}` }).click();
    await expect(invalid).toHaveCount(0);
    await look(page, 'creator-rights');
    await saveCreatorRights(page, 1);
    await expect(row.getByRole('button', { name: `Retirer ${pattern}` })).toBeVisible();
    await signOut(page);
  });

  await test.step('the creator sees the create button', async () => {
    await signIn(page, login);
    await expect(page.getByRole('link', { name: 'Créer une application' })).toBeVisible();
    await page.getByRole('link', { name: 'Créer une application' }).click();
    await expect(page).toHaveURL(/\/applicationCreation$/);
    await expect(page.getByRole('heading', { name: 'Créer une application' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Aide' })).toHaveAttribute('target', '_blank');
  });

  await test.step('a broken configuration: every problem, grouped by section, in French then in English', async () => {
    await testConfiguration(page, fixture('broken.yaml'));
    const problems = page.getByTestId('configuration-problems');
    await expect(problems.getByRole('heading', { name: '6 problèmes dans cette configuration' })).toBeVisible();
    for (const group of ['Le fichier entier', 'Application', 'Donnée plots']) {
      await expect(problems.getByRole('heading', { name: group, exact: true })).toBeVisible();
    }
    await expect(problems.locator('[data-code]')).toHaveCount(6);
    await expect(problems.locator('[data-code="UNKNOWN_CHECKER_NAME"]')).toContainText('Vérificateur inconnu integer');
    await expect(problems.locator('[data-code="BAD_VERSION_PATTERN"]')).toContainText(
      'La version d’application deux n’est pas valide',
    );
    await expect(problems.locator('[data-code="INVALID_NATURAL_KEY"]')).toContainText('ligne 8, colonne 27');
    // A broken file never offers to save.
    await expect(page.getByLabel('Nom de l’application', { exact: true })).toHaveCount(0);
    await look(page, 'application-creation-errors-fr');

    await switchLanguage(page, 'English');
    await expect(problems.getByRole('heading', { name: '6 problems in this configuration' })).toBeVisible();
    for (const group of ['The whole file', 'Application', 'Data entry plots']) {
      await expect(problems.getByRole('heading', { name: group, exact: true })).toBeVisible();
    }
    await expect(problems.locator('[data-code="UNKNOWN_CHECKER_NAME"]')).toContainText('Unknown checker integer');
    await expect(problems.locator('[data-code="BAD_VERSION_PATTERN"]')).toContainText(
      'The application version deux is not valid',
    );
    await expect(problems.locator('[data-code="INVALID_NATURAL_KEY"]')).toContainText('line 8, column 27');
    await look(page, 'application-creation-errors-en');
    await switchLanguage(page, 'Français');
    await expect(problems.getByRole('heading', { name: '6 problèmes dans cette configuration' })).toBeVisible();
  });

  await test.step(`a ${corpusPresent ? 'corpus' : 'Terrain'} configuration passes; its name must match the pattern`, async () => {
    await testConfiguration(page, FIRST.file);
    await expect(toast(page, 'La configuration est valide.')).toBeVisible();
    await expect(page.getByTestId('configuration-problems')).toHaveCount(0);
    const name = page.getByLabel('Nom de l’application', { exact: true });
    // The name comes from the file, which the pattern does not allow.
    await expect(name).toHaveValue(FIRST.fileName);
    await expect(page.getByText('Vous ne pouvez pas créer ni modifier une application portant ce nom.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Créer', exact: true })).toBeDisabled();
    await expect(page.getByTestId('version-tag')).toHaveText(FIRST.version);
    await name.fill(first.toUpperCase());
    await expect(name).toHaveValue(first);
    await expect(page.getByText('Vous ne pouvez pas créer ni modifier une application portant ce nom.')).toHaveCount(0);
    await page.getByLabel('Commentaire', { exact: true }).fill('Premier essai');
    await dismissToasts(page);
    await look(page, 'application-creation-tested');
    await page.getByRole('button', { name: 'Créer', exact: true }).click();
    await expect(toast(page, `L’application ${first} a été créée.`)).toBeVisible();
    await expect(page).toHaveURL(/\/applications$/);
  });

  await test.step('its card is on the list', async () => {
    const card = page.locator(`[data-testid="application-card"][data-name="${first}"]`);
    await expect(card).toBeVisible();
    await expect(card.getByRole('heading', { name: FIRST.title })).toBeVisible();
    await expect(card).toContainText(`version ${FIRST.version}`);
    await expect(card).toContainText('Premier essai');
    await expect(card.getByRole('link', { name: `Ouvrir ${FIRST.title}` })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Mes applications (1)' })).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('a second application, from fieldnotes-v1.yaml', async () => {
    await page.getByRole('link', { name: 'Créer une application' }).click();
    await testConfiguration(page, fixture('fieldnotes-v1.yaml'));
    await expect(page.getByTestId('version-tag')).toHaveText('1.0.0');
    await page.getByLabel('Nom de l’application', { exact: true }).fill(notes);
    // The comment comes from the file until it is changed.
    await expect(page.getByLabel('Commentaire', { exact: true })).toHaveValue("Relevés d'oiseaux sur quelques sites");
    await page.getByRole('button', { name: 'Créer', exact: true }).click();
    await expect(toast(page, `L’application ${notes} a été créée.`)).toBeVisible();
    await expect(page).toHaveURL(/\/applications$/);
    await expect(page.getByTestId('application-card')).toHaveCount(2);
    await expect(page.getByRole('tab', { name: 'Mes applications (2)' })).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('the list sorts and filters', async () => {
    const sort = page.getByLabel('Tri', { exact: true });
    // By title, then by technical name when the titles are the same (without the corpus both are fieldnotes).
    const byTitle =
      FIRST.title.localeCompare('Carnet de terrain', 'fr', { sensitivity: 'base' }) || first.localeCompare(notes);
    const byName = byTitle < 0 ? [first, notes] : [notes, first];
    await expect(sort).toHaveValue('Az');
    await expect.poll(() => cardNames(page)).toEqual(byName);
    await sort.selectOption({ label: 'Nom de Z à A' });
    await expect.poll(() => cardNames(page)).toEqual([...byName].reverse());
    await sort.selectOption({ label: 'Les plus récentes d’abord' });
    await expect.poll(() => cardNames(page)).toEqual([notes, first]);
    await sort.selectOption({ label: 'Les plus anciennes d’abord' });
    await expect.poll(() => cardNames(page)).toEqual([first, notes]);

    const filter = page.getByLabel('Filtrer par nom', { exact: true });
    // Two characters do not filter yet; the third does, on the shown name or the technical one.
    await filter.fill('ca');
    await expect(page.getByTestId('application-card')).toHaveCount(2);
    await filter.fill('carnet');
    await expect
      .poll(() => cardNames(page))
      .toEqual(FIRST.title.toLowerCase().includes('carnet') ? [first, notes] : [notes]);
    await filter.fill('_first');
    await expect.poll(() => cardNames(page)).toEqual([first]);
    await filter.fill('zzz-nothing');
    await expect(page.getByText('Aucune application ne correspond à ce nom.')).toBeVisible();
    await filter.fill('');
    await expect(page.getByTestId('application-card')).toHaveCount(2);
    await sort.selectOption({ label: 'Nom de A à Z' });
    await dismissToasts(page);
    await look(page, 'applications-list');
  });

  await test.step('the home page of the application', async () => {
    await page
      .locator(`[data-testid="application-card"][data-name="${notes}"]`)
      .getByRole('link', { name: 'Ouvrir Carnet de terrain' })
      .click();
    await expect(page).toHaveURL(new RegExp(`/applications/${notes}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Carnet de terrain' })).toBeVisible();
    await expect(page.getByText("Comptages d'oiseaux par site et par jour.")).toBeVisible();
    const facts = page.getByTestId('application-facts');
    await expect(facts).toContainText(notes);
    await expect(facts).toContainText('1.0.0');
    await expect(facts).toContainText('Date de création');
    await expect(facts).not.toContainText('Dernière mise à jour');
    await look(page, 'application-home');
  });

  await test.step('an update to fieldnotes-v2.yaml: 1.0.0 → 1.1.0', async () => {
    await page.getByRole('link', { name: 'Modifier l’application' }).click();
    await expect(page).toHaveURL(new RegExp(`/applicationCreation/${notes}/1\\.0\\.0$`));
    await expect(page.getByRole('heading', { name: `Modifier l’application ${notes}` })).toBeVisible();
    // The same version again is refused.
    await testConfiguration(page, fixture('fieldnotes-v1.yaml'));
    await expect(page.getByTestId('version-tag')).toHaveText('1.0.0');
    await expect(page.getByRole('button', { name: 'Modifier', exact: true })).toBeDisabled();
    await testConfiguration(page, fixture('fieldnotes-v2.yaml'));
    await expect(page.getByTestId('version-tag')).toHaveText('1.0.0 → 1.1.0');
    await expect(page.getByLabel('Nom de l’application', { exact: true })).toHaveValue(notes);
    await page.getByLabel('Commentaire', { exact: true }).fill('Avec l’observateur');
    await dismissToasts(page);
    await look(page, 'application-update-tested');
    await page.getByRole('button', { name: 'Modifier', exact: true }).click();
    await expect(toast(page, `L’application ${notes} a été modifiée.`)).toBeVisible();
    await expect(page).toHaveURL(/\/applications$/);
    await expect(page.locator(`[data-testid="application-card"][data-name="${notes}"]`)).toContainText('version 1.1.0');
  });

  await test.step('the configuration downloads exactly as uploaded', async () => {
    const card = page.locator(`[data-testid="application-card"][data-name="${notes}"]`);
    const fromCard = await download(page, () =>
      card.getByRole('link', { name: 'Télécharger la configuration de Carnet de terrain' }).click(),
    );
    expect(fromCard.fileName).toBe('fieldnotes-v2.yaml');
    expect(fromCard.bytes.equals(await readFile(fixture('fieldnotes-v2.yaml')))).toBe(true);

    await card.getByRole('link', { name: 'Ouvrir Carnet de terrain' }).click();
    const facts = page.getByTestId('application-facts');
    await expect(facts).toContainText('1.1.0');
    await expect(facts).toContainText('Dernière mise à jour');
    await expect(facts).toContainText('Avec l’observateur');
    await expect(page.getByTestId('stored-versions')).toContainText('1.0.0');
    await dismissToasts(page);
    await look(page, 'application-home-updated');
    const current = await download(page, () =>
      page.getByRole('link', { name: 'Télécharger la configuration', exact: true }).click(),
    );
    expect(current.bytes.equals(await readFile(fixture('fieldnotes-v2.yaml')))).toBe(true);
    const earlier = await download(page, () =>
      page.getByRole('link', { name: 'Télécharger la version 1.0.0' }).click(),
    );
    expect(earlier.fileName).toBe('fieldnotes-v1.yaml');
    expect(earlier.bytes.equals(await readFile(fixture('fieldnotes-v1.yaml')))).toBe(true);
  });
});

test('a user without creator rights sees no create button and cannot open the creator-rights page', async ({
  page,
  request,
  unique,
  lastKey,
  look,
}) => {
  const { login } = await registerUser(request, lastKey, unique('plain'));
  const surveys = unique('nodata');
  await signInAsAdmin(page);
  await setUpApi(page).createApplication(surveys, 'surveys.yaml');
  await signOut(page);
  await signIn(page, login);
  await expect(page.getByTestId('role-label')).toHaveText('utilisateur');
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Créer une application' })).toHaveCount(0);

  // May read no data of it: the card's data buttons are disabled, and say why.
  await page.getByLabel('Filtrer par nom', { exact: true }).fill(surveys);
  const card = page.locator(`[data-testid="application-card"][data-name="${surveys}"]`);
  const reason = 'Pour lire ces données, demandez des droits par Demandes.';
  for (const label of ['Références de Suivis de sites', 'Types de données de Suivis de sites']) {
    await expect(card.getByRole('link', { name: label })).toHaveCount(0);
    const button = card.getByRole('button', { name: label });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('title', reason);
    await expect(button).toHaveAccessibleDescription(reason);
  }
  await expect(card.getByTestId('no-data-rights')).toHaveText(reason);
  await expect(card.getByRole('link', { name: 'Demandes de droits de Suivis de sites' })).toBeVisible();
  await look(page, 'applications-without-rights');
  await switchLanguage(page, 'English');
  await expect(card.getByTestId('no-data-rights')).toHaveText(
    'You may not read these data: ask for rights through Requests.',
  );
  await expect(card.getByRole('button', { name: 'Data types of Site surveys' })).toBeDisabled();
  await look(page, 'applications-without-rights-en');
  await switchLanguage(page, 'Français');
  // And on the application's home page.
  await card.getByRole('link', { name: 'Ouvrir Suivis de sites' }).click();
  await expect(page.getByRole('heading', { name: 'Suivis de sites', level: 1 })).toBeVisible();
  for (const label of ['Références', 'Jeux de données']) {
    await expect(page.getByRole('link', { name: label, exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: label, exact: true })).toBeDisabled();
  }
  await expect(page.getByTestId('no-data-rights')).toHaveText('Pour lire ces données, demandez des droits.');
  await look(page, 'application-home-without-rights');
  await page.goto('/applications');

  await page.goto('/authorizationsManagementForApplicationCreator');
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByRole('heading', { name: 'Créateurs d’applications' })).toHaveCount(0);
  const answer = await page.request.get('/api/v1/authorizationForAdmin');
  expect(answer.status()).toBe(403);
});

test('an unknown application address leads back to the list with a toast', async ({ page, unique }) => {
  await signInAsAdmin(page);
  const missing = unique('nosuchapp');
  await page.goto(`/applications/${missing}`);
  await expect(page).toHaveURL(/\/applications$/);
  await expect(toast(page, `L’application ${missing} n’existe pas.`)).toBeVisible();
});

async function download(page: import('@playwright/test').Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const saved = await file.path();
  return { fileName: file.suggestedFilename(), bytes: await readFile(saved) };
}
