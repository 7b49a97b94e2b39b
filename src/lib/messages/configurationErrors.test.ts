import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_ERROR_CODES, type ConfigurationError } from '../../domain/configuration/errorCodes';
import { configurationErrorMessages, configurationErrorValues } from './configurationErrors';
import { errorI18n as i18nFor, placeholders, readErrorCatalog as readCatalog } from './errorCatalog.testing';

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
    const error = {
      code: 'UNKNOWN_REFERENCE_NAME' as const,
      path: 'OA_data > sites',
      params: { referenceName: 'site', allDataNames: ['sites', 'projet'] },
    };
    expect(render('en', error)).toBe('site is not a data entry of this configuration. Data: sites, projet.');
    expect(render('fr', error)).toBe('site n’est pas une donnée de cette configuration. Données : sites, projet.');
  });

  it('choose the text by the reason a code gives', () => {
    const notUtf8 = {
      code: 'INVALID_CONFIGURATION_FILE' as const,
      path: '',
      params: { reason: 'notUtf8', byteOffset: 12 },
    };
    expect(render('fr', notUtf8)).toBe(
      'Le fichier n’est pas un texte UTF-8 (premier octet incorrect à la position 12).',
    );
    const regex = {
      code: 'UNKNOWN' as const,
      path: '',
      params: { reason: 'invalidRegularExpression', pattern: '(a', message: 'Unclosed group near index 2', index: 2 },
    };
    expect(render('en', regex)).toBe('The regular expression (a is not valid: Unclosed group near index 2');
    const yaml = { code: 'UNKNOWN' as const, path: '', params: { message: 'boom' } };
    expect(render('en', yaml)).toBe('The file cannot be read: boom');
  });
});
