import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { CSV_ERROR_CODES, type CsvError } from '../../domain/csv/errors';
import { csvErrorMessages, csvErrorValues } from './csvErrors';
import { errorI18n as i18nFor, placeholders, readErrorCatalog as readCatalog } from './errorCatalog.testing';

function render(locale: string, error: CsvError): string {
  return i18nFor(locale)._({
    ...csvErrorMessages[error.code as keyof typeof csvErrorMessages],
    values: csvErrorValues(error, locale),
  });
}

describe('CSV error messages', () => {
  it('give every code an English and a French text with the same placeholders', () => {
    const french = readCatalog('fr');
    const english = readCatalog('en');
    for (const code of CSV_ERROR_CODES) {
      const descriptor = csvErrorMessages[code];
      expect(descriptor.id).toBe(`csvError.${code}`);
      expect(english[descriptor.id], code).toBe(descriptor.message);
      expect(french[descriptor.id], code).toBeTruthy();
      expect(placeholders(french[descriptor.id]), code).toEqual(placeholders(descriptor.message!));
      expect(() => compileMessage(french[descriptor.id]), code).not.toThrow();
    }
  });

  it('interpolate params, lists joined', () => {
    const error: CsvError = {
      lineNumber: 39,
      code: 'invalidReferenceWithComponent',
      params: { component: 'site', value: 'martin', refType: 'site', referenceValues: ['annecy', 'leman'] },
      column: 'site',
      value: 'martin',
    };
    expect(render('en', error)).toBe('“martin” is not a value of site (site). Values include: annecy, leman.');
    expect(render('fr', error)).toBe(
      '« martin » n’est pas une valeur de site (site). Parmi les valeurs : annecy, leman.',
    );
  });

  it('name every missing recursive parent in one text', () => {
    const error: CsvError = {
      lineNumber: -1,
      code: 'missingrecursiveParentReferenceWithComponent',
      params: { component: 'parent', refType: 'zones', referenceValues: ['nord'], values: ['lac_vert', 'mer'] },
      column: 'parent',
    };
    expect(render('en', error)).toBe(
      'These parents named in parent are neither in the file nor in zones: lac_vert, mer.',
    );
    expect(render('fr', error)).toBe(
      'Ces parents désignés dans parent ne sont ni dans le fichier ni dans zones : lac_vert, mer.',
    );
  });

  it('choose the text by the bound or the reason an error gives', () => {
    const bound: CsvError = {
      lineNumber: 2,
      code: 'badIntervalIntegerWithComponent',
      params: { component: 'valeur_int', value: '5000', type: 'HIGHER_THAN_MAX', bound: 100 },
    };
    expect(render('en', bound)).toBe('5000 is above the maximum 100 (valeur_int).');
    expect(render('fr', { ...bound, params: { ...bound.params, type: 'LOWER_THAN_MIN', value: '0', bound: 1 } })).toBe(
      '0 est inférieur au minimum 1 (valeur_int).',
    );
    const format: CsvError = {
      lineNumber: 4,
      code: 'invalidFormat',
      params: { reason: 'unterminatedQuote', columnNumber: 2 },
    };
    expect(render('en', format)).toBe('A quoted value that starts in column 2 is never closed.');
  });

  it('count the lines of a duplicated key, and name the lines alone in errors kept before they were counted', () => {
    const counted: CsvError = {
      lineNumber: 3,
      code: 'duplicatedLineInReference',
      params: { file: 'plots', lineNumber: 3, otherLines: [2, 3, '…'], lineCount: 20_000, duplicateKey: 'p1' },
    };
    expect(render('en', counted)).toBe('20,000 lines have the same key p1: 2, 3, ….');
    expect(render('fr', counted)).toBe('20\u202f000 lignes ont la même clé p1\u00a0: 2, 3, ….');
    const kept: CsvError = {
      lineNumber: 3,
      code: 'duplicatedLineInDatatype',
      params: { file: 'plots', lineNumber: 3, otherLines: [2, 3], duplicateKey: 'p1' },
    };
    expect(render('en', kept)).toBe('Lines 2, 3 have the same key p1.');
    expect(render('fr', kept)).toBe('Les lignes 2, 3 ont la même clé p1.');
  });

  it("write a deposit's period as dates in the user's language", () => {
    const error: CsvError = {
      lineNumber: 3,
      code: 'timerangeoutofinterval',
      params: { component: 'day', value: '12/08/2024', from: '2024-06-01T00:00:00', to: '2024-06-30T00:00:00' },
    };
    expect(render('en', error)).toBe(
      'The date 12/08/2024 is outside the period of the deposit (Jun 1, 2024 – Jun 30, 2024).',
    );
    expect(render('fr', error)).toBe(
      'La date 12/08/2024 est hors de la période du dépôt (1 juin 2024 – 30 juin 2024).',
    );
  });

  it("show a named exception's own text in the user's language", () => {
    const error: CsvError = {
      lineNumber: 3,
      code: 'groovyException',
      params: {
        component: 'code',
        exception: 'UNKNOWN_SITE',
        messages: { fr: 'Site inconnu', en: 'Unknown site' },
        exceptionParams: {},
      },
    };
    expect(render('en', error)).toBe('Unknown site');
    expect(render('fr', error)).toBe('Site inconnu');
    expect(render('en', { ...error, params: { ...error.params, messages: null } })).toBe('UNKNOWN_SITE');
  });

  it("fill a named exception's placeholders from its params, or show its code and params without a text", () => {
    const error: CsvError = {
      lineNumber: 4,
      code: 'groovyException',
      params: {
        validation: 'dates',
        exception: 'DATE_NOT_IN_INTERVAL',
        messages: { fr: 'la date ${date} est hors de [${dateDebut}, ${dateFin}]', en: 'date ${date} out of ${other}' },
        exceptionParams: { date: '2024-03-01', dateDebut: '01/01/2024', dateFin: '31/01/2024' },
      },
    };
    expect(render('fr', error)).toBe('la date 2024-03-01 est hors de [01/01/2024, 31/01/2024]');
    expect(render('en', error)).toBe('date 2024-03-01 out of ${other}');
    expect(render('en', { ...error, params: { ...error.params, messages: null } })).toBe(
      'DATE_NOT_IN_INTERVAL (date: 2024-03-01, dateDebut: 01/01/2024, dateFin: 31/01/2024)',
    );
    const withList = { ...error.params, messages: {}, exception: 'BAD_VALUE', exceptionParams: { values: ['a', 'b'] } };
    expect(render('en', { ...error, params: withList })).toBe('BAD_VALUE (values: a, b)');
  });

  it('names a reference by its title when the application is known, by its name otherwise', () => {
    const error = { params: { refType: 'sites_sit', reference: 'sites_sit', component: 'site' }, lineNumber: 2 };
    const titles = (name: string) => (name === 'sites_sit' ? 'Sites' : name);
    expect(csvErrorValues(error, 'en', titles)).toMatchObject({
      refType: 'Sites',
      reference: 'Sites',
      component: 'site',
    });
    expect(csvErrorValues(error, 'en')).toMatchObject({ refType: 'sites_sit' });
  });
});
