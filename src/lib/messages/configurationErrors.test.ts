import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { CONFIGURATION_ERROR_CODES, type ConfigurationError } from '../../domain/configuration/errorCodes';
import { readConfigurationDocument } from '../../domain/configuration/readConfiguration';
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
    expect(render('fr', error)).toBe('site n’est pas une donnée de cette configuration. Données : sites, projet.');
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
    const ambiguousZip = {
      code: 'INVALID_CONFIGURATION_FILE' as const,
      path: '',
      params: { reason: 'zipAmbiguousRoot', files: ['a.yaml', 'b.yml'], expected: 'configuration.yaml' },
    };
    expect(render('fr', ambiguousZip)).toBe(
      'L’archive contient plusieurs fichiers YAML à son premier niveau (a.yaml, b.yml) et aucun ne s’appelle configuration.yaml : renommez en configuration.yaml celui qui contient OA_version et OA_application.',
    );
    const yaml = { code: 'UNKNOWN' as const, path: '', params: { message: 'boom' } };
    expect(render('en', yaml)).toBe('The file cannot be read: boom');
  });

  it('say YAML syntax errors in French without the English words of the YAML library', () => {
    const samples: Record<string, string> = {
      'a: "abc\n': 'Un texte entre guillemets n’est jamais fermé.',
      'a: [1, 2\n':
        'Le fichier se termine trop tôt : il manque une valeur, un crochet fermant ou une accolade fermante.',
      'a: @value\n':
        'Caractère inattendu : une valeur ne peut pas commencer par ce caractère ; mettez-la entre guillemets.',
      'a:\n\tb: 1\n': 'Une tabulation sert à indenter : YAML n’indente qu’avec des espaces.',
      'a: "x"#comment\n': 'Un commentaire (#) doit être précédé d’une espace.',
      'a: !!int abc\n': 'Cette valeur n’est pas un nombre entier valide.',
      'a: 1\n---\nb: 2\n':
        'Le YAML est mal formé : le fichier contient plusieurs documents (---), une configuration n’en est qu’un.',
      'a: *missing\n': 'Le YAML est mal formé : l’alias *missing ne désigne aucune ancre définie avant lui.',
      'a: b: c\n':
        'Le YAML est mal formé : une clé ne peut pas être une liste ni une table ; manque-t-il deux-points, ou une indentation est-elle fausse ?',
    };
    for (const [text, french] of Object.entries(samples)) {
      const reading = readConfigurationDocument(new TextEncoder().encode(text), 'test.yaml');
      expect(reading.ok, text).toBe(false);
      if (reading.ok) continue;
      const [error] = reading.errors;
      expect(render('fr', error), text).toBe(french);
      const library = parseDocument(text, { prettyErrors: false });
      for (const problem of [...library.errors, ...library.warnings]) {
        expect(render('fr', error), text).not.toContain(problem.message.split('\n')[0]);
      }
      expect(render('en', error), text).not.toContain('{');
    }
  });
});
