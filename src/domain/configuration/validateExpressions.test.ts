import { describe, expect, it } from 'vitest';
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
