import { describe, expect, it } from 'vitest';
import { validateConfiguration, type ApplicationModel } from '../configuration';
import { associatesFromTable, normalizeAssociates, tableFromAssociates } from './associates';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: links
  OA_version: 1.0.0
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  counts:
    OA_tags: [__DATA__]
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
`;

function model(): ApplicationModel {
  const validated = validateConfiguration(new TextEncoder().encode(YAML), 'links.yaml');
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  return validated.value;
}

describe('associates of an additional file', () => {
  it('keep known data and scope components, keys as sorted texts', () => {
    expect(normalizeAssociates(model(), { sites: {}, counts: { scopes: { site: ['sitesKb', 'sitesKa', 'sitesKa', 3] } } })).toEqual({
      ok: true,
      associates: { sites: { scopes: {} }, counts: { scopes: { site: ['sitesKa', 'sitesKb'] } } },
    });
    expect(normalizeAssociates(model(), null)).toEqual({ ok: true, associates: {} });
  });

  it('refuse unknown data, unknown scopes and other shapes', () => {
    const refused = normalizeAssociates(model(), { fish: {}, counts: { scopes: { day: ['x'] } } });
    expect(refused.ok ? [] : refused.problems.map((p) => p.code)).toEqual(['UNKNOWN_DATA', 'UNKNOWN_SCOPE']);
    expect(normalizeAssociates(model(), ['counts']).ok).toBe(false);
  });

  it('go to the rights table and back', () => {
    const associates = { sites: { scopes: {} }, counts: { scopes: { site: ['sitesKa'] } } };
    expect(associatesFromTable(model(), tableFromAssociates(associates))).toEqual(associates);
    expect(associatesFromTable(model(), { counts: { all: [], nodes: { site: { extraction: [] } } } })).toEqual({});
  });
});
