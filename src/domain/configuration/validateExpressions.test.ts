import { describe, expect, it } from 'vitest';
import { modelOf, validate } from '../csv/testKit';
import { validateConfiguration } from './index';

/** A reference `units` and a data type whose computed component `label` has the given expression and references. */
const computed = (expression: string, references: string) => `OA_version: 2.0.1
OA_application: {OA_name: demo, OA_version: 1.0.0}
OA_data:
  units:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
    OA_computedComponents:
      label:
        OA_computation:
          OA_expression: ${JSON.stringify(expression)}
          OA_references: ${references}
`;

const read = (text: string) => validateConfiguration(new TextEncoder().encode(text), 'test.yaml');

describe('a reference listed in OA_references', () => {
  it('that the expression never reads is accepted with a warning', () => {
    const result = read(computed('return datum.code', '[units]'));
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'REFERENCE_LISTED_BUT_NOT_READ',
        path: 'OA_data > sites > OA_computedComponents > label > OA_computation > OA_references',
        params: { referenceName: 'units' },
        line: 16,
        column: 27,
      },
    ]);
  });

  it('that the expression reads by name gives no warning', () => {
    expect(read(computed('return references.units.size()', '[units]')).warnings).toEqual([]);
  });

  it('gives no warning when the expression reads references in a way that does not name them', () => {
    expect(read(computed('return references[datum.code]?.size()', '[units]')).warnings).toEqual([]);
  });
});

/** A reference whose `tool` is checked by an expression reading `value`, as the original's own example does. */
const CHECKED_BY_VALUE = `OA_version: 2.0.1
OA_application: {OA_name: demo, OA_version: 1.0.0}
OA_data:
  species:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      tool:
        OA_checker:
          OA_name: OA_groovyExpression
          OA_params:
            OA_groovy:
              OA_expression: "return ['T_11', 'T_12'].contains(value) && known(datum.code) && value != ''"
`;

describe('a name an expression reads that nothing defines', () => {
  it('is accepted as the original accepts it, with one warning per name, at its first reading', () => {
    const result = read(CHECKED_BY_VALUE);
    expect(result.ok, JSON.stringify(!result.ok && result.errors)).toBe(true);
    const path = 'OA_data > species > OA_basicComponents > tool > OA_checker > OA_params > OA_groovy > OA_expression';
    expect(result.warnings.map(({ code, path, params }) => ({ code, path, params }))).toEqual([
      {
        code: 'EXPRESSION_NAME_UNKNOWN',
        path,
        params: { name: 'value', expressionCode: 'unknownVariable', expressionLine: 1, expressionColumn: 34 },
      },
      {
        code: 'EXPRESSION_NAME_UNKNOWN',
        path,
        params: { name: 'known', expressionCode: 'unknownMethod', expressionLine: 1, expressionColumn: 44 },
      },
    ]);
  });

  it('refuses every line that reaches it, saying which name has no value', () => {
    const model = modelOf(CHECKED_BY_VALUE);
    const { report } = validate('species', 'code;tool\na;T_11\nb;T_12\n', { model });
    expect(report.errors.map((error) => [error.lineNumber, error.code, error.params.errorCode])).toEqual([
      [2, 'expressionEvaluationError', 'unknownVariable'],
      [3, 'expressionEvaluationError', 'unknownVariable'],
    ]);
    expect(String(report.errors[0].params.message)).toContain("'value'");
  });
});
