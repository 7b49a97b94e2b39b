/** What the compiler accepts and refuses, and where it says the problem is. */
import { describe, expect, it } from 'vitest';
import { compileExpression, MAX_SOURCE_LENGTH } from './index';
import { compileErrors } from './testKit';

function firstError(source: string) {
  return compileErrors(source)[0];
}

describe('syntax errors', () => {
  it('report the first lexical or syntax error with its line and column', () => {
    expect(firstError("def a = 1\ndef b = 'open")).toMatchObject({ code: 'unterminatedString', line: 2, column: 9 });
    expect(firstError('1 +')).toMatchObject({ code: 'unexpectedEnd', line: 1, column: 4 });
    expect(firstError('foo(1, 2')).toMatchObject({ code: 'unexpectedEnd' });
    expect(firstError('[1, 2)')).toMatchObject({ code: 'unexpectedToken', line: 1, column: 6 });
    expect(firstError('a b')).toMatchObject({ code: 'unexpectedToken', line: 1, column: 3, construct: 'b' });
    expect(firstError('x = 1 #')).toMatchObject({ code: 'unexpectedCharacter', column: 7 });
    expect(firstError('/* never closed')).toMatchObject({ code: 'unterminatedComment', line: 1, column: 1 });
    expect(firstError("'\\q'")).toMatchObject({ code: 'invalidEscape' });
    expect(firstError('12abc')).toMatchObject({ code: 'malformedNumber' });
    expect(firstError('1e99999')).toMatchObject({ code: 'malformedNumber', construct: '1e99999' });
    expect(firstError('"price: $"')).toMatchObject({ code: 'unexpectedCharacter', column: 9 });
  });

  it('accept comments, line continuations and semicolons anywhere between statements', () => {
    const source = '// leading comment\ndef a = 1 /* inline */ ;;\ndef b = a \\\n  + 1\nreturn b // trailing';
    expect(compileExpression(source).ok).toBe(true);
  });

  it('refuse an expression longer than the limit', () => {
    expect(firstError('1'.repeat(MAX_SOURCE_LENGTH + 1))).toMatchObject({
      code: 'expressionTooLong',
      line: 1,
      column: 1,
    });
  });

  it('refuse nesting deeper than the limit instead of exhausting the stack', () => {
    expect(firstError('('.repeat(500) + '1' + ')'.repeat(500)).code).toBe('nestingTooDeep');
    expect(firstError('!'.repeat(5000) + 'true').code).toBe('nestingTooDeep');
    expect(firstError(Array(3000).fill('1').join(' + ')).code).toBe('nestingTooDeep');
    expect(firstError('x' + '.y'.repeat(3000)).code).toBe('nestingTooDeep');
  });
});

describe('constructs outside the subset', () => {
  it('are refused by name, at their position', () => {
    const cases: [string, string][] = [
      ['while (true) { }', 'while loop'],
      ['for (x in [1]) { }', 'for loop'],
      ['do { } while (true)', 'do-while loop'],
      ['switch (x) { }', 'switch statement'],
      ['try { 1 } finally { 2 }', 'finally'],
      ['class A { }', 'class declaration'],
      ['import java.io.File', 'import java.io.File'],
      ['import static java.lang.Math.max', 'static import'],
      ['def a = 1; import java.util.List', 'import after the first statement'],
      ["new File('/etc/passwd')", 'new File'],
      ["new java.lang.ProcessBuilder('ls')", 'new java.lang.ProcessBuilder'],
      ['def x = 1; x++', 'increment or decrement operator'],
      ['(1..10).sum()', 'range'],
      ['1 << 2', 'shift or append operator (<<)'],
      ['5 & 3', 'bitwise operator'],
      ['def (a, b) = [1, 2]', 'multiple assignment'],
      ["datum.each { k, v -> println(k) }; 'a'.&toUpperCase", 'method reference'],
      ['foo(name: 1)', 'named arguments'],
      ['{ -> 1 }', 'code block outside if/else'],
      ['1 === 1', 'identity comparison (===)'],
    ];
    for (const [source, construct] of cases) {
      const error = firstError(source);
      expect(error.construct, source).toBe(construct);
      expect(['unsupportedConstruct', 'forbiddenName'], source).toContain(error.code);
    }
  });

  it('refuse methods outside the allow-list', () => {
    expect(firstError("'a'.execute()")).toMatchObject({ code: 'forbiddenName', construct: 'execute' });
    expect(firstError("'a'.reverse2()")).toMatchObject({ code: 'unknownMethod', construct: 'reverse2', column: 5 });
    expect(firstError('[1].with { it }')).toMatchObject({ code: 'forbiddenName', construct: 'with' });
    expect(firstError("println('x')")).toMatchObject({ code: 'forbiddenName', construct: 'println' });
    expect(firstError('unknownFunction(1)')).toMatchObject({ code: 'unknownMethod', construct: 'unknownFunction' });
  });

  it('refuse unknown types', () => {
    expect(firstError('Date d = null')).toMatchObject({ code: 'unknownType', construct: 'Date', column: 1 });
    expect(firstError('datum as java.io.File')).toMatchObject({ code: 'unknownType', construct: 'java.io.File' });
  });
});

describe('names', () => {
  it('must be declared, assigned, or context variables', () => {
    expect(firstError('undeclared + 1')).toMatchObject({ code: 'unknownVariable', construct: 'undeclared' });
    expect(firstError('it')).toMatchObject({ code: 'unknownVariable', construct: 'it' });
    expect(compileExpression('x = 1; x + datum.a').ok).toBe(true);
    expect(compileExpression('def f = { later }; later = 2; f()').ok).toBe(true);
  });

  it('may not be declared twice or shadow a variable', () => {
    expect(firstError('def a = 1; def a = 2')).toMatchObject({ code: 'duplicateVariable', construct: 'a' });
    expect(firstError('def n = 1; [1].each { n -> n }')).toMatchObject({ code: 'duplicateVariable', construct: 'n' });
    expect(compileExpression('[1].each { it -> [2].each { it } }').ok).toBe(true);
  });

  it('assign only variables, never the context or a property', () => {
    expect(firstError('datum = [:]')).toMatchObject({ code: 'invalidAssignment', construct: 'datum' });
    expect(firstError("datum.site = 'x'")).toMatchObject({
      code: 'invalidAssignment',
      construct: 'property assignment',
    });
    expect(firstError("datum['site'] = 'x'")).toMatchObject({
      code: 'invalidAssignment',
      construct: 'index assignment',
    });
  });

  it('are all reported together, in text order', () => {
    const errors = compileErrors('a.getClass()\nb.foo()\nSystem.exit(1)');
    expect(errors.map((e) => [e.code, e.line])).toEqual([
      ['unknownVariable', 1],
      ['forbiddenName', 1],
      ['unknownVariable', 2],
      ['unknownMethod', 2],
      ['unknownStaticCall', 3],
    ]);
  });
});

describe('regular expressions written as literals', () => {
  it('are checked when compiling', () => {
    expect(firstError("'a'.split('(')")).toMatchObject({ code: 'invalidRegex', column: 11 });
    expect(firstError("'a'.matches('(?=a)a')")).toMatchObject({ code: 'invalidRegex' });
    expect(firstError("'a' ==~ /a++/")).toMatchObject({ code: 'invalidRegex' });
  });
});

describe('referencedReferences', () => {
  it('lists every reference read through references or referencesValues, once, in order', () => {
    const compiled = compileExpression(
      "references.sites.find { it.naturalKey == 'a' }; referencesValues['units']; references.get('sites'); references?.species; referencesValues.'taxa list'",
    );
    expect(compiled.ok && compiled.expression.referencedReferences).toEqual(['sites', 'units', 'species', 'taxa list']);
  });

  it('ignores a local variable that hides the context variable', () => {
    const compiled = compileExpression('def references = [a: 1]; references.a');
    expect(compiled.ok && compiled.expression.referencedReferences).toEqual([]);
  });
});

describe('readsReferencesByOtherMeans', () => {
  it.each([
    "references.sites.find { it.naturalKey == 'a' }; referencesValues['units']; references.get('sites')",
    'references?.species',
    '1 + 1',
    'def references = [a: 1]; references[datum.x]',
  ])('is false when every read names its reference (%s)', (source) => {
    const compiled = compileExpression(source);
    expect(compiled.ok && compiled.expression.readsReferencesByOtherMeans).toBe(false);
  });

  it.each([
    'references[datum.site]',
    'references.get(datum.site)',
    'references.each { k, v -> k }',
    'def r = referencesValues; r.sites',
    "references.sites; references['si' + 'tes']",
  ])('is true when a read does not name its reference in the text (%s)', (source) => {
    const compiled = compileExpression(source);
    expect(compiled.ok && compiled.expression.readsReferencesByOtherMeans).toBe(true);
  });
});
