/**
 * The survey of the Groovy expressions found in OpenADOM configurations (the corpus, the public repository's YAML
 * files of every branch, and the examples of its documentation and tests): short paraphrases of each expression the
 * engine refused before issue 25, with what it does now; then, from the second pass over the repository's v2 files,
 * the constructs met there for the first time, which the engine already accepted. See docs/expressions.md, "Corpus
 * notes".
 */
import { describe, expect, it } from 'vitest';
import { compileExpression } from './index';
import { compileErrors, failure, run } from './testKit';

describe('survey: accepted since issue 25', () => {
  it('a quality flag among a Set.of of codes', () => {
    const source = 'Set.of("", "0", "1", "2").contains(datum.get("SWC").get("quality"))';
    expect(run(source, { datum: { SWC: { quality: '2' } } })).toBe(true);
    expect(run(source, { datum: { SWC: { quality: '9' } } })).toBe(false);
  });

  it('a data type among a Set.of of names', () => {
    const source = "Set.of('trap_up', 'trap_down').contains(datum.get('data type'))";
    expect(run(source, { datum: { 'data type': 'trap_up' } })).toBe(true);
  });

  it('parts of a dashed cell, stripped', () => {
    const source = `String[] parts = datum.get("site-theme-type").split("-")
      String site = parts[0].strip(); String theme = parts[1].strip()
      return site + '/' + theme`;
    expect(run(source, { datum: { 'site-theme-type': ' lake - water -x' } })).toBe('lake/water');
  });

  it('an exception built with Map.of and values collected from a reference', () => {
    const source = `throw OA_buildException("MISSING_SITE", Map.of("site", datum.site,
      "knownSites", references.sites.refValues.collect { it.key }))`;
    const references = { sites: [{ naturalKey: 'a', hierarchicalKey: 'a', refValues: { key: 'a' } }] };
    expect(failure(source, { datum: { site: 'z' }, references }).params).toMatchObject({
      exception: 'MISSING_SITE',
      params: { site: 'z', knownSites: ['a'] },
    });
  });

  it('a date between two bounds, a bound that does not parse becoming a named exception', () => {
    const source = `if (datum.day == null) { throw new fr.inra.oresing.domain.groovy.exception.GroovyException("MISSING_DATE") };
      java.time.LocalDate day = java.time.LocalDate.parse(datum.day, DateTimeFormatter.ofPattern("dd/MM/yyyy"))
      if (datum.from != null) {
        try {
          java.time.LocalDate from = java.time.LocalDate.parse(datum.from, DateTimeFormatter.ofPattern("dd/MM/yyyy"))
          if (from.isAfter(day)) {
            throw new fr.inra.oresing.domain.groovy.exception.GroovyException("DATE_NOT_IN_INTERVAL",
              java.util.Map.of("date", day, "from", datum.from))
          }
        } catch (java.time.format.DateTimeParseException e) {
          throw new fr.inra.oresing.domain.groovy.exception.GroovyException("BAD_DATE_FORMAT", java.util.Map.of("date", datum.from))
        }
      };
      return true;`;
    expect(run(source, { datum: { day: '02/01/2024', from: '01/01/2024' } })).toBe(true);
    expect(failure(source, { datum: { day: null } }).params).toMatchObject({ exception: 'MISSING_DATE' });
    expect(failure(source, { datum: { day: '02/01/2024', from: '03/01/2024' } }).params).toMatchObject({
      exception: 'DATE_NOT_IN_INTERVAL',
      params: { date: '2024-01-02', from: '03/01/2024' },
    });
    expect(failure(source, { datum: { day: '02/01/2024', from: '2024' } }).params).toMatchObject({
      exception: 'BAD_DATE_FORMAT',
      params: { date: '2024' },
    });
  });

  it('an import of the exception class before a list check', () => {
    const source = `import fr.inra.oresing.domain.groovy.exception.GroovyException;
      List<String> tools = ["T_1", "T_2"];
      if (tools.contains(datum.tool)) { return true; };
      throw new GroovyException("BAD_VALUE", java.util.Map.of("value", datum.tool, "values", tools));`;
    expect(run(source, { datum: { tool: 'T_2' } })).toBe(true);
    expect(failure(source, { datum: { tool: 'X' } }).params).toMatchObject({
      params: { value: 'X', values: ['T_1', 'T_2'] },
    });
  });
});

describe('survey, second pass over the v2 files: accepted as first read', () => {
  it('a name assigned without a declaration, then read, as a script variable', () => {
    const source = `band = (String) datum.band;
      if (band.indexOf("10m") == -1) { return datum.coarse } else { return datum.fine }`;
    expect(run(source, { datum: { band: 'red_10m', coarse: '4', fine: '16' } })).toBe('16');
    expect(run(source, { datum: { band: 'red_20m', coarse: '4', fine: '16' } })).toBe('4');
  });

  it('a look-up chain continued on the next lines, an empty argument list before the closure, a doubled semicolon', () => {
    const source = `return references.plots
        .findAll() { it.refValues.parent.equals((String) datum.parent) }
        .find { it.refValues.code.equals((String) datum.code) }
        .getHierarchicalKey();;`;
    const references = {
      plots: [
        { naturalKey: 'n1', hierarchicalKey: 'north.p1', refValues: { parent: 'north', code: 'p1' } },
        { naturalKey: 's1', hierarchicalKey: 'south.p1', refValues: { parent: 'south', code: 'p1' } },
      ],
    };
    expect(run(source, { datum: { parent: 'south', code: 'p1' }, references })).toBe('south.p1');
  });

  it('a choice on a cast cell, null comparing unequal as in Groovy, and a map with quoted keys', () => {
    const source = `def plot = ((String) datum.level).equals("plot") ? ((String) datum.id) : "";
      return ['plot': plot]`;
    expect(run(source, { datum: { level: 'plot', id: 'P1' } })).toEqual(new Map([['plot', 'P1']]));
    expect(run(source, { datum: { level: null, id: 'P1' } })).toEqual(new Map([['plot', '']]));
  });

  it('the natural keys of the rows that name the current code, joined, as the last statement without return', () => {
    const source = `String code = (String) datum["code"];
      references.notes.findAll({ it.refValues.owner.equals(code) }).collect({ it.naturalKey }).join(",");`;
    const references = {
      notes: [
        { naturalKey: 'm1', hierarchicalKey: 'm1', refValues: { owner: 'v1' } },
        { naturalKey: 'm2', hierarchicalKey: 'm2', refValues: { owner: 'v2' } },
        { naturalKey: 'm3', hierarchicalKey: 'm3', refValues: { owner: 'v1' } },
      ],
    };
    expect(run(source, { datum: { code: 'v1' }, references })).toBe('m1,m3');
  });

  it('initials through Arrays.stream; cast to a String first, the parts are no longer an array, as in Groovy', () => {
    expect(
      run("Arrays.stream(((String) datum.name).split('_')).collect { it.substring(0, 1) }.join()", {
        datum: { name: 'trap_in_ascent' },
      }),
    ).toBe('tia');
    // The original's spelling casts the array of parts: Arrays.stream then gets a String, on every row.
    expect(failure("Arrays.stream((String) (datum.name).split('_'))", { datum: { name: 'a_b' } }).code).toBe(
      'badArguments',
    );
  });
});

describe('survey: still refused, and why', () => {
  it('`reference` for `references`: a name the original does not provide either (it fails on every row)', () => {
    expect(compileErrors('return reference.notes.collect { it.naturalKey }')[0]).toMatchObject({
      code: 'unknownVariable',
      construct: 'reference',
    });
  });

  it('names of the first configuration format (v1), which Terrain does not read', () => {
    expect(compileErrors('return datumByVariableAndComponent.get("site").get("basin")')[0]).toMatchObject({
      code: 'unknownVariable',
      construct: 'datumByVariableAndComponent',
    });
    expect(compileErrors('datum.get(params.get("variable"))')[0].construct).toBe('params');
    expect(compileErrors('fr.inra.oresing.rest.OreSiService.escapeKeyComponent(datum.a)')[0].code).toBe(
      'unknownStaticCall',
    );
    expect(compileErrors('fr.inra.oresing.persistence.Ltree.escapeToLabel(datum.a)')[0].code).toBe('unknownStaticCall');
    expect(compileErrors('Date start = DateUtils.parseDate(datum.start, "dd/MM/yyyy")')[0]).toMatchObject({
      code: 'unknownType',
      construct: 'Date',
    });
  });

  it('a bare word as a default value: a variable Groovy would not find either', () => {
    expect(compileErrors('no_unit')[0]).toMatchObject({ code: 'unknownVariable', construct: 'no_unit' });
    expect(compileErrors('return "${depth}"')[0]).toMatchObject({ code: 'unknownVariable', construct: 'depth' });
  });

  it('printing, which reaches the server log', () => {
    expect(compileErrors('String d = "x"\nprintln(d)\nreturn d')[0]).toMatchObject({ code: 'forbiddenName' });
  });

  it('the natural key builder, not provided', () => {
    expect(compileErrors('OA_naturalKeyBuilder.forDatumField("site").naturalKey()')[0]).toMatchObject({
      code: 'unsupportedConstruct',
      construct: 'OA_naturalKeyBuilder',
    });
  });

  it('`value`, which no context of a Terrain expression holds', () => {
    expect(compileExpression('[1, 2].contains(value)').ok).toBe(false);
  });
});
