import { describe, expect, it } from 'vitest';
import { validateConfiguration, type ApplicationModel } from '../configuration';
import {
  nodeChosen,
  normalizeAssociates,
  toggleScopeNode,
  toggleWholeData,
  withRenamedAssociateKeys,
} from './associates';

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
    expect(
      normalizeAssociates(model(), { sites: {}, counts: { scopes: { site: ['sitesKb', 'sitesKa', 'sitesKa', 3] } } }),
    ).toEqual({
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

  it('attach to a whole entry or detach from it', () => {
    expect(toggleWholeData({}, 'sites')).toEqual({ sites: { scopes: {} } });
    expect(toggleWholeData({ sites: { scopes: {} } }, 'sites')).toEqual({});
    expect(toggleWholeData({ counts: { scopes: { site: ['alps'] } } }, 'counts')).toEqual({ counts: { scopes: {} } });
    expect(nodeChosen({ counts: { scopes: {} } }, 'counts', 'site', 'alps')).toBe('whole');
  });

  it('attach to nodes of a scope tree, a node standing for its sub-tree', () => {
    let associates = toggleScopeNode({}, 'counts', 'site', 'alps.lac_blanc');
    expect(associates).toEqual({ counts: { scopes: { site: ['alps.lac_blanc'] } } });
    associates = toggleScopeNode(associates, 'counts', 'site', 'alps');
    expect(associates).toEqual({ counts: { scopes: { site: ['alps'] } } });
    expect(nodeChosen(associates, 'counts', 'site', 'alps')).toBe('self');
    expect(nodeChosen(associates, 'counts', 'site', 'alps.lac_blanc')).toBe('ancestor');
    expect(nodeChosen(associates, 'counts', 'site', 'alpsx')).toBeNull();
    expect(toggleScopeNode(associates, 'counts', 'site', 'alps')).toEqual({});
    expect(toggleScopeNode({ counts: { scopes: {} } }, 'counts', 'site', 'alps')).toEqual({
      counts: { scopes: { site: ['alps'] } },
    });
  });

  it('names moved nodes by their new keys, once, and says when none moved', () => {
    const renamed = new Map([['alps.lac_blanc', 'vanoise.lac_blanc']]);
    const associates = {
      counts: { scopes: { site: ['alps.lac_blanc', 'vanoise', 'vanoise.lac_blanc'] } },
      sites: { scopes: {} },
    };
    expect(withRenamedAssociateKeys(associates, renamed)).toEqual({
      counts: { scopes: { site: ['vanoise', 'vanoise.lac_blanc'] } },
      sites: { scopes: {} },
    });
    expect(withRenamedAssociateKeys({ counts: { scopes: { site: ['alps'] } } }, renamed)).toBeNull();
  });
});
