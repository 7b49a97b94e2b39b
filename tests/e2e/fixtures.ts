import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E_DATA_DIR } from '../../playwright.config';
import { parseMail } from '../server/harness';

export { expect };

interface Helpers {
  /** A name unique to this test and this screen size, so both projects can register their own accounts. */
  unique(prefix: string): string;
  /** The newest key mailed to this address (waits for it). */
  lastKey(email: string, after?: number): Promise<string>;
  /** Takes a full-page screenshot into test-results/screens/<size>/<name>.png and checks accessibility. */
  look(page: Page, name: string): Promise<void>;
}

async function readKeys(email: string) {
  const outbox = path.join(E2E_DATA_DIR, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map(async (file) => parseMail(await readFile(path.join(outbox, file), 'utf8'))));
  return mails.filter((m) => m.to.toLowerCase() === email.toLowerCase() && m.key).map((m) => m.key!);
}

export const test = base.extend<Helpers>({
  unique: async ({}, use, testInfo) => {
    const stamp = Date.now().toString(36);
    await use((prefix) => `${prefix}${testInfo.project.name}${stamp}`.toLowerCase());
  },
  lastKey: async ({}, use) => {
    await use(async (email, after = 0) => {
      let keys: string[] = [];
      await expect
        .poll(async () => {
          keys = await readKeys(email);
          return keys.length;
        }, { message: `a key mailed to ${email}` })
        .toBeGreaterThan(after);
      return keys[keys.length - 1];
    });
  },
  look: async ({}, use, testInfo) => {
    await use(async (page, name) => {
      const folder = path.resolve('test-results/screens', testInfo.project.name);
      await mkdir(folder, { recursive: true });
      await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), `accessibility of ${name}`).toEqual([]);
    });
  },
});

/** A toast with this text (the live region that announces toasts repeats their text, so look at the toast itself). */
export function toast(page: Page, text: string) {
  return page.locator('[data-kind]').filter({ hasText: text });
}

/** Counts the keys already mailed to an address, to wait for the next one. */
export async function keysSentTo(email: string): Promise<number> {
  return (await readKeys(email)).length;
}
