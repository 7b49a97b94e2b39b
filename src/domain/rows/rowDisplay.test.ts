import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import { rowDisplay } from './rowDisplay';

const yaml = `
OA_version: 2.0.1
OA_application: {OA_name: display, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [parent, code]
    OA_i18nDisplayPattern:
      OA_title: {fr: "{code} ({parent})"}
    OA_basicComponents:
      code: null
      parent:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
`;

describe('a row shown by its display pattern', () => {
  const result = validateConfiguration(new TextEncoder().encode(yaml), 'display.yaml');
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const sites = result.value.data.find((d) => d.name === 'sites')!;

  it('names the rows it points to as people write them, without empty leading parts', () => {
    expect(rowDisplay(sites, { code: 'p1', parent: 'NULL_KEY__nivelle' }, 'nivelle__p1', 'fr', 'fr')).toBe(
      'p1 (nivelle)',
    );
    expect(rowDisplay(sites, { code: 'a', parent: 'oir__p1' }, 'oir__p1__a', 'fr', 'fr')).toBe('a (oir__p1)');
  });

  it('falls back to the natural key without a pattern in any language', () => {
    const bare = { ...sites, displayPattern: null };
    expect(rowDisplay(bare, { code: 'x' }, 'NULL_KEY__x', 'en', 'fr')).toBe('NULL_KEY__x');
  });
});
