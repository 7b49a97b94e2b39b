/** The built-in methods of strings, lists, maps and numbers. */
import { describe, expect, it } from 'vitest';
import { FloatingValue } from './index';
import { failure, run, text } from './testKit';

describe('string methods', () => {
  it('measure and test', () => {
    expect(run("'abc'.length()")).toBe(3);
    expect(run("'abc'.size()")).toBe(3);
    expect(run("''.isEmpty()")).toBe(true);
    expect(run("'abc'.contains('b')")).toBe(true);
    expect(run("'abc'.startsWith('ab') && 'abc'.endsWith('bc')")).toBe(true);
    expect(run("'banana'.indexOf('an')")).toBe(1);
    expect(run("'banana'.indexOf('an', 2)")).toBe(3);
    expect(run("'Abc'.equals('Abc') && !'Abc'.equals('abc')")).toBe(true);
    expect(run("'Abc'.equalsIgnoreCase('aBC')")).toBe(true);
    expect(run("'abc'.matches('a.c')")).toBe(true);
    expect(run("'abcd'.matches('a.c')")).toBe(false);
  });

  it('transform', () => {
    expect(run("'  padded \\t'.trim()")).toBe('padded');
    // strip (Java 11) removes Unicode spaces too, but not no-break spaces; trim removes only codes up to U+0020.
    expect(run("'\\u2003 site \\u3000'.strip()")).toBe('site');
    expect(run("'\\u2003 site'.trim()")).toBe('\u2003 site');
    expect(run("'\\u00A0site '.strip()")).toBe('\u00A0site');
    expect(run("' a '.stripLeading() + '|' + ' a '.stripTrailing()")).toBe('a | a');
    expect(run("' \\t'.isBlank() && !'x'.isBlank()")).toBe(true);
    expect(run("'MiXed'.toUpperCase() + 'MiXed'.toLowerCase()")).toBe('MIXEDmixed');
    expect(run("'abcdef'.substring(2)")).toBe('cdef');
    expect(run("'abcdef'.substring(1, 3)")).toBe('bc');
    expect(failure("'abc'.substring(2, 9)").code).toBe('indexOutOfBounds');
    expect(run("'a.b.c'.replace('.', '/')")).toBe('a/b/c');
    expect(run("'a1b22'.replaceAll('[0-9]+', '#')")).toBe('a#b#');
    expect(run("'2024-01-31'.replaceAll('(\\\\d+)-(\\\\d+)-(\\\\d+)', '$3/$2/$1')")).toBe('31/01/2024');
    expect(run("'x1y2'.replaceFirst('\\\\d', '')")).toBe('xy2');
    expect(run("'7'.padLeft(3, '0') + '|' + 'ab'.padRight(4) + '|'")).toBe('007|ab  |');
    expect(run("'ab'.multiply(2) + 'x'.plus(1) + 'abc'.minus('b')")).toBe('ababx1ac');
    expect(run("'abc'[1] + 'abc'[-1]")).toBe('bc');
  });

  it('split like Java (a regular expression, trailing empty parts dropped)', () => {
    expect(run("'a,b,,'.split(',')")).toEqual(['a', 'b']);
    expect(run("',a'.split(',')")).toEqual(['', 'a']);
    expect(run("''.split(',')")).toEqual(['']);
    expect(run("'a1b22c'.split('\\\\d+')")).toEqual(['a', 'b', 'c']);
    expect(run("'a.b'.split('.')")).toEqual([]);
    expect(run("' one  two '.split()")).toEqual(['one', 'two']);
  });

  it('convert to numbers', () => {
    expect(run("' 12 '.toInteger()")).toBe(12);
    expect(run("'1.5'.toFloat()")).toEqual(new FloatingValue(1.5, 'Float'));
    expect(run("'2.5'.toDouble()")).toEqual(new FloatingValue(2.5, 'Double'));
    expect(text("'3.10'.toBigDecimal()")).toBe('3.10');
    expect(failure("'1.5'.toInteger()").code).toBe('numberFormat');
    expect(run("'1.5'.isNumber() && '1e3'.isNumber() && !'abc'.isNumber()")).toBe(true);
    expect(run("'42'.isInteger() && !'4.2'.isInteger() && !''.isInteger()")).toBe(true);
  });
});

describe('list methods', () => {
  it('search and test', () => {
    expect(run('[1, 2, 3].find { it > 1 }')).toBe(2);
    expect(run('[1, 2, 3].find { it > 5 }')).toBe(null);
    expect(run('[1, 2, 3].findAll { it % 2 }')).toEqual([1, 3]);
    expect(run("[0, '', 'x', null].findAll()")).toEqual(['x']);
    expect(run('[1, 2].any { it > 1 } && [1, 2].every { it > 0 }')).toBe(true);
    expect(run('[].every { false }')).toBe(true);
    expect(run("['a', 'b'].contains('b')")).toBe(true);
    expect(run('[1, 2].contains(2L)')).toBe(false);
    expect(run("['a', 'b'].indexOf('b')")).toBe(1);
    expect(run('[1, 1, 2].count(1) + [1, 2, 3].count { it > 1 }')).toBe(4);
    expect(run('[].isEmpty() && [1, 2].size() == 2')).toBe(true);
  });

  it('transform', () => {
    expect(run('[1, 2].collect { it * 3 }')).toEqual([3, 6]);
    expect(run("['b', 'a'].join(', ')")).toBe('b, a');
    expect(run("[1, null, 'x'].join('')")).toBe('1nullx');
    expect(run('[3, 1, 2].sort()')).toEqual([1, 2, 3]);
    expect(run("['bb', 'a', 'ccc'].sort { it.size() }")).toEqual(['a', 'bb', 'ccc']);
    expect(run('[1, 3, 2].sort { a, b -> b <=> a }')).toEqual([3, 2, 1]);
    expect(run("[1, 2, 1, 'a', 'a', 1L].unique()")).toEqual([1, 2, 'a']);
    expect(run('[1, 2].reverse()')).toEqual([2, 1]);
    expect(run('[1, 2, 3].groupBy { it % 2 == 0 ? "even" : "odd" }')).toEqual(
      new Map([
        ['odd', [1, 3]],
        ['even', [2]],
      ]),
    );
    expect(run("['a', 'bb'].collectEntries { [it, it.size()] }")).toEqual(
      new Map([
        ['a', 1],
        ['bb', 2],
      ]),
    );
    expect(run('[1, 2] + 3 + [4]')).toEqual([1, 2, 3, 4]);
    expect(run('[1, 2, 1, 3] - 1')).toEqual([2, 3]);
    expect(run('[0] * 3')).toEqual([0, 0, 0]);
  });

  it('never changes the list they are called on', () => {
    expect(run('def l = [3, 1, 2]; def sorted = l.sort(); [l, sorted]')).toEqual([
      [3, 1, 2],
      [1, 2, 3],
    ]);
    const data = [3, 1, 2];
    run('datum.values.sort()', { datum: { values: data } });
    expect(data).toEqual([3, 1, 2]);
  });

  it('aggregate', () => {
    expect(run('[1, 2, 3].sum()')).toBe(6);
    expect(text('[1, 2.5].sum()')).toBe('3.5');
    expect(run("['a', 'b'].sum()")).toBe('ab');
    expect(run('[].sum()')).toBe(null);
    expect(run('[1, 2].sum(10)')).toBe(13);
    expect(run("['aa', 'b'].sum { it.size() }")).toBe(3);
    expect(run('[3, 7, 5].max() - [3, 7, 5].min()')).toBe(4);
    expect(run("['bb', 'a', 'ccc'].max { it.size() }")).toBe('ccc');
    expect(run('[].max()')).toBe(null);
  });

  it('read elements', () => {
    expect(run('[1, 2, 3].first() + [1, 2, 3].last()')).toBe(4);
    expect(failure('[].first()').code).toBe('emptyCollection');
    expect(run('[1, 2, 3][-1]')).toBe(3);
    expect(run('[1, 2, 3][5]')).toBe(null);
    expect(run('[1, 2, 3].get(1)')).toBe(2);
    expect(failure('[1, 2, 3].get(5)').code).toBe('indexOutOfBounds');
    expect(run('[[k: 1], [k: 2]].k')).toEqual([1, 2]);
    expect(run("['a', 'bb']*.size()")).toEqual([1, 2]);
  });

  it('iterate with each and eachWithIndex', () => {
    expect(run('def out = []; def n = 0; [4, 5].eachWithIndex { v, i -> n += v * i }; n')).toBe(5);
    expect(run('def n = 0; [1, 2].each { n += it }')).toEqual([1, 2]);
  });
});

describe('map methods', () => {
  it('read with ., [] and get()', () => {
    const datum = { 'nom du site': 'Oir', code: 'oir' };
    expect(run("datum.code + datum['nom du site'] + datum.get('code') + datum.'nom du site'", { datum })).toBe(
      'oirOiroirOir',
    );
    expect(run('datum.absent', { datum })).toBe(null);
    expect(run("[a: 1].containsKey('a') && ![a: 1].containsKey('b')")).toBe(true);
  });

  it('list keys, values and entries', () => {
    expect(run('[a: 1, b: 2].keySet()')).toEqual(['a', 'b']);
    expect(run('[a: 1, b: 2].values()')).toEqual([1, 2]);
    expect(run('[a: 1, b: 2].collect { it.key + it.value }')).toEqual(['a1', 'b2']);
    expect(run('[a: 1, b: 2].collect { k, v -> k * v }')).toEqual(['a', 'bb']);
    expect(run('[a: 1, b: 2].find { it.value > 1 }.key')).toBe('b');
    expect(run('[a: 1, b: 2].findAll { k, v -> v < 2 }')).toEqual(new Map([['a', 1]]));
    expect(run('[a: 1].entrySet()[0].getKey()')).toBe('a');
  });

  it('aggregate and combine', () => {
    expect(run('[a: 1, b: 2].any { it.value > 1 } && [a: 1].every { k, v -> v == 1 }')).toBe(true);
    expect(run('[a: 1, b: 2].count { it.value > 0 }')).toBe(2);
    expect(run('([a: 1] + [b: 2]).size()')).toBe(2);
    expect(run('[:].isEmpty()')).toBe(true);
  });
});

describe('number methods', () => {
  it('convert and compute', () => {
    expect(run('3.9.toInteger()')).toBe(3);
    expect(run('3.toFloat()')).toEqual(new FloatingValue(3, 'Float'));
    expect(run('3.toDouble()')).toEqual(new FloatingValue(3, 'Double'));
    expect(run('(-4).abs()')).toBe(4);
    expect(run('2.plus(3) * 2.multiply(2) - 1.minus(1)')).toBe(20);
    expect(run('5.compareTo(3)')).toBe(1);
  });
});

describe('methods on null', () => {
  it('allow the calls Groovy allows on null', () => {
    expect(run('null.toString()')).toBe('null');
    expect(run('datum.none.collect { it }', { datum: {} })).toEqual([]);
    expect(run('datum.none.find { it }', { datum: {} })).toBe(null);
    expect(failure('datum.none.size()', { datum: {} }).code).toBe('nullDereference');
  });

  it('name the method that is missing on a type', () => {
    const error = failure('[1].toUpperCase()');
    expect(error.code).toBe('noSuchMethod');
    expect(error.params).toMatchObject({ method: 'toUpperCase', type: 'List' });
  });
});
