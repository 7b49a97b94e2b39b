import { describe, expect, it } from 'vitest';
import { compileJavaDatePattern, MAX_DATE_PATTERN_LENGTH, type JavaDatePattern } from './javaDatePattern';
import { toIsoLocalDateTime } from './localDateTime';

function pattern(source: string): JavaDatePattern {
  const compiled = compileJavaDatePattern(source);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.pattern;
}

const parse = (source: string, text: string) => {
  const value = pattern(source).parse(text);
  return value && toIsoLocalDateTime(value);
};

describe('Java date patterns', () => {
  it('refuses what DateTimeFormatter.ofPattern refuses', () => {
    expect(compileJavaDatePattern('bb/MM/yyyy')).toEqual({ ok: false, message: 'Unknown pattern letter: b', index: 0 });
    expect(compileJavaDatePattern('ddd/MM')).toMatchObject({ ok: false, message: 'Too many pattern letters: d' });
    expect(compileJavaDatePattern('MMMMMM')).toMatchObject({ ok: false, message: 'Too many pattern letters: M' });
    expect(compileJavaDatePattern('HH:mm aa')).toMatchObject({ ok: false, message: 'Too many pattern letters: a' });
    expect(compileJavaDatePattern("dd 'at")).toMatchObject({
      ok: false,
      message: expect.stringContaining('incomplete string literal'),
    });
    expect(compileJavaDatePattern('yyyy#')).toMatchObject({
      ok: false,
      message: "Pattern includes reserved character: '#'",
    });
    expect(compileJavaDatePattern('yyyy]')).toMatchObject({
      ok: false,
      message: expect.stringContaining('without previous ['),
    });
    for (const valid of [
      'dd/MM/yyyy',
      'MM/yyyy',
      'yyyy',
      'HH:mm:ss',
      'dd/MM/yyyy HH:mm:ss',
      'dd/MM/yy',
      "yyyy-MM-dd'T'HH:mm",
      'EEE d MMM uuuu',
      'yyyy[-MM[-dd]]',
      'hh:mm a',
      'D',
      'SSS',
      "''",
    ]) {
      expect(compileJavaDatePattern(valid).ok).toBe(true);
    }
  });

  it('refuses a year wider than Java’s widest field, and a pattern longer than any real one', () => {
    expect(compileJavaDatePattern('y'.repeat(19)).ok).toBe(true);
    for (const letter of ['y', 'u', 'Y'])
      expect(compileJavaDatePattern(letter.repeat(20))).toMatchObject({
        ok: false,
        message: `Too many pattern letters: ${letter}`,
      });
    const literal = `'${'x'.repeat(MAX_DATE_PATTERN_LENGTH - 7)}' yyyy`;
    expect(literal).toHaveLength(MAX_DATE_PATTERN_LENGTH);
    expect(compileJavaDatePattern(literal).ok).toBe(true);
    for (const long of ['y'.repeat(100_000), 'dM'.repeat(50_000), `${literal} `])
      expect(compileJavaDatePattern(long)).toEqual({
        ok: false,
        message: `Pattern longer than ${MAX_DATE_PATTERN_LENGTH} characters`,
        index: MAX_DATE_PATTERN_LENGTH,
        maxLength: MAX_DATE_PATTERN_LENGTH,
      });
  });

  it('parses with fixed widths: yyyy wants four digits, dd two', () => {
    expect(parse('dd/MM/yyyy', '25/12/1984')).toBe('1984-12-25T00:00:00');
    expect(parse('dd/MM/yyyy', '01/01/16')).toBeNull();
    expect(parse('dd/MM/yyyy', '1/1/2016')).toBeNull();
    expect(parse('d/M/yyyy', '1/1/2016')).toBe('2016-01-01T00:00:00');
    expect(parse('dd/MM/yyyy', '12/31/1980')).toBeNull();
    expect(parse('dd/MM/yyyy', '25/12/1984 ')).toBeNull();
    expect(parse('yyyyMMdd', '20240115')).toBe('2024-01-15T00:00:00');
  });

  it('refuses days that do not exist instead of moving them (Java SMART would store 29/02 for 31/02)', () => {
    expect(parse('dd/MM/yyyy', '31/02/2020')).toBeNull();
    expect(parse('dd/MM/yyyy', '30/02/2020')).toBeNull();
    expect(parse('dd/MM/yyyy', '31/04/2020')).toBeNull();
    expect(parse('dd/MM/yyyy', '32/01/2020')).toBeNull();
    expect(parse('d/M/yyyy', '31/6/2020')).toBeNull();
    expect(parse('dd/MM/yyyy HH:mm', '31/02/2020 10:00')).toBeNull();
    expect(parse('dd MMMM yyyy', '30 février 2020')).toBeNull();
    expect(parse('dd/MM/yyyy', '30/04/2020')).toBe('2020-04-30T00:00:00');
    expect(parse('dd/MM/yyyy', '31/12/2020')).toBe('2020-12-31T00:00:00');
  });

  it('knows leap years: every fourth year, not centuries, but every fourth century; yy is 2000–2099', () => {
    expect(parse('dd/MM/yyyy', '29/02/2020')).toBe('2020-02-29T00:00:00');
    expect(parse('dd/MM/yyyy', '29/02/2021')).toBeNull();
    expect(parse('dd/MM/yyyy', '29/02/1900')).toBeNull();
    expect(parse('dd/MM/yyyy', '29/02/2000')).toBe('2000-02-29T00:00:00');
    expect(parse('dd/MM/yy', '29/02/00')).toBe('2000-02-29T00:00:00');
    expect(parse('dd/MM/yy', '29/02/01')).toBeNull();
    expect(parse('dd/MM/yy', '29/02/96')).toBe('2096-02-29T00:00:00');
    // Without a year the day is read in 1970, which had no 29 February.
    expect(parse('dd/MM', '29/02')).toBeNull();
    expect(parse('dd/MM', '28/02')).toBe('1970-02-28T00:00:00');
  });

  it('reads a day of the year within its year, and refuses a month or day that contradicts it', () => {
    expect(parse('yyyy-DDD', '2020-366')).toBe('2020-12-31T00:00:00');
    expect(parse('yyyy-DDD', '2021-366')).toBeNull();
    expect(parse('yyyy-DDD', '2021-060')).toBe('2021-03-01T00:00:00');
    expect(parse('yyyy-DDD', '2021-000')).toBeNull();
    expect(parse('yyyy-MM-dd DDD', '2021-03-01 060')).toBe('2021-03-01T00:00:00');
    expect(parse('yyyy-MM-dd DDD', '2021-03-02 060')).toBeNull();
    expect(parse('yyyy-MM DDD', '2021-02 060')).toBeNull();
  });

  it('refuses 24:00 with HH (Java SMART would read the next day); kk counts 1–24 and its 24 is the day’s first hour', () => {
    expect(parse('HH:mm', '24:00')).toBeNull();
    expect(parse('dd/MM/yyyy HH:mm', '31/12/2020 24:00')).toBeNull();
    expect(parse('dd/MM/yyyy HH:mm', '31/12/2020 23:59')).toBe('2020-12-31T23:59:00');
    expect(parse('dd/MM/yyyy kk:mm', '31/12/2020 24:00')).toBe('2020-12-31T00:00:00');
    expect(parse('kk:mm', '00:00')).toBeNull();
    expect(parse('HH:mm:ss', '10:60:00')).toBeNull();
    expect(parse('HH:mm:ss', '10:00:60')).toBeNull();
    expect(parse('hh:mm a', '13:00 PM')).toBeNull();
  });

  it('refuses years Java cannot hold instead of rounding their digits', () => {
    expect(parse('uuuu', '999999999')).toBe('+999999999-01-01T00:00:00');
    expect(parse('uuuu', '1000000000')).toBeNull();
    expect(parse('yyyy', '1234567890123456789')).toBeNull();
    expect(parse('uuuu', '-999999999')).toBe('-999999999-01-01T00:00:00');
  });

  it('fills the fields a pattern lacks', () => {
    expect(parse('MM/yyyy', '06/2004')).toBe('2004-06-01T00:00:00');
    expect(parse('yyyy', '2004')).toBe('2004-01-01T00:00:00');
    expect(parse('HH:mm:ss', '08:45:00')).toBe('1970-01-01T08:45:00');
    expect(parse('HH:mm', '24:00')).toBeNull();
    expect(parse('dd/MM/yy', '01/02/03')).toBe('2003-02-01T00:00:00');
    expect(parse('hh:mm a', '10:30 PM')).toBe('1970-01-01T22:30:00');
    expect(parse('dd/MM/yyyy HH:mm:ss.SSS', '01/01/2020 10:11:12.345')).toBe('2020-01-01T10:11:12.345');
    expect(parse('yyyy[-MM]', '2020')).toBe('2020-01-01T00:00:00');
    expect(parse('yyyy[-MM]', '2020-05')).toBe('2020-05-01T00:00:00');
  });

  it('reads month and day names in English and French', () => {
    expect(parse('dd MMM yyyy', '05 Jan 2020')).toBe('2020-01-05T00:00:00');
    expect(parse('dd MMMM yyyy', '05 février 2020')).toBe('2020-02-05T00:00:00');
    expect(parse('EEE dd/MM/yyyy', 'Mon 06/01/2020')).toBe('2020-01-06T00:00:00');
    expect(parse('EEE dd/MM/yyyy', 'Tue 06/01/2020')).toBeNull();
  });

  it('formats back what it parses', () => {
    for (const [source, text] of [
      ['dd/MM/yyyy', '25/12/1984'],
      ['MM/yyyy', '06/2004'],
      ['dd/MM/yyyy HH:mm:ss', '01/01/2020 10:11:12'],
      ["yyyy-MM-dd'T'HH:mm", '2020-01-01T10:00'],
      ['dd MMM yyyy', '05 Jan 2020'],
      ['hh:mm a', '10:30 PM'],
    ]) {
      const compiled = pattern(source);
      expect(compiled.format(compiled.parse(text)!)).toBe(text);
    }
  });

  it('says which parts a pattern carries', () => {
    expect(pattern('dd/MM/yyyy')).toMatchObject({ hasDate: true, hasTime: false });
    expect(pattern('HH:mm')).toMatchObject({ hasDate: false, hasTime: true });
    expect(pattern('dd/MM/yyyy HH:mm')).toMatchObject({ hasDate: true, hasTime: true });
  });
});
