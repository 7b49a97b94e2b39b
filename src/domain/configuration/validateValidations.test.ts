import { describe, expect, it } from 'vitest';
import { validateConfiguration } from './index';

const places = (validation: string, parent = 'null') => `OA_version: 2.0.1
OA_application: {OA_name: essais, OA_version: 1.0.0}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
      parent: ${parent}
    OA_validations:
      rule:
${validation}
`;

const RECURSIVE = '{OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places, OA_isRecursive: true}}}';
const read = (text: string) => validateConfiguration(new TextEncoder().encode(text), 'test.yaml');

describe('OA_tags of a validation', () => {
  it('accepts __ORDER_STRICT__, which orders the recursion when the rule holds the recursive reference', () => {
    const result = read(
      places(`        OA_tags: [__ORDER_STRICT__]\n        OA_components: [parent]\n        OA_checker: ${RECURSIVE}`),
    );
    expect(result.ok && result.value.data[0].hierarchy.orderStrict).toBe(true);
  });

  it('accepts the tag on another rule, without effect there (as the original)', () => {
    const result = read(
      places(
        `        OA_tags: [__ORDER_STRICT__]\n        OA_components: [label]\n        OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "[a-z]+"}}`,
        `\n        OA_checker: ${RECURSIVE}`,
      ),
    );
    expect(result.ok && result.value.data[0].hierarchy).toEqual({
      parents: [],
      recursiveComponent: 'parent',
      orderStrict: false,
    });
  });

  it('refuses a tag that is neither reserved nor declared, without naming __ORDER_STRICT__ among the accepted', () => {
    const result = read(
      places(`        OA_tags: [Strict]\n        OA_components: [parent]\n        OA_checker: ${RECURSIVE}`),
    );
    expect(result.ok ? [] : result.errors).toMatchObject([
      {
        code: 'BAD_TAGS_PATTERNS',
        path: 'OA_data > places > OA_validations > rule > OA_tags',
        params: {
          badTag: 'Strict',
          acceptedTagPatterns: ['__HIDDEN__', '__DATA__', '__REFERENCE__', '__ORDER_(\\d*)__', 'no-tag'],
        },
      },
    ]);
  });
});

describe('an expression rule without OA_components', () => {
  const EXPRESSION = '{OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return true"}}}';

  it.each([
    ['absent', ''],
    ['empty', '\n        OA_components: []'],
  ])('is accepted with a warning that it will not run (%s)', (_, components) => {
    const result = read(places(`        OA_checker: ${EXPRESSION}${components}`));
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'VALIDATION_WITHOUT_COMPONENTS',
        path: 'OA_data > places > OA_validations > rule',
        params: { validationName: 'rule' },
        line: 11,
        column: 7,
      },
    ]);
  });

  it('runs, without warning, when it lists a component', () => {
    const result = read(places(`        OA_checker: ${EXPRESSION}\n        OA_components: [label]`));
    expect(result).toMatchObject({ ok: true, warnings: [] });
  });
});
