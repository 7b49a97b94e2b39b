import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import { readRowQuery } from '../rows/rowQuery';
import { versionRowsQuery } from './versionRows';

const yaml = `
OA_version: 2.0.1
OA_application: {OA_name: deposits, OA_version: 1.0.0}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null}
  surveys:
    OA_tags: [__DATA__]
    OA_naturalKey: [place, day]
    OA_basicComponents:
      place:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - OA_reference: places
            OA_component: place
        OA_timeScope:
          OA_component: day
`;
const model = validateConfiguration(new TextEncoder().encode(yaml), 'deposits.yaml');
if (!model.ok) throw new Error(JSON.stringify(model.errors));
const surveys = model.value.data.find((d) => d.name === 'surveys')!;

/** A tree: the Alps hold the Mont Blanc, which holds the Aiguilles; `mont_blanc_sud` only begins alike. */
const PLACES = [
  { naturalKey: 'alps', hierarchicalKey: 'placesKalps' },
  { naturalKey: 'mont_blanc', hierarchicalKey: 'placesKalps.placesKmont_blanc' },
  { naturalKey: 'aiguilles', hierarchicalKey: 'placesKalps.placesKmont_blanc.placesKaiguilles' },
  { naturalKey: 'mont_blanc_sud', hierarchicalKey: 'placesKalps.placesKmont_blanc_sud' },
];
const rowsOf = (reference: string) => (reference === 'places' ? PLACES : []);

describe("the rows of a version's dataset", () => {
  it("are asked for by the natural keys of the dataset's node and of the rows under it, and by its period", () => {
    const query = versionRowsQuery(
      surveys,
      { scope: { place: 'placesKalps.placesKmont_blanc' }, from: '2024-05-16T00:00:00', to: '2024-06-15T00:00:00' },
      rowsOf,
    );
    expect(query).toEqual({
      componentFilters: [
        { componentKey: 'place', filters: ['mont_blanc', 'aiguilles'] },
        { componentKey: 'day', intervalValues: { from: '2024-05-16T00:00:00', to: '2024-06-15T00:00:00' } },
      ],
    });
    // What the exports read back is that same query.
    expect(readRowQuery(JSON.stringify(query))).toEqual({ ok: true, query });
  });

  it('ask for the whole day of a version of one instant, which a filter from a bound to itself would not', () => {
    const query = versionRowsQuery(
      surveys,
      { scope: { place: 'placesKalps' }, from: '2024-06-15T00:00:00', to: '2024-06-15T00:00:00' },
      rowsOf,
    );
    expect(query?.componentFilters?.[1]).toEqual({
      componentKey: 'day',
      intervalValues: { from: '2024-06-15', to: '2024-06-15T23:59:59' },
    });
  });

  it('are not asked for when the dataset row is unknown here, rather than asking for more', () => {
    expect(versionRowsQuery(surveys, { scope: { place: 'placesKvanoise' }, from: null, to: null }, rowsOf)).toBeNull();
    expect(versionRowsQuery(surveys, { scope: { place: 'placesKalps' }, from: null, to: null }, () => [])).toBeNull();
  });
});
