import { dismissToasts, openUserMenu, registerUser, switchLanguage, PASSWORD } from './applicationSteps';
import { expect, test } from './fixtures';

/**
 * A field tablet kept signed in: the sign-in box asks for it, the session cookie lasts weeks instead of an hour, the
 * profile lists the device, and signing it out from there ends the session.
 */
test('kept signed in on a device: weeks instead of an hour, listed in the profile, signed out from there', async ({
  page,
  context,
  lastKey,
  unique,
  look,
}) => {
  const login = unique('field');
  await registerUser(page.request, lastKey, login);

  await page.goto('/login');
  await page.getByLabel('Identifiant', { exact: true }).fill(login);
  await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: 'Rester connecté sur cet appareil' }).check();
  await look(page, 'sign-in-remember-fr');
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  const session = (await context.cookies()).find((cookie) => cookie.name === 'terrain_session');
  expect(session!.expires * 1000 - Date.now(), 'the cookie lasts weeks').toBeGreaterThan(20 * 24 * 3600 * 1000);

  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Profil' }).click();
  await page.getByRole('tab', { name: 'Appareils' }).click();
  const device = page.getByTestId('kept-device');
  await expect(device).toHaveCount(1);
  await expect(device).toContainText('Chrome · Linux');
  await expect(device).toContainText('Cet appareil');
  await look(page, 'profile-devices-fr');
  await switchLanguage(page, 'English');
  await expect(device).toContainText('This device');
  await look(page, 'profile-devices-en');

  await device.getByRole('button', { name: 'Sign out this device' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('This is the device you are using');
  await dismissToasts(page);
  await look(page, 'profile-device-sign-out-en');
  await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await page.request.get('/api/v1/me')).status(), 'the session is over on the server').toBe(401);
});
