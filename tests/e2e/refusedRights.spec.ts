import type { Page } from '@playwright/test';
import { dismissToasts, switchLanguage } from './applicationSteps';
import { expect, toast } from './fixtures';
import {
  adminApi,
  goOffline,
  goOnline,
  pendingChange,
  signInAsAdmin,
  test,
  waitForServiceWorker,
} from './offlineSteps';

/**
 * A rights request filled and checked on the device, queued offline, refused by the server once sent (the institute
 * it names was deleted meanwhile): the pending change needs attention; Edit reopens the request form with its
 * fields, comment and rights; a corrected request sent there replaces it and is applied once.
 */

const COMMENT = 'Thèse sur le lagopède : comptages du Lac Blanc.';

const rightsEntry = (page: Page, entry: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="rights-entry"][data-entry="${entry}"]`);

const requestsOfServer = async (page: Page, serverOrigin: string, name: string) => {
  const answer = await page.request.get(`${serverOrigin}/api/v1/applications/${name}/rightsRequest`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (
    (await answer.json()) as {
      rightsRequests: Array<{ status: string; comment: string; rightsRequestForm: Record<string, string> }>;
    }
  ).rightsRequests;
};

test('a rights request the server refuses is edited from the pending changes and applied once', async ({
  page,
  context,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const name = unique('refreq');
  const admin = await adminApi(page.request, serverOrigin);
  await admin.createWithSurveys(name, 'surveys-requests.yaml', ['institutes', 'projects', 'sites', 'species']);

  await test.step('offline: a request valid on the device is queued', async () => {
    await signInAsAdmin(page);
    await waitForServiceWorker(page);
    await page.goto(`/applications/${name}/authorizationsRequest/new`);
    await expect(page.getByRole('heading', { name: 'Nouvelle demande de droits' })).toBeVisible();
    await page.getByLabel('Institut *').selectOption('cnrs');
    await page.getByLabel('Usage prévu *').fill('Thèse de doctorat');
    await page.getByLabel('Identifiant ORCID *').fill('0000-0002-1825-0097');
    await page.getByLabel("Jusqu'au *").fill('31/12/2025');
    await page.getByLabel('Commentaire', { exact: true }).fill(COMMENT);
    await rightsEntry(page, 'counts').locator('[data-operation="extraction"]').click();
    await goOffline(network, context, page);
    await page.getByRole('button', { name: 'Envoyer la demande' }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
  });

  await test.step('meanwhile its institute is deleted: back online, the server refuses the request', async () => {
    await admin.deleteReferenceRow(name, 'institutes', 'cnrs');
    await goOnline(network, context);
    await page.goto('/pendingChanges');
    const refused = pendingChange(page, name);
    await expect(refused).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
    expect(await requestsOfServer(page, serverOrigin, name)).toHaveLength(0);
    await dismissToasts(page);
    await refused.getByRole('button', { name: 'Modifier', exact: true }).click();
  });

  await test.step('edit: the request form opens with its fields, comment and rights', async () => {
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/authorizationsRequest/new\\?outboxItem=\\d+`));
    await expect(page.getByTestId('rights-request-replaces')).toContainText('Le serveur a refusé cette demande');
    // The device checks it again, with the institutes as they are now; the reference is named by its title, its
    // rows as the list shows them.
    const problem = page.getByText('« cnrs » n’est pas une valeur de Instituts (Institut).');
    await expect(problem).toBeVisible();
    await expect(problem).toContainText('INRAE, Université Savoie Mont Blanc');
    await expect(page.getByLabel('Usage prévu *')).toHaveValue('Thèse de doctorat');
    await expect(page.getByLabel('Identifiant ORCID *')).toHaveValue('0000-0002-1825-0097');
    await expect(page.getByLabel("Jusqu'au *")).toHaveValue('31/12/2025');
    await expect(page.getByLabel('Commentaire', { exact: true })).toHaveValue(COMMENT);
    await expect(rightsEntry(page, 'counts').locator('[data-operation="extraction"]')).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await look(page, 'rights-request-edit-fr');
    await switchLanguage(page, 'English');
    await expect(page.getByTestId('rights-request-replaces')).toContainText('The server refused this request');
    await expect(
      page.getByText(
        '“cnrs” is not a value of Institutes (Institute). Values include: INRAE, Université Savoie Mont Blanc.',
      ),
    ).toBeVisible();
    await look(page, 'rights-request-edit-en');
  });

  await test.step('a corrected request replaces it and is applied once', async () => {
    await page.getByLabel('Institute *').selectOption('inrae');
    await page.getByRole('button', { name: 'Send the request' }).click();
    await expect(toast(page, 'Your request has been sent.')).toBeVisible();
    const stored = await requestsOfServer(page, serverOrigin, name);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      status: 'open',
      comment: COMMENT,
      rightsRequestForm: { institute: 'inrae', purpose: 'Thèse de doctorat' },
    });

    await page.goto('/pendingChanges');
    const changes = pendingChange(page, name);
    await expect(changes).toHaveCount(1);
    await expect(changes).toHaveAttribute('data-status', 'done');
  });
});
