import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_ERROR_CODES, type ConfigurationError } from '../../domain/configuration/errorCodes';
import { configurationErrorMessages, configurationErrorValues } from './configurationErrors';

/** msgid → msgstr of a catalog, as `lingui extract` writes it. */
function readCatalog(locale: string): Record<string, string> {
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

function i18nFor(locale: string): I18n {
  const i18n = setupI18n();
  i18n.setMessagesCompiler(compileMessage);
  i18n.load(locale, readCatalog(locale));
  i18n.activate(locale);
  return i18n;
}

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)[,}]/g)].map((match) => match[1]).sort();

function render(locale: string, error: Pick<ConfigurationError, 'code' | 'params' | 'path'>): string {
  return i18nFor(locale)._({ ...configurationErrorMessages[error.code], values: configurationErrorValues(error) });
}

describe('configuration error messages', () => {
  it('give every code an English and a French text with the same placeholders', () => {
    const french = readCatalog('fr');
    const english = readCatalog('en');
    for (const code of CONFIGURATION_ERROR_CODES) {
      const descriptor = configurationErrorMessages[code];
      expect(descriptor.id).toBe(`configurationError.${code}`);
      expect(english[descriptor.id], code).toBe(descriptor.message);
      expect(french[descriptor.id], code).toBeTruthy();
      expect(placeholders(french[descriptor.id]), code).toEqual(placeholders(descriptor.message!));
      expect(() => compileMessage(french[descriptor.id]), code).not.toThrow();
    }
  });

  it('interpolate params, lists joined', () => {
    const error = { code: 'UNKNOWN_REFERENCE_NAME' as const, path: 'OA_data > sites', params: { referenceName: 'site', allDataNames: ['sites', 'projet'] } };
    expect(render('en', error)).toBe('site is not a data entry of this configuration. Data: sites, projet.');
    expect(render('fr', error)).toBe('site n’est pas une donnée de cette configuration. Données : sites, projet.');
  });

  it('choose the text by the reason a code gives', () => {
    const notUtf8 = { code: 'INVALID_CONFIGURATION_FILE' as const, path: '', params: { reason: 'notUtf8', byteOffset: 12 } };
    expect(render('fr', notUtf8)).toBe('Le fichier n’est pas un texte UTF-8 (premier octet incorrect à la position 12).');
    const regex = { code: 'UNKNOWN' as const, path: '', params: { reason: 'invalidRegularExpression', pattern: '(a', message: 'Unclosed group near index 2', index: 2 } };
    expect(render('en', regex)).toBe('The regular expression (a is not valid: Unclosed group near index 2');
    const yaml = { code: 'UNKNOWN' as const, path: '', params: { message: 'boom' } };
    expect(render('en', yaml)).toBe('The file cannot be read: boom');
  });
});
