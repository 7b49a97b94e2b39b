import { describe, expect, it } from 'vitest';
import type { DynamicComponent, PatternComponent } from '../configuration/model';
import { readableCell, uniqueTitles } from './readableCells';

const reference = (name: string) =>
  ({ kind: 'reference', reference: name, isParent: false, isRecursive: false, multiplicity: 'ONE' }) as const;

describe('titles of the readable export', () => {
  it('follows a title shared by several columns with their import headers, and leaves the others alone', () => {
    expect(
      uniqueTitles([
        { title: 'Site', importHeader: 'site', key: 'site' },
        { title: 'Site', importHeader: 'site_fr', key: 'name_fr' },
        { title: 'Site', importHeader: 'site_en', key: 'name_en' },
        { title: 'Altitude', importHeader: 'alt', key: 'altitude' },
      ]),
    ).toEqual(['Site (site)', 'Site (site_fr)', 'Site (site_en)', 'Altitude']);
  });

  it('uses the component key when the import headers do not tell the columns apart', () => {
    expect(
      uniqueTitles([
        { title: 'valeur', key: 'tel_S1' },
        { title: 'valeur', key: 'tel_S2' },
        { title: 'code', importHeader: 'code', key: 'code' },
        { title: 'code', importHeader: 'code', key: 'code_en' },
      ]),
    ).toEqual(['valeur (tel_S1)', 'valeur (tel_S2)', 'code (code)', 'code (code_en)']);
  });
});

describe('dynamic and pattern cells of the readable export', () => {
  it('writes a dynamic component as an object keyed by the headers of its columns', () => {
    const component = { kind: 'dynamic', key: 'props', checker: null } as unknown as DynamicComponent;
    const header = (_: DynamicComponent, key: string) => `ps_${key.slice(key.indexOf('K') + 1)}`;
    const text = readableCell(component, { spKsurface: '', spKaltitude: '1200' }, header);
    expect(text).toBe('{"ps_altitude":"1200","ps_surface":""}');
  });

  it('writes a pattern component as a JSON array, references by natural key', () => {
    const component = {
      kind: 'pattern',
      key: 'tel_S1',
      checker: null,
      adjacents: [{ name: 'swc_qc', checker: null }],
      qualifiers: [{ name: 'tel_S1_variable', checker: reference('site') }],
    } as unknown as PatternComponent;
    const stored = [
      { value: '3.4', header: 'annecy_S1', adjacents: { swc_qc: 0 }, qualifiers: { tel_S1_variable: 'siteKannecy' } },
      { value: '5.2', header: 'aiguebelette_S1', adjacents: {}, qualifiers: { tel_S1_variable: 'siteKaiguebelette' } },
    ];
    expect(JSON.parse(readableCell(component, stored, () => ''))).toEqual([
      { column: 'annecy_S1', value: '3.4', adjacents: { swc_qc: '0' }, qualifiers: { tel_S1_variable: 'annecy' } },
      {
        column: 'aiguebelette_S1',
        value: '5.2',
        adjacents: { swc_qc: '' },
        qualifiers: { tel_S1_variable: 'aiguebelette' },
      },
    ]);
    expect(readableCell(component, null, () => '')).toBe('');
  });
});
