import type { Page } from '@playwright/test';
import { KNOWN_SYMBOL_CODES } from '../../src/domain/keys/unicodeNames';

/**
 * The forms stored keys take and people should never read: `NULL_KEY`, a character spelled by its name inside a
 * word (`cPLUSSIGN`, `08COLON45`, `LEFTPARENTHESIS`), a hierarchical key's `<data>K<key>` label (`lakesKgen`).
 * Short names (`SPACE`, `TILDE`) count only glued to a lower-case letter or digit, where no sentence puts them.
 */
const SPELLED = KNOWN_SYMBOL_CODES.filter((code) => /^[A-Z0-9]{4,}$/.test(code)).sort((a, b) => b.length - a.length);
const LONG = SPELLED.filter((code) => code.length >= 10);
const LEAK = new RegExp(
  [
    'NULL_KEY',
    `(?<=[a-z0-9_])(?:${SPELLED.join('|')})`,
    `(?:${SPELLED.join('|')})(?=[a-z0-9_])`,
    `\\b(?:${LONG.join('|')})\\b`,
    '\\b[a-z][a-z0-9_]*K[a-z0-9_]+(?:\\.[a-z][a-z0-9_]*K[a-z0-9_]+)*\\b',
  ].join('|'),
  'g',
);

/**
 * The escaped keys a screen shows: its visible text and what assistive technologies and tooltips read (labels,
 * titles, placeholders). Text a person typed or asked to see as written (inputs, code, the configuration's YAML) is not
 * the screen speaking.
 */
export async function keyLeaks(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const quoted = 'input, textarea, pre, code, [contenteditable], [data-raw-text]';
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(quoted) || parent.closest('script, style, [hidden], [aria-hidden="true"]'))
        continue;
      if (node.textContent?.trim()) found.push(node.textContent);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (element.closest(quoted) && !element.matches('input, textarea')) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) found.push(value);
      }
    }
    const title = document.title;
    return title ? [...found, title] : found;
  });
  const leaks = new Set<string>();
  for (const text of texts)
    for (const match of text.matchAll(LEAK)) leaks.add(`${match[0]} in “${text.trim().slice(0, 80)}”`);
  return [...leaks];
}
