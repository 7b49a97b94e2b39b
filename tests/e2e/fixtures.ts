import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test as base, expect, type Page, type Request } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { parseMail } from '../server/harness';
import { keyLeaks } from './keyLeaks';

export { expect };

interface Helpers {
  /** A name unique to this test and this screen size, so both projects can register their own accounts. */
  unique(prefix: string): string;
  /** The newest key mailed to this address (waits for it). */
  lastKey(email: string, after?: number): Promise<string>;
  /** Screenshots and checks accessibility at the project's size, then at the phone size (test-results/screens/<size>/). */
  look(page: Page, name: string): Promise<void>;
  /** Not used by tests: a failing test's page address and last console errors, attached for the CI's log. */
  pageDiagnostics: void;
}

async function readKeys(email: string) {
  const outbox = path.join(E2E_DATA_DIR, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(
    files.map(async (file) => parseMail(await readFile(path.join(outbox, file), 'utf8'))),
  );
  return mails.filter((m) => m.to.toLowerCase() === email.toLowerCase() && m.key).map((m) => m.key!);
}

/** The phone size every screen is also looked at (the tablet size is the project's). */
export const PHONE = { width: 390, height: 844 };

/** axe-core's source, evaluated once in each document a journey looks at. */
const AXE_SOURCE = createRequire(import.meta.url)('axe-core').source as string;

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe in the page itself. The page is not a frame set, so nothing of @axe-core/playwright's frame handling is
 * needed; its builder re-sent the engine's half-megabyte source and finished each run in a new page, several times the
 * run itself on every screen of every journey.
 */
async function axeViolations(page: Page, skippedRules: string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (skipped) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const results = await axe.run(document, {
      resultTypes: ['violations'],
      rules: Object.fromEntries(skipped.map((id) => [id, { enabled: false }])),
    });
    return results.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  }, skippedRules);
}

/**
 * A full-page screenshot into test-results/screens/<size>/<name>.png, then axe: no serious or critical violation,
 * and no stored key where a person reads.
 */
async function screenAndAxe(page: Page, size: string, name: string, skippedRules: string[]) {
  const folder = path.resolve('test-results/screens', size);
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
  expect(await keyLeaks(page), `stored keys shown on ${name} (${size})`).toEqual([]);
  const serious = (await axeViolations(page, skippedRules)).filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `accessibility of ${name} (${size})`,
  ).toEqual([]);
}

export const test = base.extend<Helpers>({
  pageDiagnostics: [
    async ({ page }, use, testInfo) => {
      const events: string[] = [];
      const started = Date.now();
      const note = (line: string) => events.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}`);
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') note(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => note(`page error: ${error.message}`));
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
      });
      // Requests of the page still waiting for their answer when the test failed.
      const waiting = new Map<Request, number>();
      const served = (request: Request) => void waiting.delete(request);
      page.on('request', (request) => waiting.set(request, Date.now()));
      page.on('requestfinished', served);
      page.on('requestfailed', (request) => {
        served(request);
        note(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
      });
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      const unanswered = [...waiting].map(
        ([request, since]) =>
          `still waiting: ${request.method()} ${request.url()} for ${((Date.now() - since) / 1000).toFixed(1)} s`,
      );
      // Whether the page's script still runs at all (a page stuck in a loop answers nothing).
      const responsive = await Promise.race([
        page.evaluate(
          () => `script answers; document ${document.readyState}, ${document.body.innerText.length} characters shown`,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('script did not answer within 2 s'), 2_000)),
      ]).catch((error: unknown) => `script not reachable: ${error instanceof Error ? error.message : String(error)}`);
      await testInfo.attach('page', {
        contentType: 'text/plain',
        body: [`address at the end: ${page.url()}`, responsive, ...events.slice(-40), ...unanswered.slice(-20)].join(
          '\n',
        ),
      });
    },
    { auto: true },
  ],
  unique: async ({}, use, testInfo) => {
    const stamp = Date.now().toString(36);
    await use((prefix) => `${prefix}${testInfo.project.name}${stamp}`.toLowerCase());
  },
  lastKey: async ({}, use) => {
    await use(async (email, after = 0) => {
      let keys: string[] = [];
      await expect
        .poll(
          async () => {
            keys = await readKeys(email);
            return keys.length;
          },
          { message: `a key mailed to ${email}` },
        )
        .toBeGreaterThan(after);
      return keys[keys.length - 1];
    });
  },
  look: async ({}, use, testInfo) => {
    await use(async (page, name) => {
      await screenAndAxe(page, testInfo.project.name, name, []);
      const size = page.viewportSize();
      if (!size || size.width <= PHONE.width) return;
      // Every screen a journey meets is looked at on a phone too, without running the journey twice. The layout
      // follows the width (CSS, and media queries the page listens to, such as the tables' cards), so resizing
      // shows what a phone shows once the page has drawn two frames. Colours do not change with the width: the
      // contrast rule, most of axe's time, was run at the tablet size.
      await page.setViewportSize(PHONE);
      try {
        await page.evaluate(
          () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn(undefined)))),
        );
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenAndAxe(page, 'phone', name, ['color-contrast']);
        const overflow = await page.evaluate((width) => {
          const describe = (element: Element) =>
            `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 4).join('.')} → ${Math.round(element.getBoundingClientRect().right)}px`;
          const wider = [...document.body.querySelectorAll('*')].filter(
            (element) => element.getBoundingClientRect().right > width + 0.5,
          );
          // The innermost ones name the culprit; their ancestors only carry it.
          const innermost = wider.filter(
            (element) => !wider.some((other) => other !== element && element.contains(other)),
          );
          return { scrollWidth: document.documentElement.scrollWidth, culprits: innermost.slice(0, 5).map(describe) };
        }, PHONE.width);
        expect(
          overflow.scrollWidth,
          `${name}: the page is no wider than a phone (${overflow.culprits.join('; ')})`,
        ).toBeLessThanOrEqual(PHONE.width);
      } finally {
        await page.setViewportSize(size);
        await page.evaluate(
          () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn(undefined)))),
        );
      }
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
