/** The allow-list of static calls and class constants. */
import { describe, expect, it } from 'vitest';
import { FloatingValue, LongValue } from './index';
import { compileErrors, failure, run, text } from './testKit';

describe('allowed static calls', () => {
  it('parse numbers like Java', () => {
    expect(run("Integer.parseInt('42')")).toBe(42);
    expect(run("Integer.valueOf('-7') + Integer.valueOf(3)")).toBe(-4);
    expect(failure("Integer.parseInt(' 42')").code).toBe('numberFormat');
    expect(failure("Integer.parseInt('99999999999')").code).toBe('numberFormat');
    expect(failure('Integer.parseInt(null)').code).toBe('numberFormat');
    expect(run("Float.parseFloat(' 1.25 ')")).toEqual(new FloatingValue(1.25, 'Float'));
    expect(run("Float.parseFloat('2f')")).toEqual(new FloatingValue(2, 'Float'));
    expect(run("Double.parseDouble('-1e-3')")).toEqual(new FloatingValue(-0.001, 'Double'));
    expect(failure("Float.parseFloat('1,5')").code).toBe('numberFormat');
    expect(failure('Float.parseFloat(null)').code).toBe('nullDereference');
    expect(run('java.lang.Integer.MAX_VALUE + Integer.MIN_VALUE')).toBe(-1);
  });

  it('compute with Math, keeping Java overload types', () => {
    expect(run('Math.abs(-3)')).toBe(3);
    expect(run('Math.abs(-2.5)')).toEqual(new FloatingValue(2.5, 'Double'));
    expect(run('Math.max(2, 7) + Math.min(2, 7)')).toBe(9);
    expect(run('Math.round(2.5)')).toEqual(new LongValue(3n, 'Long'));
    expect(run('Math.round(-2.5)')).toEqual(new LongValue(-2n, 'Long'));
    expect(run("Math.round(Float.parseFloat('1.4'))")).toBe(1);
    expect(text('Math.floor(2.7) + Math.ceil(2.1)')).toBe('5.0');
    expect(text('Math.pow(2, 10)')).toBe('1024.0');
    expect(text('Math.sqrt(16)')).toBe('4.0');
    expect(text('Math.PI')).toBe('3.141592653589793');
  });

  it('build strings and lists', () => {
    expect(run('String.valueOf(12) + String.valueOf(null)')).toBe('12null');
    expect(run("Arrays.asList('a', 'b')")).toEqual(['a', 'b']);
    expect(run("Arrays.asList('x,y'.split(','))")).toEqual(['x', 'y']);
    expect(run("Arrays.stream('x,y,z'.split(',')).collect(Collectors.joining('|'))")).toBe('x|y|z');
    expect(run("Arrays.stream(['a', 'b']).collect(java.util.stream.Collectors.joining(', ', '[', ']'))")).toBe(
      '[a, b]',
    );
    expect(run('Arrays.asList(1, 2).stream().map { it * 2 }.collect(Collectors.toList())')).toEqual([2, 4]);
  });

  it('test empty strings with Guava Strings', () => {
    expect(run('com.google.common.base.Strings.isNullOrEmpty(null)')).toBe(true);
    expect(run("com.google.common.base.Strings.isNullOrEmpty('')")).toBe(true);
    expect(run("com.google.common.base.Strings.isNullOrEmpty(' ')")).toBe(false);
  });

  it('read Locale constants as language codes', () => {
    expect(run('java.util.Locale.FRENCH')).toBe('fr');
    expect(run('Locale.ENGLISH')).toBe('en');
    expect(run("[fr: 'Site', en: 'Site EN'].get(Locale.FRENCH)")).toBe('Site');
  });

  it("escape a label with the original's Ltree.fromUnescapedString", () => {
    expect(run("fr.inra.oresing.domain.application.configuration.Ltree.fromUnescapedString('Zone Étude').sql")).toBe(
      'zone_etude',
    );
    expect(run("fr.inra.oresing.domain.application.configuration.Ltree.fromUnescapedString('a b').toString()")).toBe(
      'a_b',
    );
  });
});

describe('refused static calls', () => {
  it('names the class and member that are not on the list', () => {
    for (const [source, construct] of [
      ['System.exit(0)', 'System.exit'],
      ["Class.forName('java.lang.Runtime')", 'Class.forName'],
      ['Runtime.getRuntime()', 'Runtime.getRuntime'],
      ["java.lang.System.getenv('HOME')", 'java.lang.System.getenv'],
      ['Math.random()', 'Math.random'],
      ['Integer.MAX', 'Integer.MAX'],
      ['Thread.sleep(10)', 'Thread.sleep'],
    ]) {
      const [error] = compileErrors(source);
      expect(error.code, source).toBe('unknownStaticCall');
      expect(error.construct, source).toBe(construct);
    }
  });

  it('checks the number of arguments at compile time', () => {
    expect(compileErrors('Math.max(1)')[0]).toMatchObject({ code: 'badArguments', construct: 'Math.max' });
  });

  it('does not let a class be used as a value', () => {
    expect(compileErrors('def m = Math; m.abs(1)')[0]).toMatchObject({
      code: 'unsupportedConstruct',
      construct: 'Math',
    });
  });
});
