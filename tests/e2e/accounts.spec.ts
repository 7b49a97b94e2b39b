import { expect, keysSentTo, test, toast } from './fixtures';
import { E2E_ADMIN } from '../../playwright.config';
import { waitForServiceWorker } from './serviceWorker';

test('an account from registration to a second sign-in after a lost password', async ({
  page,
  unique,
  lastKey,
  look,
}) => {
  const login = unique('marie');
  const email = `${login}@terrain.test`;
  const newEmail = `${login}.new@terrain.test`;

  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Terrain' })).toBeVisible();
  await look(page, 'login-fr');

  // Register: the form checks its fields before sending.
  await page.getByRole('tab', { name: 'S’inscrire' }).click();
  await page.getByRole('button', { name: 'S’inscrire' }).click();
  await expect(page.getByText('Veuillez remplir ce champ.').first()).toBeVisible();
  await page.getByLabel('Identifiant', { exact: true }).fill('abc');
  await page.getByLabel('Adresse électronique', { exact: true }).fill('not-an-address');
  await expect(page.getByText('L’identifiant doit compter au moins 4 caractères.')).toBeVisible();
  await expect(page.getByText('Cette adresse électronique n’est pas valide.')).toBeVisible();
  await page.getByLabel('Mot de passe', { exact: true }).fill('court');
  await expect(page.getByText('Le mot de passe doit compter au moins 8 caractères.')).toBeVisible();
  await look(page, 'register-errors-fr');
  await page.getByLabel('Identifiant', { exact: true }).fill(login);
  await page.getByLabel('Mot de passe', { exact: true }).fill('first-password');
  await page.getByLabel('Confirmez le mot de passe', { exact: true }).fill('first-password');
  await page.getByLabel('Adresse électronique', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'S’inscrire' }).click();
  await expect(toast(page, 'Votre compte est créé.')).toBeVisible();
  await look(page, 'register-key-fr');

  // The key from the mail activates the account as soon as its ten characters are typed.
  await page.getByLabel('Clé d’activation', { exact: true }).fill(await lastKey(email));
  await expect(toast(page, 'Votre compte est activé.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Se connecter' })).toHaveAttribute('aria-selected', 'true');

  // Sign in: wrong password first, then the right one.
  await page.getByLabel('Mot de passe', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(toast(page, 'L’identifiant ou le mot de passe est incorrect.')).toBeVisible();
  await page.getByLabel('Mot de passe', { exact: true }).fill('first-password');
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  await expect(page.getByTestId('role-label')).toHaveText('utilisateur');
  await look(page, 'applications-empty-fr');

  // Profile: current values, then the e-mail change in two steps.
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Profil' }).click();
  await expect(page.getByTestId('current-values')).toContainText(email);
  await look(page, 'profile-values-fr');
  await page.getByRole('tab', { name: 'Changer d’adresse' }).click();
  await page.getByLabel('Nouvelle adresse électronique', { exact: true }).fill(newEmail);
  await page.getByLabel('Confirmez la nouvelle adresse', { exact: true }).fill(newEmail);
  await page.getByRole('textbox', { name: 'Mot de passe' }).fill('first-password');
  await page.getByRole('button', { name: 'Envoyer la clé de vérification' }).click();
  await expect(page.getByText(`Saisissez la clé envoyée à ${newEmail} pour en faire votre adresse.`)).toBeVisible();
  await look(page, 'profile-email-key-fr');
  await page.getByLabel('Clé de vérification', { exact: true }).fill(await lastKey(newEmail));
  await expect(toast(page, 'Votre adresse électronique a été mise à jour.')).toBeVisible();
  await page.getByRole('tab', { name: 'Valeurs actuelles' }).click();
  await expect(page.getByTestId('current-values')).toContainText(newEmail);

  // Password change.
  await page.getByRole('tab', { name: 'Changer de mot de passe' }).click();
  await page.getByLabel('Mot de passe actuel', { exact: true }).fill('first-password');
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('second-password');
  await page.getByLabel('Confirmez le nouveau mot de passe', { exact: true }).fill('second-password');
  await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(
    page.getByText('Votre mot de passe a été changé. Vos autres appareils ont été déconnectés.'),
  ).toBeVisible();
  await look(page, 'profile-password-fr');

  // Language: the texts change and the choice sticks across a reload.
  await switchLanguage(page, 'English');
  await expect(page.getByRole('tab', { name: 'Current values' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Current values' })).toBeVisible();
  await look(page, 'profile-values-en');
  await switchLanguage(page, 'Français');
  await expect(page.getByRole('tab', { name: 'Valeurs actuelles' })).toBeVisible();

  // Logout leads to the sign-in page with its notice.
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/login\?loggedOut=true$/);
  await expect(toast(page, 'Vous avez été déconnecté.')).toBeVisible();
  await page.goto('/applications');
  await expect(page).toHaveURL(/\/login/);

  // Lost password, two steps, then signed in.
  await page.getByRole('button', { name: 'Mot de passe perdu ?' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Identifiant', { exact: true }).fill(login);
  await dialog.getByLabel('Adresse électronique', { exact: true }).fill(newEmail);
  await look(page, 'lost-password-step1-fr');
  const before = await keysSentTo(newEmail);
  await dialog.getByRole('button', { name: 'M’envoyer une clé' }).click();
  await expect(dialog.getByText('Étape 2 sur 2', { exact: false })).toBeVisible();
  await dialog.getByLabel('Clé de connexion', { exact: true }).fill(await lastKey(newEmail, before));
  await dialog.getByLabel('Nouveau mot de passe', { exact: true }).fill('third-password');
  await dialog.getByLabel('Confirmez le nouveau mot de passe', { exact: true }).fill('third-password');
  await look(page, 'lost-password-step2-fr');
  await dialog.getByRole('button', { name: 'Terminer' }).click();
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
});

test('signing in before activation mails a key and resumes by itself', async ({
  page,
  request,
  unique,
  lastKey,
  look,
}) => {
  const login = unique('paul');
  const email = `${login}@terrain.test`;
  const registered = await request.post('/api/v1/users', { form: { login, password: 'pw-paul-password', email } });
  expect(registered.status()).toBe(201);

  await page.goto(`/login/monsore`);
  await expect(page.getByText('Connectez-vous pour ouvrir l’application monsore')).toBeVisible();
  await page.getByLabel('Identifiant', { exact: true }).fill(login);
  await page.getByLabel('Mot de passe', { exact: true }).fill('pw-paul-password');
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByLabel('Clé d’activation', { exact: true })).toBeVisible();
  await look(page, 'login-needs-key-fr');
  await page.getByLabel('Clé d’activation', { exact: true }).fill(await lastKey(email, 1));
  // Signed in, the portal goes to the requested application; this one does not exist, so back to the list.
  await expect(toast(page, 'L’application monsore n’existe pas.')).toBeVisible();
  await expect(page).toHaveURL(/\/applications$/);
});

test('the platform administrator is labelled as such', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Identifiant', { exact: true }).fill(E2E_ADMIN.login);
  await page.getByLabel('Mot de passe', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByTestId('role-label')).toHaveText('super administrateur');
});

test('the help page shows the help document', async ({ page, look }) => {
  await page.goto('/help');
  const frame = page.locator('iframe[title="Document d’aide"]');
  await expect(frame).toHaveAttribute('src', '/help.fr.pdf');
  await expect(frame).toHaveAttribute('width', '800');
  await expect(frame).toHaveAttribute('height', '500');
  expect((await page.request.get('/help.fr.pdf')).headers()['content-type']).toContain('application/pdf');
  await look(page, 'help-fr');

  // Once the service worker runs the page, the frame still gets the document, not the application's page.
  await waitForServiceWorker(page);
  const framed = page.waitForResponse((r) => r.url().endsWith('/help.fr.pdf') && r.request().isNavigationRequest());
  await page.reload();
  expect((await framed).headers()['content-type']).toContain('application/pdf');
  await expect(page.frameLocator('iframe').locator('#root')).toHaveCount(0);

  // The way back is the breadcrumb.
  await page.getByRole('navigation', { name: 'Fil d’Ariane' }).getByRole('link', { name: 'Applications' }).click();
  await expect(page).toHaveURL(/\/(applications|login)/);
});

async function openUserMenu(page: import('@playwright/test').Page) {
  const menuButton = page.getByRole('button', { name: /Ouvrir le menu|Open the menu/ });
  if (await menuButton.isVisible()) await menuButton.click();
  await page.getByTestId('user-menu').click();
}

async function switchLanguage(page: import('@playwright/test').Page, language: 'English' | 'Français') {
  const menuButton = page.getByRole('button', { name: /Ouvrir le menu|Open the menu/ });
  if (await menuButton.isVisible()) await menuButton.click();
  await page.getByTestId('language-select').click();
  await page.getByRole('menuitemradio', { name: language }).click();
}
