import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { expect, toast } from './fixtures';

/**
 * The shared OpenADOM corpus (`TERRAIN_CORPUS`, as for the other suites): read in place, never copied into the
 * project (absent in a fresh clone).
 */
export const CORPUS = process.env.TERRAIN_CORPUS ?? path.resolve('../shared/corpus/openadom');
export const corpusPresent = existsSync(path.join(CORPUS, 'manifest.json'));

/** Terrain's own configuration fixtures. */
export const FIXTURES = path.resolve('tests/fixtures/configurations');
export const fixture = (name: string) => path.join(FIXTURES, name);

export const PASSWORD = 'e2e-user-password';

/** Registers and activates an account through the API, with the key read from its mail. */
export async function registerUser(
  request: APIRequestContext,
  lastKey: (email: string) => Promise<string>,
  login: string,
) {
  const email = `${login}@terrain.test`;
  const registered = await request.post('/api/v1/users', { form: { login, password: PASSWORD, email } });
  expect(registered.status(), await registered.text()).toBe(201);
  const activated = await request.put('/api/v1/users', {
    data: { login, password: PASSWORD, verificationKey: await lastKey(email) },
  });
  expect(activated.ok(), await activated.text()).toBe(true);
  return { login, email };
}

export async function signIn(page: Page, login: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Identifiant', { exact: true }).fill(login);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByRole('heading', { name: /^(Applications)$/ })).toBeVisible();
}

export const signInAsAdmin = (page: Page) => signIn(page, E2E_ADMIN.login, E2E_ADMIN.password);

/** On the phone the menu entries hide behind a button. */
async function openMenu(page: Page) {
  const open = page.getByRole('button', { name: /^(Ouvrir le menu|Open the menu)$/ });
  if (await open.isVisible()) await open.click();
}

/** Folds the phone menu again, so that screenshots show the page rather than the menu. */
export async function closeMenu(page: Page) {
  const close = page.getByRole('button', { name: /^(Fermer le menu|Close the menu)$/ });
  if (await close.isVisible()) await close.click();
}

export async function openUserMenu(page: Page) {
  await openMenu(page);
  await page.getByTestId('user-menu').click();
}

export async function signOut(page: Page) {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: /^(Se déconnecter|Log out)$/ }).click();
  await expect(page).toHaveURL(/\/login/);
}

export async function switchLanguage(page: Page, language: 'English' | 'Français') {
  await openMenu(page);
  await page.getByTestId('language-select').click();
  await page.getByRole('menuitemradio', { name: language }).click();
  // The switch is done once the language's catalog is loaded and active.
  await expect(page.locator('html')).toHaveAttribute('lang', language === 'English' ? 'en' : 'fr');
  await closeMenu(page);
}

/**
 * On the creator-rights page, the row of a user: the table shows 15 users a page, so it turns the pages until
 * the row appears.
 */
export async function creatorRow(page: Page, login: string) {
  const row = page.locator(`[data-testid="creator-row"][data-login="${login}"]`);
  await expect(page.getByTestId('creator-row').first()).toBeVisible();
  for (let turns = 0; turns < 50 && !(await row.isVisible()); turns++) {
    const next = page.getByRole('button', { name: 'Page suivante' });
    if (!(await next.isVisible()) || (await next.isDisabled())) break;
    await next.click();
  }
  await expect(row).toBeVisible();
  return row;
}

/** The platform administrator adds a name pattern to a user on the creator-rights page and saves. */
export async function grantPatternInUi(page: Page, login: string, pattern: string) {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Autorisations' }).click();
  await expect(page).toHaveURL(/\/authorizationsManagementForApplicationCreator$/);
  await expect(page.getByRole('heading', { name: 'Créateurs d’applications' })).toBeVisible();
  const row = await creatorRow(page, login);
  await expect(row.getByRole('checkbox', { name: `${login} est administrateur de la plateforme` })).not.toBeChecked();
  await row.getByLabel(`Ajouter un motif de nom pour ${login}`, { exact: true }).fill(pattern);
  await row.getByLabel(`Ajouter un motif de nom pour ${login}`, { exact: true }).press('Enter');
  await expect(row.getByRole('button', { name: `Retirer ${pattern}` })).toBeVisible();
  return row;
}

/** Saves the pending changes of the creator-rights page. */
export async function saveCreatorRights(page: Page, pending: number) {
  await page.getByRole('button', { name: `Enregistrer (${pending})` }).click();
  await expect(toast(page, 'Les droits ont été enregistrés.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enregistrer (0)' })).toBeDisabled();
}

/** Chooses a configuration file on the creation page and presses Test. */
export async function testConfiguration(
  page: Page,
  file: string,
  labels = { file: 'Fichier de configuration', test: 'Tester' },
) {
  await page.getByLabel(labels.file, { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: labels.test, exact: true }).click();
}

/** The technical names of the cards shown, in their order. */
export async function cardNames(page: Page) {
  return page
    .getByTestId('application-card')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-name')));
}

/** Every file of a folder, by its path relative to the folder (with `/`), for a zip built in memory. */
export async function filesOf(folder: string, prefix = ''): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) Object.assign(files, await filesOf(full, `${prefix}${entry.name}/`));
    else files[`${prefix}${entry.name}`] = new Uint8Array(await readFile(full));
  }
  return files;
}

/** Closes the toasts still on screen, so that a screenshot shows the page under them. */
export async function dismissToasts(page: Page) {
  const toasts = page.locator('[data-kind]');
  // One at a time: the others move up as each one leaves.
  for (let left = await toasts.count(); left > 0; left = await toasts.count()) {
    await toasts
      .first()
      .getByRole('button')
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await expect(toasts)
      .toHaveCount(left - 1, { timeout: 2_000 })
      .catch(() => undefined);
  }
}
