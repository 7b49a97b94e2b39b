import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import { readFileName } from './fileName';
import { withoutLeadingNullParts } from '../keys';
import {
  findNamedScopeRow,
  findScopeRow,
  isWithinScope,
  naturalPath,
  scopeRowLookup,
  type ScopeRow,
} from './scopeValues';

const yaml = `
OA_version: 2.0.1
OA_application: {OA_name: deposits, OA_version: 1.0.0}
OA_data:
  projects:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null}
  surveys:
    OA_tags: [__DATA__]
    OA_naturalKey: [project, day]
    OA_basicComponents:
      project:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: projects}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - OA_reference: projects
            OA_component: project
        OA_timeScope:
          OA_component: day
      OA_fileName:
        OA_filePattern: "(.*)~(.*)~(.*)\\\\.csv"
        OA_matchPatternScopes: [project, __START_DATE__, __END_DATE__]
`;

describe('deposit file names', () => {
  const result = validateConfiguration(new TextEncoder().encode(yaml), 'deposits.yaml');
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const submission = result.value.data.find((d) => d.name === 'surveys')!.submission;

  it('give the scope and the period when they follow the pattern', () => {
    expect(readFileName(submission, 'alps~01/06/2024~30/06/2024.csv')).toEqual({
      scope: { project: 'alps' },
      from: '2024-06-01T00:00:00',
      to: '2024-06-30T00:00:00',
    });
    expect(readFileName(submission, 'alps~01-06-2024~30-06-2024.csv')?.from).toBe('2024-06-01T00:00:00');
  });

  it('propose no date for a day that does not exist (the user types the period)', () => {
    expect(readFileName(submission, 'alps~01/02/2023~31/02/2023.csv')).toEqual({
      scope: { project: 'alps' },
      from: '2023-02-01T00:00:00',
      to: undefined,
    });
    expect(readFileName(submission, 'alps~29-02-2023~2023-03-31.csv')).toEqual({
      scope: { project: 'alps' },
      from: undefined,
      to: '2023-03-31T00:00:00',
    });
  });

  it('give nothing when the name does not follow it', () => {
    expect(readFileName(submission, 'survey.csv')).toBeUndefined();
  });
});

describe('scope values', () => {
  const rows = [
    { naturalKey: 'plateforme', hierarchicalKey: 'typesKplateforme' },
    { naturalKey: 'oir', hierarchicalKey: 'typesKplateforme.sitesKoir' },
  ];
  it('name a row by hierarchical key, natural path or natural key', () => {
    expect(findScopeRow(rows, 'typesKplateforme.sitesKoir')).toBe(rows[1]);
    expect(findScopeRow(rows, 'plateforme.oir')).toBe(rows[1]);
    expect(findScopeRow(rows, 'oir')).toBe(rows[1]);
    expect(findScopeRow(rows, 'nothing')).toBeUndefined();
    expect(naturalPath('typesKplateforme.sitesKoir')).toBe('plateforme.oir');
  });
  it('name a row by the last label of a path written otherwise, only when one row has it', () => {
    const tree = [
      { naturalKey: 'NULL_KEY__scarff', hierarchicalKey: 'typesKbassin.sitesKNULL_KEY__scarff' },
      { naturalKey: 'scarff__p1', hierarchicalKey: 'typesKbassin.sitesKNULL_KEY__scarff.sitesKscarff__p1' },
      { naturalKey: 'p2', hierarchicalKey: 'typesKa.sitesKp2' },
      { naturalKey: 'p2', hierarchicalKey: 'typesKb.sitesKp2' },
    ];
    expect(findScopeRow(tree, 'plateforme.scarff.scarff__p1')).toBe(tree[1]);
    expect(findScopeRow(tree, 'bassin.scarff')).toBe(tree[0]);
    expect(findScopeRow(tree, 'c.p2')).toBeUndefined();
    expect(findScopeRow(tree, 'scarff__p9')).toBeUndefined();
  });
  it('are found among the few rows their lookup names, as among every row', () => {
    // Rows of one reference (natural keys are unique there), as a server reads them: by key, then by path end.
    const sites: ScopeRow[] = [
      { naturalKey: 'NULL_KEY__scarff', hierarchicalKey: 'sitesKNULL_KEY__scarff' },
      { naturalKey: 'scarff__p1', hierarchicalKey: 'sitesKNULL_KEY__scarff.sitesKscarff__p1' },
      { naturalKey: 'NULL_KEY__NULL_KEY__p2', hierarchicalKey: 'sitesKNULL_KEY__NULL_KEY__p2' },
      { naturalKey: 'p3', hierarchicalKey: 'sitesKp3' },
      { naturalKey: 'NULL_KEY__p3', hierarchicalKey: 'sitesKNULL_KEY__p3' },
      { naturalKey: 'oir', hierarchicalKey: 'sitesKp3.sitesKoir' },
    ];
    const lookedUp = (text: string) => {
      const lookup = scopeRowLookup(text, 3);
      const named = sites.filter(
        (row) => row.hierarchicalKey === lookup.hierarchicalKey || lookup.naturalKeys.includes(row.naturalKey),
      );
      const found = findNamedScopeRow(named, text);
      const ends = lookup.pathEnds;
      if (found || ends === null) return found;
      return findScopeRow(sites.filter((row) => ends.includes(row.naturalKey)).slice(0, 2), text);
    };
    const texts = [
      ...sites.flatMap((row) => [row.naturalKey, row.hierarchicalKey, naturalPath(row.hierarchicalKey)]),
      ...sites.map((row) => `elsewhere.${withoutLeadingNullParts(row.naturalKey)}`),
      ' p3 ',
      'x.NULL_KEY__p2',
      'nothing',
      'a.nothing',
      'x.p3',
    ];
    for (const text of texts) expect(lookedUp(text), text).toBe(findScopeRow(sites, text));
    expect(lookedUp('elsewhere.p2')).toBe(sites[2]);
    expect(lookedUp('x.p3')).toBeUndefined();
  });
  it('contain their sub-trees', () => {
    expect(isWithinScope('typesKplateforme.sitesKoir', 'typesKplateforme')).toBe(true);
    expect(isWithinScope('typesKplateformeX', 'typesKplateforme')).toBe(false);
  });
});
