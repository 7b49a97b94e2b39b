import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DOWNLOAD_FOLDER } from '../../src/lib/streamedSave';
import { expect, toast } from './fixtures';
import { dismissToasts, switchLanguage } from './applicationSteps';
import { csvLines, download, loadReferenceCsv, lookFromTop, setUpApi, throttle, zipTexts } from './dataSteps';
import { signInAsAdmin, test } from './offlineSteps';

/**
 * Downloads read by the page are written to a temporary file of the private file system as they arrive, not held in
 * memory: an export of more lines than any page or cap and a backup are saved byte for byte from that file, which is
 * removed once the browser has read it; a stopped export, and an export or a backup whose network is cut, save
 * nothing and leave nothing; files left by a closed page are removed at the next start, those of a download running
 * in another tab are not; a device that fills up fails the download with a translated message; a page that cannot
 * write files keeps the download in memory, as before.
 */

// Downloads are slowed down in the page's own network stack, which a service worker would bypass.
test.use({ serviceWorkers: 'block' });

const SPECIES = 6_000;
const speciesCsv = () =>
  ['code;name', ...Array.from({ length: SPECIES }, (_, n) => `sp${String(n + 1).padStart(5, '0')};Espèce n° ${n + 1}`)]
    .join('\n')
    .concat('\n');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The temporary files of downloads in the page's private file system, with the digest of what they hold (none for a
 * file removed while the folder is read: another page's start may be removing it).
 */
const tempFiles = (page: Page) =>
  page.evaluate(async (folderName) => {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle(folderName).catch(() => null);
    if (!folder) return [];
    const files: { name: string; sha256: string }[] = [];
    const digest = async (handle: FileSystemHandle) => {
      const file = await (handle as FileSystemFileHandle).getFile().catch(() => null);
      if (!file) return '';
      return [...new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()))]
        .map((byte) => byte.toString(16).padStart(2, '0'))
        .join('');
    };
    const entries = (folder as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries();
    for await (const [name, handle] of entries) files.push({ name, sha256: await digest(handle) });
    return files;
  }, DOWNLOAD_FOLDER);

/** Puts a file in the folder of temporary downloads, as a page closed during a download leaves it. */
const leaveFile = (page: Page, name: string) =>
  page.evaluate(
    async ([folderName, fileName]) => {
      const root = await navigator.storage.getDirectory();
      const folder = await root.getDirectoryHandle(folderName, { create: true });
      const writable = await (await folder.getFileHandle(fileName, { create: true })).createWritable();
      await writable.write('half a download');
      await writable.close();
    },
    [DOWNLOAD_FOLDER, name],
  );

/** The downloads kept there: a file being written has a swap file of the browser beside it, named after it. */
const keptDownloads = async (page: Page) => [
  ...new Set((await tempFiles(page)).map((file) => file.name.split('.')[0])),
];

const exportCsv = (page: Page) => page.getByRole('menuitem', { name: 'Fichier CSV', exact: true }).click();
const card = (page: Page, name: string) => page.locator(`[data-testid="application-card"][data-name="${name}"]`);

test('an export of 6,000 lines and a backup go through a temporary file of the device, saved whole; a stopped, cut or full download leaves nothing; left files are removed at start', async ({
  page,
  unique,
  look,
  network,
}) => {
  test.setTimeout(240_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  // The temporary file is removed once the browser has had time to read it: the test moves the page's clock on.
  await page.clock.install();
  const name = unique('streamed');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  await api.loadReference(name, 'projects', 'surveys-projects.csv');
  await api.loadReference(name, 'sites', 'surveys-sites.csv');
  await loadReferenceCsv(page, name, 'species', Buffer.from(speciesCsv()));
  const downloads: string[] = [];
  page.on('download', (file) => downloads.push(file.suggestedFilename()));
  const progress = page.getByTestId('download-progress');

  await test.step('the export is written to a temporary file as it arrives, saved byte for byte, then the file removed', async () => {
    await page.goto(`/applications/${name}/references/species`);
    await expect(page.getByText(`${SPECIES.toLocaleString('fr-FR').replace(/\s/g, '\u202f')} lignes`)).toBeVisible();
    const unthrottle = await throttle(page, 5_000);
    const asked = page.waitForRequest((r) => r.url().includes('/references/species/csv?'));
    await page.getByTestId('export-menu').click();
    const saved = await download(page, async () => {
      await exportCsv(page);
      await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
      await unthrottle();
    });
    const kept = await tempFiles(page);
    // What the browser saved is the temporary file, whole, kept until the browser has had time to read it.
    expect(kept.map((file) => file.sha256)).toEqual([sha256(saved.bytes)]);
    const sent = await (await page.request.get((await asked).url())).body();
    expect(Buffer.compare(Buffer.from(saved.bytes), sent)).toBe(0);
    const lines = csvLines(saved.bytes, ';');
    expect(lines).toHaveLength(1 + SPECIES);
    expect(lines.at(-1)).toEqual(['sp06000', 'Espèce n° 6000']);
    await expect(progress).toHaveAttribute('data-status', 'done');
    await page.clock.fastForward('30:00');
    await expect.poll(() => tempFiles(page)).toEqual([]);
    await progress.getByRole('button', { name: 'Fermer' }).click();
  });

  await test.step('a stopped export saves nothing and leaves no temporary file', async () => {
    const unthrottle = await throttle(page, 2_000);
    await page.getByTestId('export-menu').click();
    await exportCsv(page);
    await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
    await progress.getByRole('button', { name: 'Arrêter le téléchargement' }).click();
    await expect(progress).toHaveCount(0);
    await expect.poll(() => tempFiles(page)).toEqual([]);
    await unthrottle();
    expect(downloads).toEqual(['species.csv']);
  });

  await test.step('an export whose network is cut midway saves nothing, leaves no temporary file, and says why', async () => {
    network.pace(2_000);
    await page.getByTestId('export-menu').click();
    await exportCsv(page);
    await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
    await expect(progress).toContainText('Téléchargement de species.csv');
    network.unplug();
    await expect(progress).toContainText(
      'species.csv n’a pas été téléchargé\u00a0: Le téléchargement s’est arrêté avant sa fin\u00a0: rien n’a été enregistré.',
    );
    await expect.poll(() => tempFiles(page)).toEqual([]);
    expect(downloads).toEqual(['species.csv']);
    network.plugIn();
    network.pace();
    await see('streamed-download-cut-fr');
    await progress.getByRole('button', { name: 'Fermer' }).click();
  });

  await test.step('a file left by a closed page is removed at the next start, not the file of a download running in another tab', async () => {
    const unthrottle = await throttle(page, 2_000);
    await page.getByTestId('export-menu').click();
    await exportCsv(page);
    await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
    const [running] = await keptDownloads(page);
    await leaveFile(page, 'left-by-a-closed-tab');
    const other = await page.context().newPage();
    await other.goto('/applications');
    await expect.poll(() => keptDownloads(other)).toEqual([running]);
    await other.close();
    await progress.getByRole('button', { name: 'Arrêter le téléchargement' }).click();
    await expect.poll(() => tempFiles(page)).toEqual([]);
    await unthrottle();
  });

  await test.step('the backup is written to a temporary file as it arrives, saved byte for byte, then the file removed', async () => {
    await page.goto('/applications');
    await page.getByLabel('Filtrer par nom').fill(name);
    const unthrottle = await throttle(page, 5_000);
    const saved = await download(page, async () => {
      await card(page, name).getByRole('button', { name: 'Télécharger une sauvegarde de Suivis de sites' }).click();
      await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
      await unthrottle();
    });
    expect((await tempFiles(page)).map((file) => file.sha256)).toEqual([sha256(saved.bytes)]);
    const files = zipTexts(saved.bytes);
    const species = Object.keys(files).find((file) => /^data\/\d+_species\.csv$/.test(file))!;
    expect(csvLines(Buffer.from(files[species]), ';')).toHaveLength(1 + SPECIES);
    await page.clock.fastForward('30:00');
    await expect.poll(() => tempFiles(page)).toEqual([]);
  });
  await test.step('a backup whose network is cut midway saves nothing, leaves no temporary file, and says why', async () => {
    await dismissToasts(page);
    network.pace(2_000);
    await card(page, name).getByRole('button', { name: 'Télécharger une sauvegarde de Suivis de sites' }).click();
    await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
    network.unplug();
    await expect(
      toast(page, 'Le téléchargement s’est arrêté avant sa fin\u00a0: rien n’a été enregistré.'),
    ).toBeVisible();
    await expect.poll(() => tempFiles(page)).toEqual([]);
    expect(downloads).toEqual(['species.csv', expect.stringMatching(new RegExp(`^${name}-backup-`))]);
    network.plugIn();
    network.pace();
    await dismissToasts(page);
  });

  await test.step('a backup stopped midway saves nothing, leaves no temporary file, and tells no error', async () => {
    const unthrottle = await throttle(page, 2_000);
    await card(page, name).getByRole('button', { name: 'Télécharger une sauvegarde de Suivis de sites' }).click();
    await expect.poll(async () => (await keptDownloads(page)).length).toBe(1);
    const stop = card(page, name).getByRole('button', { name: 'Arrêter le téléchargement' });
    await see('backup-stop-fr');
    await stop.click();
    await expect(stop).toHaveCount(0);
    await expect.poll(() => tempFiles(page)).toEqual([]);
    await unthrottle();
    await expect(page.locator('[data-kind="error"]')).toHaveCount(0);
    expect(downloads).toEqual(['species.csv', expect.stringMatching(new RegExp(`^${name}-backup-`))]);
  });

  await test.step('a device that fills up during an export saves nothing, leaves no temporary file, and says so in French and English', async () => {
    // The browser refuses a write for lack of room after a few chunks, as a full device does.
    await page.addInitScript(() => {
      const write = FileSystemWritableFileStream.prototype.write;
      let written = 0;
      FileSystemWritableFileStream.prototype.write = function (this: FileSystemWritableFileStream, ...chunk) {
        if (++written > 2) return Promise.reject(new DOMException('No room left', 'QuotaExceededError'));
        return write.apply(this, chunk);
      };
    });
    await page.goto(`/applications/${name}/references/species`);
    // Small chunks, so that the refusal comes midway through the file.
    network.pace(20_000);
    for (const [language, menuItem, message] of [
      [
        'Français',
        'Fichier CSV',
        'species.csv n’a pas été téléchargé\u00a0: Cet appareil n’a plus de place pour le téléchargement\u00a0: rien n’a été enregistré. Libérez de l’espace et réessayez.',
      ],
      [
        'English',
        'CSV file',
        'species.csv was not downloaded: This device has no room left for the download: nothing was saved. Free some space and try again.',
      ],
    ] as const) {
      await switchLanguage(page, language);
      await page.getByTestId('export-menu').click();
      await page.getByRole('menuitem', { name: menuItem, exact: true }).click();
      await expect(progress).toContainText(message);
      await expect.poll(() => tempFiles(page)).toEqual([]);
      await see(`streamed-download-device-full-${language === 'English' ? 'en' : 'fr'}`);
      await progress.getByRole('button', { name: language === 'English' ? 'Close' : 'Fermer' }).click();
    }
    network.pace();
    await switchLanguage(page, 'Français');
    expect(downloads).toHaveLength(2);
  });

  await test.step('where the page cannot write files (older Safari), the export is kept in memory as before', async () => {
    await page.addInitScript(() => {
      delete (FileSystemFileHandle.prototype as Partial<FileSystemFileHandle>).createWritable;
    });
    await page.goto(`/applications/${name}/references/species`);
    await page.getByTestId('export-menu').click();
    const saved = await download(page, () => exportCsv(page));
    expect(csvLines(saved.bytes, ';')).toHaveLength(1 + SPECIES);
    await expect(progress).toHaveAttribute('data-status', 'done');
    expect(await tempFiles(page)).toEqual([]);
  });
});
