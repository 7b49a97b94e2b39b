/** `throw new GroovyException(…)` and the imports that come with it, as OpenADOM configurations write them. */
import { describe, expect, it } from 'vitest';
import { compileExpression } from './index';
import { compileErrors, failure, run } from './testKit';

const groovyExceptions = { BAD_VALUE: { fr: 'Valeur {value} refusée', en: 'Value {value} refused' } };

describe('imports', () => {
  it('accept the exception class and Java value packages, and ignore them', () => {
    const source = [
      'import fr.inra.oresing.domain.groovy.exception.GroovyException;',
      'import java.time.LocalDate',
      'import java.util.*;',
      "datum.x == 'a'",
    ].join('\n');
    expect(run(source, { datum: { x: 'a' } })).toBe(true);
    expect(compileExpression('import fr.inra.oresing.domain.groovy.exception.*; 1').ok).toBe(true);
  });

  it('refuse any other import, naming it', () => {
    expect(compileErrors('import groovy.json.JsonSlurper\n1')[0]).toMatchObject({
      code: 'unsupportedConstruct',
      construct: 'import groovy.json.JsonSlurper',
      line: 1,
      column: 1,
    });
    expect(compileErrors('import java.nio.file.Files; 1')[0].message).toContain('only');
    expect(compileErrors('import fr.inra.oresing.rest.OreSiService; 1')[0].construct).toBe(
      'import fr.inra.oresing.rest.OreSiService',
    );
  });
});

describe('throw new GroovyException', () => {
  it('raises the named exception with a java.util.Map.of of params, like OA_buildException', () => {
    const source = `import fr.inra.oresing.domain.groovy.exception.GroovyException;
      if (datum.x != 'ok') throw new GroovyException("BAD_VALUE", java.util.Map.of("value", datum.x))
      true`;
    expect(run(source, { datum: { x: 'ok' } })).toBe(true);
    const error = failure(source, { datum: { x: 'ko' }, groovyExceptions });
    expect(error.code).toBe('groovyException');
    expect(error.params).toEqual({
      exception: 'BAD_VALUE',
      messages: groovyExceptions.BAD_VALUE,
      params: { value: 'ko' },
    });
    const fromHelper = failure("OA_buildException('BAD_VALUE', [value: datum.x])", {
      datum: { x: 'ko' },
      groovyExceptions,
    });
    expect(fromHelper.params).toEqual(error.params);
  });

  it('takes the fully qualified name, no params, or a Groovy map literal', () => {
    expect(failure('throw new fr.inra.oresing.domain.groovy.exception.GroovyException("MISSING_DATE")').params).toEqual(
      { exception: 'MISSING_DATE', messages: null, params: {} },
    );
    expect(failure("throw new GroovyException('BAD_VALUE', [value: 12, values: ['a', 'b']])").params).toEqual({
      exception: 'BAD_VALUE',
      messages: null,
      params: { value: 12, values: ['a', 'b'] },
    });
  });

  it('gives dates and other values as their text in params', () => {
    const error = failure("throw new GroovyException('LATE', Map.of('date', LocalDate.parse('2024-03-01')))");
    expect(error.params.params).toEqual({ date: '2024-03-01' });
  });

  it('is only a value until thrown, and checks its arguments', () => {
    expect(run("def e = new GroovyException('X'); e instanceof Object")).toBe(true);
    expect(failure("throw new GroovyException('X', 'not a map')").code).toBe('badArguments');
    expect(failure('throw new GroovyException(null)').code).toBe('nullDereference');
    expect(compileErrors('new GroovyException()')[0]).toMatchObject({ code: 'badArguments' });
    expect(failure("throw 'text'").code).toBe('cannotCast');
  });

  it('creates nothing else', () => {
    expect(compileErrors("new java.io.File('/etc/passwd')")[0]).toMatchObject({
      code: 'unsupportedConstruct',
      construct: 'new java.io.File',
    });
    expect(compileErrors('new GroovyException')[0].code).toBe('unexpectedEnd');
  });
});
