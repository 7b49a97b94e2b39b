/** The context variables of §12.1, getters mapped to properties, and the OA_ helper functions. */
import { describe, expect, it } from 'vitest';
import type { ApplicationValue, ReferenceRow } from './index';
import { ExpressionError } from './index';
import { compileErrors, failure, run, text } from './testKit';

const stations: ReferenceRow[] = [
  {
    naturalKey: 'north',
    hierarchicalKey: 'regionsKeast.stationsKnorth',
    refValues: { code: 'north', region: 'east', altitude: '120' },
  },
  {
    naturalKey: 'south',
    hierarchicalKey: 'regionsKwest.stationsKsouth',
    refValues: { code: 'south', region: 'west', altitude: '40' },
  },
  {
    naturalKey: 'lake',
    hierarchicalKey: 'regionsKeast.stationsKlake',
    refValues: { code: 'lake', region: 'east', altitude: '300' },
  },
];

describe('context variables', () => {
  it('reads the row, the names and the raw file context', () => {
    const context = {
      datum: { station: 'north', depth: '12' },
      applicationName: 'lakes',
      dataName: 'measures',
      currentRowNumber: 8,
      currentRow: ['north', '12'],
      headerRow: ['station', 'depth'],
    };
    expect(run('datum.station + "@" + applicationName + "/" + dataName', context)).toBe('north@lakes/measures');
    expect(run('currentRowNumber + 1', context)).toBe(9);
    expect(run('headerRow[1] + "=" + currentRow[1]', context)).toBe('depth=12');
  });

  it('gives null for a context variable the caller did not provide', () => {
    expect(run('datum')).toBe(null);
    expect(run('references?.stations')).toBe(null);
  });

  it('reads reference rows by property or by getter', () => {
    const context = { datum: { station: 'lake' }, references: { stations } };
    expect(run('references.stations.find { it.naturalKey == datum.station }.hierarchicalKey', context)).toBe(
      'regionsKeast.stationsKlake',
    );
    expect(
      run('references.stations.find { it.getNaturalKey().equals(datum.station) }.getHierarchicalKey()', context),
    ).toBe('regionsKeast.stationsKlake');
    expect(
      run("references.stations.findAll { it.getRefValues().region == 'east' }.collect { it.refValues.code }", context),
    ).toEqual(['north', 'lake']);
    expect(run('references.stations.refValues.altitude.collect { it.toInteger() }.sum()', context)).toBe(460);
  });

  it('reads referencesValues as lists of value maps', () => {
    const referencesValues = { stations: stations.map((row) => row.refValues) };
    expect(run("referencesValues.stations.find { it.get('code') == 'south' }.altitude", { referencesValues })).toBe(
      '40',
    );
  });

  it('reaches the application titles the way the original object graph does', () => {
    const application: ApplicationValue = {
      name: 'lakes',
      configuration: {
        i18n: {
          data: {
            measures: { i18n: { title: { fr: 'Mesures du lac', en: 'Lake measures' } } },
            stations: { i18n: { title: { fr: 'Stations' } } },
          },
        },
      },
    };
    const titles =
      'application.getConfiguration().i18n().data.collect { it.value.i18n.title.get(java.util.Locale.FRENCH) }';
    expect(run(titles, { application })).toEqual(['Mesures du lac', 'Stations']);
    expect(run('application.name', { application })).toBe('lakes');
  });

  it("lists the application's data names, as the original's getData() does", () => {
    const application: ApplicationValue = {
      name: 'lakes',
      data: ['stations', 'measures'],
      configuration: { i18n: { data: {} } },
    };
    expect(run("application.getData().contains('measures')", { application })).toBe(true);
    expect(run("application.data.contains('plots')", { application })).toBe(false);
  });

  it('reads a number handed in as JavaScript number with its Groovy kind', () => {
    expect(text('datum.count / 2', { datum: { count: 3 } })).toBe('1.5');
    expect(text('datum.big + 1', { datum: { big: 2 ** 40 } })).toBe('1099511627777');
    expect(text('datum.ratio * 2', { datum: { ratio: 0.25 } })).toBe('0.5');
    // Numbers inside a list the caller hands in are read the same way when they are used.
    const datum = { values: [1.5, 2, -0.5] };
    expect(text('datum.values.sum()', { datum })).toBe('3.0');
    expect(text('datum.values[0] + 1', { datum })).toBe('2.5');
    expect(run('datum.values[0].toInteger() + datum.values.max().intValue()', { datum })).toBe(3);
    expect(run('datum.values[0] instanceof Double && datum.values[1] instanceof Integer', { datum })).toBe(true);
    expect(text('-datum.values[2]', { datum })).toBe('0.5');
  });
});

describe('helper functions', () => {
  it('build a composite key from datum components', () => {
    const datum = { region: 'Côte Nord', station: 'Lac-Bleu 2', empty: '' };
    expect(run("OA_buildCompositeKey(['region', 'station'])", { datum })).toBe('cote_nord__lacbleu_2');
    expect(run("OA_buildCompositeKey(['region', 'empty'])", { datum })).toBe('cote_nord__NULL_KEY');
    expect(run("OA_buildCompositeKey(['empty', 'missing'])", { datum })).toBe('');
  });

  it('build one key per position from comma-separated components', () => {
    const datum = { region: 'East,West', station: 'A, B' };
    expect(run("OA_buildManyCompositeKey(['region', 'station'])", { datum })).toBe('east__a,west__b');
  });

  it('escape a label', () => {
    expect(run("OA_escapeLabel('Prélèvement : 10h')")).toBe('prelevement_COLON_10h');
    expect(failure("OA_escapeLabel('')").code).toBe('invalidLabel');
  });

  it('raise a named exception with its translated message and params', () => {
    const groovyExceptions = { UNKNOWN_STATION: { fr: 'Station inconnue', en: 'Unknown station' } };
    const error = failure("throw OA_buildException('UNKNOWN_STATION', [station: datum.station, known: ['a', 'b']])", {
      datum: { station: 'x' },
      groovyExceptions,
    });
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.code).toBe('groovyException');
    expect(error.params).toEqual({
      exception: 'UNKNOWN_STATION',
      messages: { fr: 'Station inconnue', en: 'Unknown station' },
      params: { station: 'x', known: ['a', 'b'] },
    });
    expect(failure("OA_buildException('OTHER')", { groovyExceptions }).params).toMatchObject({
      exception: 'OTHER',
      messages: null,
    });
  });

  it('check their number of arguments when compiling', () => {
    expect(compileErrors('OA_escapeLabel()')[0]).toMatchObject({ code: 'badArguments', construct: 'OA_escapeLabel' });
    expect(compileErrors("OA_naturalKeyBuilder.forDatumField('a')")[0]).toMatchObject({
      code: 'unsupportedConstruct',
      construct: 'OA_naturalKeyBuilder',
    });
  });

  it('only throw built exceptions', () => {
    expect(failure("throw 'text'").code).toBe('cannotCast');
  });
});
