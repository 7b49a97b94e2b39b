/**
 * The corpus Groovy expressions (read in place from ../shared/corpus/openadom, or TERRAIN_CORPUS): each compiles
 * and gives, on corpus rows, the value the corpus data implies. Expressions are grouped in the forms of the
 * issue's inventory: (1) constants, (2) values computed from the row, (3) look-ups in references, (4) validation
 * scripts; plus the monsore checkDatatype scripts, which read the application object (outside forms 1–4 but
 * supported), and the one deliberately invalid expression.
 */
import { describe, expect, it } from 'vitest';
import {
  type CompiledExpression,
  compileExpression,
  type ExpressionContext,
  ExpressionError,
  escapeLabel,
} from '../../src/domain/expressions';
import { seededRandom } from '../seededRandom';
import {
  CORPUS_FOLDER,
  type CorpusExpression,
  applicationValue,
  corpusAvailable,
  corpusExpressions,
  csvRows,
  dataEntries,
  referenceRows,
} from './expressions-corpus';

function compiled(expression: CorpusExpression): CompiledExpression {
  const result = compileExpression(expression.source);
  if (!result.ok) throw new Error(`${expression.file} ${expression.owner}: ${JSON.stringify(result.errors)}`);
  return result.expression;
}

function errorCode(expression: CompiledExpression, context: ExpressionContext): string {
  try {
    expression.evaluate(context);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return (error as ExpressionError).code;
  }
  throw new Error('expected an error');
}

/** A string or number literal, optionally after `return` and before `;`: the value the expression stands for. */
const LITERAL = /^\s*(?:return\s+)?(?:(['"])(.*)\1|(\d+))\s*;?\s*$/s;

const isFile = (expression: CorpusExpression, prefix: string) => expression.file.startsWith(prefix);

interface Form {
  readonly name: string;
  readonly form: 1 | 2 | 3 | 4 | 'application' | 'invalid';
  matches(expression: CorpusExpression): boolean;
  check(expression: CorpusExpression): void;
}

const FORMS: readonly Form[] = [
  {
    name: 'constant value',
    form: 1,
    matches: (e) => LITERAL.test(e.source),
    check: (e) => {
      const [, , text, digits] = LITERAL.exec(e.source)!;
      expect(compiled(e).evaluate({})).toEqual(digits === undefined ? text : Number(digits));
    },
  },
  {
    name: 'first part of a comma-separated column (component x reads column xs)',
    form: 2,
    matches: (e) => isFile(e, 'multiplicity/') && e.dataName === 'bugs',
    check: (e) => {
      const rows = csvRows('multiplicity', 'bugs', dataEntries(e.file).bugs);
      expect(rows.length).toBeGreaterThan(0);
      const expression = compiled(e);
      for (const datum of rows) expect(expression.evaluate({ datum })).toBe(datum[`${e.owner}s`].split(',')[0]);
    },
  },
  {
    name: 'day and time joined into the date the checker reads (generated rows: the data file is not in the corpus)',
    form: 2,
    matches: (e) => isFile(e, 'acbb/') && e.owner.endsWith('_date'),
    check: (e) => {
      const prefix = e.owner.replace(/_date$/, '');
      const entry = dataEntries(e.file)[e.dataName];
      const checker = (
        entry.OA_computedComponents as Record<string, { OA_checker: { OA_params: { OA_pattern: string } } }>
      )[e.owner];
      const pattern = checker.OA_checker.OA_params.OA_pattern;
      const shape = new RegExp(`^${pattern.replace(/dd|MM|HH|mm|ss/g, '\\d{2}').replace('yyyy', '\\d{4}')}$`);
      const expression = compiled(e);
      for (const [day, hour] of [
        ['01/01/2020', '00'],
        ['29/02/2024', '23'],
      ]) {
        // The time written the way the checker's pattern expects it (HH:mm or HH:mm:ss).
        const time = pattern.split(' ')[1].replace('HH', hour).replace('mm', '30').replace('ss', '00');
        const value = expression.evaluate({ datum: { [`${prefix}_day`]: day, [`${prefix}_time`]: time } });
        expect(value).toBe(`${day} ${time}`);
        expect(value).toMatch(shape);
      }
    },
  },
  {
    name: 'natural keys of the reference1 rows of the same group (manifest note), from the corpus CSVs',
    form: 3,
    matches: (e) => isFile(e, 'multiplicity/') && e.dataName === 'reference2',
    check: (e) => {
      const entries = dataEntries(e.file);
      const reference1 = referenceRows(
        'reference1',
        entries.reference1,
        csvRows('multiplicity', 'reference1', entries.reference1),
      );
      const expression = compiled(e);
      for (const datum of csvRows('multiplicity', 'reference2', entries.reference2)) {
        const expected = reference1.filter((row) => row.refValues.groupe === datum.groupe).map((row) => row.naturalKey);
        expect(expected.length).toBeGreaterThan(0);
        expect(expression.evaluate({ datum, references: { reference1 } })).toBe(expected.join(','));
      }
    },
  },
  {
    name: 'site path from parent and key, over the monsore sites (the fake app has no CSV)',
    form: 3,
    matches: (e) => isFile(e, 'validation/') && (e.owner === 'chemin' || e.owner === 'tel_experimental_site'),
    check: (e) => {
      const sites = referenceRows(
        'sites',
        dataEntries(e.file).sites,
        csvRows('monsore', 'sites', dataEntries('monsore/monsore-with-repository-one-data-more.yaml').sites),
      );
      const children = sites.filter((row) => row.refValues.zet_chemin_parent !== '');
      expect(children.length).toBeGreaterThan(0);
      const expression = compiled(e);
      for (const child of children) {
        const site = { bassin: child.refValues.zet_chemin_parent, plateforme: child.refValues.zet_nom_key };
        const expected = sites.find(
          (row) => row.refValues.zet_chemin_parent === site.bassin && row.refValues.zet_nom_key === site.plateforme,
        );
        expect(expression.evaluate({ datum: { site }, references: { sites } })).toBe(expected!.hierarchicalKey);
      }
      // The fake app declares `site` as a plain column: Groovy cannot read `.bassin` on a String.
      expect(errorCode(expression, { datum: { site: 'oir' }, references: { sites } })).toBe('noSuchProperty');
    },
  },
  {
    name: 'site path from its natural key, over the monsore sites',
    form: 3,
    matches: (e) => isFile(e, 'validation/') && e.owner === 'site_bassin',
    check: (e) => {
      const sites = referenceRows(
        'sites',
        dataEntries(e.file).sites,
        csvRows('monsore', 'sites', dataEntries('monsore/monsore-with-repository-one-data-more.yaml').sites),
      );
      const expression = compiled(e);
      for (const row of sites) {
        const expected = sites.find((other) => other.naturalKey === row.naturalKey)!.hierarchicalKey;
        expect(expression.evaluate({ datum: { site: { bassin: row.naturalKey } }, references: { sites } })).toBe(
          expected,
        );
      }
    },
  },
  {
    name: 'unit checks that read a component the pem rows do not have (Groovy: NullPointerException on every row)',
    form: 3,
    matches: (e) => isFile(e, 'monsore/') && (e.owner === 'unitOfColor' || e.owner === 'unitOfIndividus'),
    check: (e) => {
      const monsore = dataEntries('monsore/monsore-with-repository-one-data-more.yaml');
      const units = csvRows(
        'monsore',
        'variables_et_unites_par_types_de_donnees',
        monsore.variables_et_unites_par_types_de_donnees,
      );
      const referencesValues = Object.fromEntries(e.references.map((name) => [name, units]));
      const rows = csvRows('monsore', 'pem', monsore.pem);
      expect(rows.length).toBe(272);
      const expression = compiled(e);
      for (const datum of rows) expect(errorCode(expression, { datum, referencesValues })).toBe('nullDereference');
    },
  },
  {
    name: 'flux value within its bounds (generated rows: the data file is not in the corpus)',
    form: 4,
    matches: (e) => isFile(e, 'acbb/') && e.kind === 'validation',
    check: (e) => {
      const prefix = e.owner
        .replace(/^check_/, 'flx_')
        .replace(/_value$/, '')
        .toLowerCase();
      const float = (text: string) => Math.fround(Number(text));
      const expression = compiled(e);
      for (const value of ['', '-9999', '12.5', '-3', '0.1', 'n/a'])
        for (const min of ['', '0', '20'])
          for (const max of ['', '100']) {
            const datum = { [`${prefix}_value`]: value, [`${prefix}_min`]: min, [`${prefix}_max`]: max };
            if (value === 'n/a') {
              expect(errorCode(expression, { datum })).toBe('numberFormat');
              continue;
            }
            // As Groovy reads the script: blank or -9999 passes; else min < value, and `maxValue != null ||
            // value <= maxValue` is false without a maximum (nothing is <= null).
            const expected =
              value === '' || value === '-9999' || ((min === '' || float(min) < float(value)) && max !== '');
            expect(expression.evaluate({ datum }), JSON.stringify(datum)).toBe(expected);
          }
    },
  },
  {
    name: 'data type among the escaped French titles of the application (application object + the original Ltree class)',
    form: 'application',
    matches: (e) => e.owner === 'checkDatatype',
    check: (e) => {
      const monsore = dataEntries('monsore/monsore-with-repository-one-data-more.yaml');
      const app = applicationValue(e.file, 'monsore');
      const rows = csvRows('monsore', e.dataName, monsore[e.dataName]);
      expect(rows.length).toBeGreaterThan(0);
      const expression = compiled(e);
      for (const datum of rows) {
        expect(expression.evaluate({ datum, application: app })).toBe(true);
        const titles = Object.values(app.configuration.i18n.data)
          .map((data) => data.i18n.title?.fr)
          .filter(Boolean) as string[];
        expect(titles.map(escapeLabel)).toContain(datum.datatype);
      }
      expect(expression.evaluate({ datum: { datatype: 'not_a_data_type' }, application: app })).toBe(false);
    },
  },
  {
    name: 'deliberately invalid Groovy, refused with its position',
    form: 'invalid',
    matches: (e) => e.file === 'recursivite/recusivite-bad-groovy.yaml',
    check: (e) => {
      const result = compileExpression(e.source);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      // The apostrophe opens a string that the line never closes.
      expect(result.errors[0]).toMatchObject({
        code: 'unterminatedString',
        line: 1,
        column: e.source.indexOf("'") + 1,
      });
    },
  },
];

if (!corpusAvailable()) {
  it(`corpus not found at ${CORPUS_FOLDER}: expression corpus suite not run`, () => {
    console.warn(`corpus not found at ${CORPUS_FOLDER}: expression corpus suite not run`);
  });
} else {
  const expressions = corpusExpressions();

  describe('corpus expressions', () => {
    it('are all classified in exactly one form', () => {
      expect(expressions.length).toBe(55);
      for (const expression of expressions) {
        const forms = FORMS.filter((form) => form.matches(expression)).map((form) => form.name);
        expect(forms, `${expression.file} ${expression.location.join(' > ')}`).toHaveLength(1);
      }
    });

    it('of forms 1–4 make up 91% of the corpus, and all compile', () => {
      const inForms = expressions.filter((e) => typeof FORMS.find((form) => form.matches(e))!.form === 'number');
      expect(Math.round((inForms.length / expressions.length) * 100)).toBe(91);
      for (const expression of expressions.filter((e) => !e.file.includes('bad-groovy'))) {
        expect(compileExpression(expression.source).ok, `${expression.file} ${expression.owner}`).toBe(true);
      }
    });

    it('declare in OA_references the references they read, except one monsore check', () => {
      const undeclared = expressions
        .map((e) => ({ e, result: compileExpression(e.source) }))
        .flatMap(({ e, result }) =>
          result.ok
            ? result.expression.referencedReferences
                .filter((name) => !e.references.includes(name))
                .map((name) => `${e.owner}:${name}`)
            : [],
        );
      expect([...new Set(undeclared)]).toEqual(['unitOfColor:site_theme_datatype']);
    });

    for (const form of FORMS) {
      it(`form ${form.form}: ${form.name}`, () => {
        const members = expressions.filter((e) => form.matches(e));
        expect(members.length).toBeGreaterThan(0);
        for (const expression of members) form.check(expression);
      });
    }
  });

  describe('fuzzing with mutated corpus expressions', () => {
    it('never lets anything but ExpressionError escape, over 20,000 mutations', () => {
      const sources = expressions.map((e) => e.source);
      const fragments = [
        '(',
        ')',
        '{',
        '}',
        '[',
        ']',
        '.',
        ',',
        ';',
        '\n',
        "'",
        '"',
        '$',
        '${',
        '->',
        '?.',
        '==',
        '!',
        'it',
        'null',
        '0',
        'def ',
        'return ',
      ];
      const next = seededRandom(0x2026);
      const random = (n: number) => next() * n;
      const pick = <T>(items: readonly T[]) => items[Math.floor(random(items.length))];
      const context = {
        datum: { site: { bassin: 'oir', plateforme: 'p1' }, datatype: 'x', nos: '1,2', flx_co2_value: '3' },
        references: {
          sites: [
            { naturalKey: 'oir', hierarchicalKey: 'h', refValues: { zet_chemin_parent: '', zet_nom_key: 'oir' } },
          ],
        },
        application: { name: 'a', configuration: { i18n: { data: {} } } },
      };
      let evaluated = 0;
      for (let run = 0; run < 20_000; run++) {
        let source = pick(sources);
        for (let edit = 1 + Math.floor(random(3)); edit > 0; edit--) {
          const at = Math.floor(random(source.length + 1));
          const length = 1 + Math.floor(random(6));
          switch (Math.floor(random(4))) {
            case 0:
              source = source.slice(0, at) + source.slice(at + length);
              break;
            case 1:
              source = source.slice(0, at) + pick(fragments) + source.slice(at);
              break;
            case 2:
              source = source.slice(0, at) + source.slice(at, at + length).repeat(2) + source.slice(at + length);
              break;
            default:
              source = source.slice(0, at) + String.fromCharCode(32 + Math.floor(random(95))) + source.slice(at + 1);
          }
        }
        const result = compileExpression(source);
        if (!result.ok) continue;
        evaluated++;
        try {
          result.expression.evaluate(context, { maxSteps: 20_000 });
        } catch (error) {
          if (!(error instanceof ExpressionError))
            throw new Error(`${String(error)} escaped for: ${source}`, { cause: error });
        }
      }
      expect(evaluated).toBeGreaterThan(1000);
    });
  });
}
