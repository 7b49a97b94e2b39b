/**
 * Attempts to leave the sandbox: every one must stop with the engine's own error (at compile time when the text
 * shows the intent) and leave the JavaScript world as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileExpression, ExpressionError } from './index';
import { compileErrors, failure, run } from './testKit';

function snapshotGlobals() {
  return {
    object: Object.getOwnPropertyNames(Object.prototype).sort().join(),
    array: Object.getOwnPropertyNames(Array.prototype).sort().join(),
    string: Object.getOwnPropertyNames(String.prototype).sort().join(),
    function: Object.getOwnPropertyNames(Function.prototype).sort().join(),
    global: Object.getOwnPropertyNames(globalThis).sort().join(),
  };
}

/** Runs an attack and returns the error code it ends with, whether at compile time or while evaluating. */
function outcome(source: string, context = {}): string {
  const compiled = compileExpression(source);
  if (!compiled.ok) return `compile:${compiled.errors[0].code}`;
  try {
    compiled.expression.evaluate(context, { maxSteps: 100_000 });
    return 'ran';
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return `run:${(error as ExpressionError).code}`;
  }
}

let before: ReturnType<typeof snapshotGlobals>;
beforeAll(() => {
  before = snapshotGlobals();
});
afterAll(() => {
  expect(snapshotGlobals()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('reaching JavaScript', () => {
  it('refuses constructor, prototype, __proto__ and class by name', () => {
    for (const source of [
      'datum.constructor',
      "''.constructor",
      '[].constructor.constructor("return process")()',
      'datum.__proto__',
      'datum.prototype',
      "'x'.class",
      'datum.metaClass',
    ]) {
      expect(outcome(source, { datum: {} }), source).toBe('compile:forbiddenName');
    }
  });

  it('refuses this, getClass, forName, eval and execute', () => {
    expect(outcome('this')).toBe('compile:forbiddenName');
    expect(outcome('super.toString()')).toBe('compile:forbiddenName');
    expect(outcome("'x'.getClass().forName('java.lang.Runtime')")).toBe('compile:forbiddenName');
    expect(outcome("eval('1 + 1')")).toBe('compile:forbiddenName');
    expect(outcome("'ls'.execute()")).toBe('compile:forbiddenName');
    expect(outcome("evaluate('1')")).toBe('compile:forbiddenName');
  });

  it('knows no JavaScript global', () => {
    for (const name of [
      'globalThis',
      'window',
      'process',
      'Function',
      'require',
      'module',
      'Object',
      'Reflect',
      'Proxy',
      'Symbol',
    ]) {
      expect(outcome(`${name}`), name).toMatch(/^compile:(unknownVariable|unsupportedConstruct|unknownStaticCall)$/);
      expect(outcome(`${name}.foo`), name).toMatch(/^compile:/);
    }
    expect(outcome("Function('return this')()")).toBe('compile:unknownMethod');
  });

  it('reads only data when a name is computed at run time', () => {
    const datum = { site: 'a' };
    expect(run("datum['constructor']", { datum })).toBe(null);
    expect(run("datum['__proto__']", { datum })).toBe(null);
    expect(run('def name = \'constructor\'; datum."$name"', { datum })).toBe(null);
    expect(run("datum.get('hasOwnProperty')", { datum })).toBe(null);
    expect(run("[a: 1]['constructor']")).toBe(null);
    expect(failure('datum.site."${\'constructor\'}"', { datum }).code).toBe('noSuchProperty');
  });

  it('never calls a function found in the data', () => {
    const datum = { hack: () => 'called', nested: { toString: () => 'called' } };
    expect(outcome('datum.hack()', { datum })).toBe('compile:unknownMethod');
    expect(failure('def f = datum.hack; f()', { datum }).code).toBe('noSuchMethod');
    expect(run("'' + datum.nested", { datum })).not.toContain('called');
  });

  it('keeps getters of class instances out of reach', () => {
    class Secret {
      get value() {
        return 'secret';
      }
    }
    expect(failure('datum.thing.value', { datum: { thing: new Secret() } }).code).toBe('noSuchProperty');
  });
});

describe('prototype pollution through map keys', () => {
  it('stores a __proto__ key as a plain key of the map', () => {
    expect(run("def m = ['__proto__': [polluted: true]]; m.size()")).toBe(1);
    expect(run("def m = [('__proto__'): 'x', constructor: 'y']; m.keySet()")).toEqual(['__proto__', 'constructor']);
    expect(run("def m = [:] + ['__proto__': [polluted: true]]; m['__proto__'].polluted")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a __proto__ key that the caller parsed from JSON as data', () => {
    const datum = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
    expect(run("datum['__proto__'].polluted", { datum })).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never writes into the data it reads', () => {
    const datum = { list: [2, 1], map: { a: 1 } };
    run('datum.list.sort(); datum.list.unique(); def x = datum.map + [b: 2]; x.size()', { datum });
    expect(datum).toEqual({ list: [2, 1], map: { a: 1 } });
    expect(compileErrors('datum.map.a = 2')[0].code).toBe('invalidAssignment');
  });
});

describe('endless work', () => {
  it('refuses loops at compile time', () => {
    expect(outcome('while (true) { }')).toBe('compile:unsupportedConstruct');
    expect(outcome('for (;;) { }')).toBe('compile:unsupportedConstruct');
  });

  it('stops deep recursion through closures', () => {
    expect(outcome('def f; f = { n -> f(n + 1) }; f(0)')).toBe('run:recursionTooDeep');
    expect(outcome('def f; f = { n -> n == 0 ? 0 : 1 + f.call(n - 1) }; f(100000)')).toBe('run:recursionTooDeep');
  });

  it('stops long computations with expressionTooLong', () => {
    expect(outcome('def l = [1] * 1000; l.each { l.each { l.each { } } }')).toBe('run:expressionTooLong');
    const error = failure('def l = [1] * 100; l.collect { l.sum() }', {}, { maxSteps: 500 });
    expect(error.code).toBe('expressionTooLong');
    expect(error.params).toEqual({ maxSteps: 500 });
  });

  it('keeps regular expressions linear', () => {
    const started = performance.now();
    expect(run("('a' * 20000 + '!') ==~ /(a+)+$/")).toBe(false);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('huge values', () => {
  it('refuses strings and lists over the limits before building them', () => {
    expect(outcome("'x' * 1000000000")).toBe('run:valueTooLarge');
    expect(outcome("def s = 'x' * 600000; s + s")).toBe('run:valueTooLarge');
    expect(outcome("'x'.padLeft(2000000000)")).toBe('run:valueTooLarge');
    expect(outcome('[0] * 100000000')).toBe('run:valueTooLarge');
    expect(outcome('def s = \'ab\' * 400000; "$s$s$s"')).toBe('run:valueTooLarge');
    expect(outcome('def l = [1] * 60000; (l + l).size()')).toBe('run:valueTooLarge');
    for (const convert of ['l.join()', '"$l"', "'' + l", '(String) l', 'l.toString()', 'String.valueOf([l])']) {
      expect(outcome(`def s = 'x' * 999999; def l = [s] * 1000; ${convert}`), convert).toBe('run:valueTooLarge');
    }
    expect(outcome('2 ** 100000000')).toBe('run:valueTooLarge');
    expect(outcome('def big = 9G ** 9000; big * big')).toBe('run:valueTooLarge');
    expect(outcome('def d = 1.5 ** 3000; d * d * d * d')).toBe('run:valueTooLarge');
  });

  it('lets the caller lower the limits', () => {
    expect(failure("'abc' * 10", {}, { maxStringLength: 20 }).code).toBe('valueTooLarge');
    expect(failure('[1, 2, 3] * 3', {}, { maxCollectionSize: 5 }).code).toBe('valueTooLarge');
  });
});

describe('errors', () => {
  it('are always ExpressionError, with a code and a position', () => {
    const error = failure('def a = null\na.trim()');
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error).toMatchObject({ code: 'nullDereference', line: 2, column: 3 });
  });
});
