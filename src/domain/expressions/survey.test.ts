/**
 * The survey of the Groovy expressions found in OpenADOM configurations (the corpus, the public repository's YAML
 * files of every branch, and the examples of its documentation and tests): short paraphrases of each expression the
 * engine refused before issue 25, with what it does now. See docs/expressions.md, "Corpus notes".
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

describe('survey: still refused, and why', () => {
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
