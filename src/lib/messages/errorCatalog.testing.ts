import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';

/** msgid → msgstr of the errors catalog of a locale, as `lingui extract` writes it (for the message tests). */
export function readErrorCatalog(locale: string): Record<string, string> {
  const text = readFileSync(path.resolve(import.meta.dirname, `../../../locales/${locale}/errors.po`), 'utf8');
  const unquote = (quoted: string) => JSON.parse(quoted) as string;
  const messages: Record<string, string> = {};
  for (const block of text.split(/\n\s*\n/)) {
    const id = /^msgid ((?:".*"\n?)+)/m.exec(block);
    const value = /^msgstr ((?:".*"\n?)+)/m.exec(block);
    if (!id || !value) continue;
    const join = (lines: string) => lines.trim().split('\n').map(unquote).join('');
    messages[join(id[1])] = join(value[1]);
  }
  return messages;
}

/** An i18n instance with the errors catalog of a locale, compiled as the build does. */
export function errorI18n(locale: string): I18n {
  const i18n = setupI18n();
  i18n.setMessagesCompiler(compileMessage);
  i18n.load(locale, readErrorCatalog(locale));
  i18n.activate(locale);
  return i18n;
}

/** The placeholders a message interpolates, each once, sorted. */
export const placeholders = (message: string) =>
  [...new Set([...message.matchAll(/\{(\w+)[,}]/g)].map((match) => match[1]))].sort();
