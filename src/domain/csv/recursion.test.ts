/**
 * Missing parents of a recursive entry, with and without `__ORDER_STRICT__` on the validation that holds the
 * recursive reference (the original's "ordered recursion").
 */
import { describe, expect, it } from 'vitest';
import { modelOf, validate } from './testKit';

const places = (tags: string) =>
  modelOf(`OA_version: 2.0.1
OA_application: {OA_name: essais, OA_version: 1.0.0}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      parent: null
    OA_validations:
      parentPlace:
        OA_tags: ${tags}
        OA_components: [parent]
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places, OA_isRecursive: true}}}
`);

const strict = places('[__ORDER_STRICT__]');
const lenient = places('[]');
const file = (...lines: string[]) => `code;parent\n${lines.join('\n')}\n`;

describe('recursive parents', () => {
  it('reads the tag from the validation holding the recursive reference', () => {
    expect(strict.data[0].hierarchy).toEqual({ parents: [], recursiveComponent: 'parent', orderStrict: true });
    expect(lenient.data[0].hierarchy.orderStrict).toBe(false);
  });

  it('without the tag, a parent may come later in the file', () => {
    const result = validate('places', file('Rive;Lac', 'Lac;'), { model: lenient });
    expect(result.report.errors).toEqual([]);
    expect(result.rows.map((row) => row.hierarchicalKey)).toEqual(['placesKlac.placesKrive', 'placesKlac']);
  });

  it('without the tag, every missing parent is named in one error without a line', () => {
    const result = validate('places', file('Lac;', 'Rive;Mer', 'Cap;Mer', 'Anse;Golfe'), { model: lenient });
    expect(result.report.errors).toEqual([
      {
        lineNumber: -1,
        code: 'missingrecursiveParentReferenceWithComponent',
        params: {
          component: 'parent',
          refType: 'places',
          referenceValues: ['lac', 'rive', 'cap', 'anse'],
          values: ['mer', 'golfe'],
        },
        column: 'parent',
      },
    ]);
    expect(result.rows.map((row) => row.naturalKey)).toEqual(['lac']);
  });

  it('with the tag, parents before children are accepted, stored parents too', () => {
    const stored = [{ naturalKey: 'mer', hierarchicalKey: 'placesKmer', values: { code: 'Mer', parent: '' } }];
    const result = validate('places', file('Lac;Mer', 'Rive;Lac'), { model: strict, references: { places: stored } });
    expect(result.report.errors).toEqual([]);
    expect(result.rows.map((row) => row.hierarchicalKey)).toEqual([
      'placesKmer.placesKlac',
      'placesKmer.placesKlac.placesKrive',
    ]);
  });

  it('with the tag, a child whose parent is not on an earlier line is refused at its line, and so are its children', () => {
    const result = validate('places', file('Rive;Lac', 'Lac;', 'Anse;Rive', 'Cap;Cap'), { model: strict });
    expect(result.report.errors.map((error) => [error.lineNumber, error.code, error.params.value])).toEqual([
      [2, 'invalidReferenceWithComponent', 'Lac'],
      [4, 'invalidReferenceWithComponent', 'Rive'],
      [5, 'invalidReferenceWithComponent', 'Cap'],
    ]);
    expect(result.report.errors[0]).toEqual({
      lineNumber: 2,
      code: 'invalidReferenceWithComponent',
      params: { component: 'parent', validation: 'parentPlace', value: 'Lac', refType: 'places', referenceValues: [] },
      column: 'parent',
      value: 'Lac',
    });
    expect(result.rows.map((row) => row.naturalKey)).toEqual(['lac']);
  });
});
