/** Language features of the subset, with Groovy semantics where they differ from JavaScript. */
import { describe, expect, it } from 'vitest';
import { BigDecimal, FloatingValue, LongValue } from './index';
import { failure, run, text } from './testKit';

describe('literals', () => {
  it('reads single-, double- and triple-quoted strings with escapes', () => {
    expect(run("'plain'")).toBe('plain');
    expect(run('"double"')).toBe('double');
    expect(run("'''two\nlines'''")).toBe('two\nlines');
    expect(run('"""a "quoted" word"""')).toBe('a "quoted" word');
    expect(run("'tab\\there'")).toBe('tab\there');
    expect(run("'caf\\u00e9'")).toBe('café');
    expect(run("'it\\'s'")).toBe("it's");
  });

  it('types numbers as Groovy does', () => {
    expect(run('42')).toBe(42);
    expect(run('2147483648')).toBeInstanceOf(LongValue);
    expect(text('2147483648')).toBe('2147483648');
    expect(run('10L')).toEqual(new LongValue(10n, 'Long'));
    expect(run('1.50')).toBeInstanceOf(BigDecimal);
    expect(text('1.50')).toBe('1.50');
    expect(run('1.5f')).toEqual(new FloatingValue(1.5, 'Float'));
    expect(run('2.5d')).toEqual(new FloatingValue(2.5, 'Double'));
    expect(text('1e3')).toBe('1E+3');
    expect(run('0x1F')).toBe(31);
    expect(run('1_000')).toBe(1000);
  });

  it('reads booleans, null, lists and maps', () => {
    expect(run('true')).toBe(true);
    expect(run('null')).toBe(null);
    expect(run("[1, 'a', null]")).toEqual([1, 'a', null]);
    expect(run('[]')).toEqual([]);
    expect(run('[:]')).toEqual(new Map());
    expect(run("def k = 'key'; [plain: 1, 'with space': 2, (k): 3, 4: 'four']")).toEqual(
      new Map<unknown, unknown>([
        ['plain', 1],
        ['with space', 2],
        ['key', 3],
        [4, 'four'],
      ]),
    );
  });

  it('interpolates GStrings with ${expr} and $name.path, and leaves single quotes alone', () => {
    const datum = { site: 'S1', plot: { code: 'P2' } };
    expect(run('"site ${datum.site} plot $datum.plot.code!"', { datum })).toBe('site S1 plot P2!');
    expect(run('"sum: ${1 + 2}"')).toBe('sum: 3');
    expect(run("'$datum'", { datum })).toBe('$datum');
    expect(run('"cost: \\$5"')).toBe('cost: $5');
    expect(run('"list ${[1, 2]} map ${[a: 1]} null ${null}"')).toBe('list [1, 2] map [a:1] null null');
  });
});

describe('statements', () => {
  it('returns the last statement, with or without return', () => {
    expect(run('1; 2; 3')).toBe(3);
    expect(run('def a = 1\ndef b = 2\na + b')).toBe(3);
    expect(run('return 4; 5')).toBe(4);
    expect(run('')).toBe(null);
    expect(run('def x = 7')).toBe(7);
  });

  it('declares variables with def or a type, converting typed values', () => {
    expect(run('String s = 5; s')).toBe('5');
    expect(run('Float f = 1; f')).toEqual(new FloatingValue(1, 'Float'));
    expect(run('int count; count')).toBe(0);
    expect(run('Float f; f')).toBe(null);
    expect(run('Boolean b = "text"; b')).toBe(true);
    expect(run('List<String> names = ["a"]; names')).toEqual(['a']);
    expect(failure("Integer i = '5'").code).toBe('cannotCast');
    expect(failure('int i = null').code).toBe('cannotCast');
  });

  it('casts with (Type) and converts with as', () => {
    expect(run('(String) 12')).toBe('12');
    expect(run('(String) null')).toBe(null);
    expect(run("'5' as Integer")).toBe(5);
    expect(run("' 5 ' as Integer")).toBe(5);
    expect(run('5.7 as Integer')).toBe(5);
    expect(text("'2.50' as BigDecimal")).toBe('2.50');
    expect(failure("'five' as Integer").code).toBe('numberFormat');
    expect(failure("(Integer) '5'").code).toBe('cannotCast');
    expect(run("'x' instanceof String")).toBe(true);
    expect(run('"${1}" instanceof String')).toBe(false);
    expect(run('1 instanceof Number')).toBe(true);
    expect(run('[] !instanceof Map')).toBe(true);
  });

  it('runs if / else if / else, whose value is the branch taken', () => {
    const grade = (n: number) => run(`def n = ${n}; if (n > 10) { 'high' } else if (n > 5) { 'mid' } else { 'low' }`);
    expect([grade(12), grade(7), grade(1)]).toEqual(['high', 'mid', 'low']);
    expect(run('if (false) { 1 }')).toBe(null);
    expect(run('if (true) return "early"; else return "late"')).toBe('early');
  });

  it('assigns script variables without def, and compound assignments', () => {
    expect(run('total = 5; total += 2; total *= 3; total')).toBe(21);
    expect(run("def s = 'a'; s += 'b'; s")).toBe('ab');
    expect(failure('counter += 1').code).toBe('unknownVariable');
  });
});

describe('operators', () => {
  it('has ternary, Elvis and safe navigation', () => {
    expect(run("1 > 2 ? 'yes' : 'no'")).toBe('no');
    expect(run("'' ?: 'fallback'")).toBe('fallback');
    expect(run("'value' ?: 'fallback'")).toBe('value');
    expect(run('datum.missing?.trim()', { datum: {} })).toBe(null);
    expect(run('datum.missing?.size()?.plus(1)', { datum: {} })).toBe(null);
    expect(failure('datum.missing.trim()', { datum: {} }).code).toBe('nullDereference');
  });

  it('short-circuits && and || and negates with !', () => {
    expect(run('false && datum.missing.trim()', { datum: {} })).toBe(false);
    expect(run('true || datum.missing.trim()', { datum: {} })).toBe(true);
    expect(run("!''")).toBe(true);
    expect(run("'a' && 1")).toBe(true);
  });

  it('tests membership with in', () => {
    expect(run("'b' in ['a', 'b']")).toBe(true);
    expect(run("'z' !in ['a', 'b']")).toBe(true);
    expect(run("'k' in [k: 1]")).toBe(true);
    expect(run("'k' in [k: 0]")).toBe(false);
    expect(run('null in null')).toBe(true);
  });

  it('follows the Groovy precedence of ** and unary minus', () => {
    expect(run('-2 ** 2')).toBe(-4);
    expect(run('2 ** 3 ** 2')).toBe(64);
    expect(run('2 ** -1')).toEqual(new FloatingValue(0.5, 'Double'));
    expect(run('1 + 2 * 3 - 4 % 3')).toBe(6);
  });

  it('matches regular expressions with ==~ (whole text) and =~ (anywhere)', () => {
    expect(run("'abc123' ==~ /[a-z]+\\d+/")).toBe(true);
    expect(run("'abc123' ==~ /\\d+/")).toBe(false);
    expect(run("'abc123' =~ /\\d+/")).toBe(true);
    expect(run('null ==~ /x/')).toBe(false);
  });
});

describe('Groovy truth, not JavaScript truthiness', () => {
  it('treats empty strings, lists, maps and zero as false', () => {
    const truth = (value: string) => run(`${value} ? 'T' : 'F'`);
    expect(truth("''")).toBe('F');
    expect(truth("'0'")).toBe('T');
    expect(truth('[]')).toBe('F');
    expect(truth('[0]')).toBe('T');
    expect(truth('[:]')).toBe('F');
    expect(truth('0')).toBe('F');
    expect(truth('0.0')).toBe('F');
    expect(truth('null')).toBe('F');
    expect(truth("'false'")).toBe('T');
  });
});

describe('== is Groovy equality', () => {
  it('never equates a string and a number', () => {
    expect(run("'1' == 1")).toBe(false);
    expect(run("'1' != 1")).toBe(true);
  });

  it('compares numbers by value across kinds, but equals() wants the same kind', () => {
    expect(run('1 == 1.0')).toBe(true);
    expect(run('1L == 1')).toBe(true);
    expect(run('1.equals(1L)')).toBe(false);
    expect(run('1.0.equals(1.00)')).toBe(false);
    expect(run('0.1f == 0.1')).toBe(false);
  });

  it('compares strings and GStrings by text with ==, but not with equals()', () => {
    expect(run('def x = "a"; "${x}" == "a"')).toBe(true);
    expect(run('def x = "a"; "${x}".equals("a")')).toBe(false);
    expect(run('def x = "a"; "a".equals("${x}")')).toBe(false);
    expect(run('def x = "a"; ("${x}" as String).equals("a")')).toBe(true);
  });

  it('compares lists and maps element by element, and null safely', () => {
    expect(run('[1, [2, 3]] == [1, [2, 3]]')).toBe(true);
    expect(run('[a: 1, b: [2]] == [b: [2], a: 1]')).toBe(true);
    expect(run('null == null')).toBe(true);
    expect(run("null == ''")).toBe(false);
    expect(run("'x'.equals(null)")).toBe(false);
    expect(run('null.equals(null)')).toBe(true);
  });
});

describe('comparisons with null', () => {
  it('puts null below every value', () => {
    expect(run('null < 1')).toBe(true);
    expect(run('1 < null')).toBe(false);
    expect(run("null < ''")).toBe(true);
    expect(run('null <= null')).toBe(true);
    expect(run('null > null')).toBe(false);
    expect(run('null <=> 5')).toBe(-1);
    expect(run('[3, null, 1].sort()')).toEqual([null, 1, 3]);
  });

  it('refuses to order unrelated kinds', () => {
    expect(failure("'a' < 1").code).toBe('cannotCompare');
  });
});

describe('numbers', () => {
  it('divides integers into decimals, as Groovy does', () => {
    expect(text('1 / 2')).toBe('0.5');
    expect(text('4 / 2')).toBe('2');
    expect(text('1 / 3')).toBe('0.3333333333');
    expect(text('2 / 3')).toBe('0.6666666667');
    expect(text('10 / 4')).toBe('2.5');
    expect(run('7.intdiv(2)')).toBe(3);
    expect(text('7 % 3')).toBe('1');
    expect(failure('1 / 0').code).toBe('divisionByZero');
  });

  it('adds decimals exactly', () => {
    expect(text('0.1 + 0.2')).toBe('0.3');
    expect(text('1.10 * 3')).toBe('3.30');
  });

  it('turns any Float or Double operand into a Double result', () => {
    expect(run('1.5f + 1.5f')).toEqual(new FloatingValue(3, 'Double'));
    expect(text('Double.parseDouble("1e10") + 1')).toBe('1.0000000001E10');
    expect(text('1.0d / 0')).toBe('Infinity');
  });

  it('wraps Integer overflow like Java and widens powers', () => {
    expect(run('2147483647 + 1')).toBe(-2147483648);
    expect(text('2 ** 40')).toBe('1099511627776');
  });
});

describe('string and number mixes', () => {
  it('concatenates as soon as one side of + is a string', () => {
    expect(run("'1' + 1")).toBe('11');
    expect(run("1 + '1'")).toBe('11');
    expect(run("'a' + null")).toBe('anull');
    expect(run("null + 'a'")).toBe('nulla');
    expect(run("'n=' + 1.50")).toBe('n=1.50');
  });

  it('repeats a string multiplied by a number, but not the other way round', () => {
    expect(run("'ab' * 3")).toBe('ababab');
    expect(run("'ab' * 0")).toBe('');
    expect(failure("3 * 'ab'").code).toBe('noSuchMethod');
    expect(failure("'ab' * -1").code).toBe('badArguments');
  });

  it('removes the first occurrence with string minus', () => {
    expect(run("'a-b-c' - '-'")).toBe('ab-c');
  });
});

describe('closures', () => {
  it('take an implicit it, named parameters, and several parameters', () => {
    expect(run('[1, 2, 3].collect { it * 2 }')).toEqual([2, 4, 6]);
    expect(run('[1, 2, 3].collect { n -> n + 1 }')).toEqual([2, 3, 4]);
    expect(run('[1, 2, 3].inject(0) { sum, n -> sum + n }')).toBe(6);
    expect(run('[1, 2].collect { Integer n -> n * 10 }')).toEqual([10, 20]);
  });

  it('are passed inside or after the parentheses', () => {
    expect(run('[1, 2, 3].findAll({ it > 1 })')).toEqual([2, 3]);
    expect(run('[1, 2, 3].findAll() { it > 1 }')).toEqual([2, 3]);
    expect(run('[1, 2, 3]\n  .findAll { it > 1 }\n  .collect { it * it }')).toEqual([4, 9]);
  });

  it('can be stored, called, and capture variables by reference', () => {
    expect(run('def twice = { x -> x * 2 }; twice(4) + twice.call(1)')).toBe(10);
    expect(run('def seen = 0; [5, 6].each { seen += it }; seen')).toBe(11);
    expect(run('def f = { -> 42 }; f()')).toBe(42);
  });

  it('return from the closure, not from the script', () => {
    expect(run('[1, 5, 9].find { if (it > 4) { return true }; false }')).toBe(5);
    expect(run('def r = [1, 2].collect { return it + 1 }; r.size()')).toBe(2);
  });

  it('nest with their own it', () => {
    expect(run('[[1, 2], [3]].collect { it.collect { it * 10 } }')).toEqual([[10, 20], [30]]);
  });

  it('refuse a wrong number of arguments', () => {
    expect(failure('def f = { a, b -> a }; f(1)').code).toBe('badArguments');
  });
});
