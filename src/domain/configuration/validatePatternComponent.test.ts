import { describe, expect, it } from 'vitest';
import { validateConfiguration } from './index';

/** A data type with one pattern component whose qualifiers and adjacents are given, indented under it. */
function pattern(parts: string): string {
  return `OA_version: 2.0.1
OA_application: {OA_name: demo, OA_version: 1.0.0}
OA_data:
  variables:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  measures:
    OA_naturalKey: [day]
    OA_basicComponents:
      day: null
    OA_patternComponents:
      reading:
        OA_patternForComponents: "(.*)_(.*)"
${parts
  .trim()
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
`;
}

const read = (text: string) => validateConfiguration(new TextEncoder().encode(text), 'test.yaml');
const READING = 'OA_data > measures > OA_patternComponents > reading';
const reading = (result: ReturnType<typeof read>) => {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const component = result.value.data[1].components.find((candidate) => candidate.key === 'reading');
  if (component?.kind !== 'pattern') throw new Error('no pattern component');
  return component;
};

describe('an adjacent whose keys are written beside its name', () => {
  const BESIDE = `
OA_componentQualifiers:
  - variable: {}
  - depth: {}
OA_componentAdjacents:
  - unite:
    OA_importHeaderPattern: "{$1}_unit"
    OA_mandatory: true`;

  it('is read as the adjacent, with a warning', () => {
    const result = read(pattern(BESIDE));
    expect(reading(result).adjacents).toMatchObject([
      { name: 'unite', storedKey: 'reading::unite', headerTemplate: '{$1}_unit', mandatory: true },
    ]);
    expect(result.warnings).toEqual([
      {
        code: 'PART_KEYS_READ_BESIDE_NAME',
        path: `${READING} > OA_componentAdjacents > unite`,
        params: { name: 'unite' },
        line: 19,
        column: 13,
      },
    ]);
  });

  it('keeps the strict reading when a key beside the name is not a format key', () => {
    const result = read(pattern(BESIDE.replace('OA_mandatory: true', 'other: true')));
    expect(result.ok ? [] : result.errors.map((error) => error.code)).toContain('MISSING_IMPORT_HEADER_PATTERN');
  });
});

describe('an adjacent whose keys are written as a list of one-key maps', () => {
  const LISTED = `
OA_componentAdjacents:
  - unite:
      - OA_importHeaderPattern: "{$1}_unit"
      - OA_required: true`;

  it('is read as the adjacent, with a warning', () => {
    const result = read(pattern(LISTED));
    expect(reading(result).adjacents).toMatchObject([{ name: 'unite', headerTemplate: '{$1}_unit', required: true }]);
    expect(result.warnings).toMatchObject([
      {
        code: 'PART_KEYS_READ_FROM_LIST',
        path: `${READING} > OA_componentAdjacents > unite`,
        params: { name: 'unite' },
      },
    ]);
  });

  it('stays an error when a key is written twice', () => {
    const result = read(
      pattern(`${LISTED}
      - OA_required: false`),
    );
    expect(result.ok ? [] : result.errors.map((error) => error.code)).toContain('BAD_OBJECT_REQUIRED_SECTIONS');
    expect(result.warnings).toEqual([]);
  });
});

describe('OA_defaultValue on an adjacent', () => {
  it('is accepted and ignored, as the original has no default value for adjacents, with a warning', () => {
    const result = read(
      pattern(`
OA_componentAdjacents:
  - quality:
      OA_importHeaderPattern: "{$1}_qc"
      OA_defaultValue:
        OA_expression: "'A'"`),
    );
    expect(reading(result).adjacents[0]).not.toHaveProperty('defaultValue');
    expect(result.warnings).toMatchObject([
      {
        code: 'ADJACENT_DEFAULT_VALUE_IGNORED',
        path: `${READING} > OA_componentAdjacents > quality > OA_defaultValue`,
        params: { adjacentName: 'quality' },
      },
    ]);
  });
});

describe('an OA_checker indented under OA_exportHeader', () => {
  const NESTED = `
OA_componentQualifiers:
  - variable:
      OA_exportHeader:
        OA_title: {fr: Variable, en: Variable}
        OA_checker:
          OA_name: OA_reference
          OA_params: {OA_reference: {OA_name: variables}}`;

  it('is ignored, as the original ignores it, with a warning', () => {
    const result = read(pattern(NESTED));
    expect(reading(result).qualifiers[0]).toMatchObject({
      name: 'variable',
      exportHeader: { title: { fr: 'Variable', en: 'Variable' }, description: {} },
    });
    expect(reading(result).qualifiers[0].checker ?? null).toBeNull();
    expect(result.warnings).toMatchObject([
      {
        code: 'CHECKER_IGNORED_UNDER_EXPORT_HEADER',
        path: `${READING} > OA_componentQualifiers > variable > OA_exportHeader`,
        line: 19,
      },
    ]);
  });

  it('is ignored, with a warning, when the qualifier has its own checker', () => {
    const result = read(
      pattern(`${NESTED}
      OA_checker: {OA_name: OA_integer}`),
    );
    expect(reading(result).qualifiers[0].checker).toMatchObject({ kind: 'integer' });
    expect(result.warnings.map((warning) => warning.code)).toEqual(['CHECKER_IGNORED_UNDER_EXPORT_HEADER']);
  });

  it('is ignored the same way on a component and on an adjacent, their own checkers kept', () => {
    const result = read(
      pattern(`
OA_exportHeader:
  OA_title: {en: Reading}
  OA_checker: {OA_name: OA_float}
OA_componentAdjacents:
  - quality:
      OA_importHeaderPattern: "{$1}_qc"
      OA_exportHeader:
        OA_checker: {OA_name: OA_integer}
      OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
OA_checker: {OA_name: OA_integer}`),
    );
    const component = reading(result);
    expect(component.checker).toMatchObject({ kind: 'integer' });
    expect(component.adjacents[0].checker).toMatchObject({ kind: 'date' });
    expect(result.warnings.map((warning) => warning.path)).toEqual([
      `${READING} > OA_exportHeader`,
      `${READING} > OA_componentAdjacents > quality > OA_exportHeader`,
    ]);
  });
});

describe('a configuration without those layouts', () => {
  it('has no warning', () => {
    const result = read(pattern(`OA_componentQualifiers:\n  - variable: {}`));
    expect(result).toMatchObject({ ok: true, warnings: [] });
  });
});
