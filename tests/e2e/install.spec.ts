import { openUserMenu, signInAsAdmin, switchLanguage } from './applicationSteps';
import { expect, test } from './fixtures';

/**
 * Safari on iPad has no install prompt: the user menu's "Install Terrain" opens the Add to Home Screen steps. The
 * dialog used to live inside the menu, which unmounts as it closes, so the steps never showed.
 */

const IPAD_SAFARI =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test.use({ userAgent: IPAD_SAFARI, isMobile: true, hasTouch: true });

test('on an iPad, installing from the user menu shows the Add to Home Screen steps, in French and in English', async ({
  page,
  look,
}) => {
  await signInAsAdmin(page);

  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Installer Terrain' }).click();
  const steps = page.getByRole('dialog', { name: 'Ajouter Terrain à l’écran d’accueil' });
  await expect(steps).toBeVisible();
  await expect(steps.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('menu')).toHaveCount(0);
  await look(page, 'install-ios-steps-fr');
  await steps.getByRole('button', { name: 'Fermer' }).click();
  await expect(steps).toBeHidden();

  await switchLanguage(page, 'English');
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Install Terrain' }).click();
  const stepsEn = page.getByRole('dialog', { name: 'Add Terrain to the Home Screen' });
  await expect(stepsEn).toBeVisible();
  await look(page, 'install-ios-steps-en');
  await stepsEn.getByRole('button', { name: 'Close' }).click();
  await expect(stepsEn).toBeHidden();
});
