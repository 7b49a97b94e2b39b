import { describe, expect, it } from 'vitest';
import { formDay, periodInputOf, readFormDay, readPeriodInput } from './periodInput';

describe('readFormDay', () => {
  it('reads dd-MM-YYYY with an optional hour, minutes and seconds', () => {
    expect(readFormDay('01-02-1984')).toBe('1984-02-01');
    expect(readFormDay(' 29-02-2024 13')).toBe('2024-02-29');
    expect(readFormDay('29-02-2024 13:05')).toBe('2024-02-29');
    expect(readFormDay('31-12-1999 23:59:59')).toBe('1999-12-31');
  });

  it('refuses days that do not exist, other layouts and bad times', () => {
    for (const text of [
      '29-02-2023',
      '1984-02-01',
      '01/02/1984',
      '1-2-1984',
      '01-02-1984x',
      '01-02-1984 24',
      '01-02-1984 10:60',
      '',
    ]) {
      expect(readFormDay(text), text).toBeNull();
    }
  });
});

describe('readPeriodInput', () => {
  it('reads each kind of period', () => {
    expect(readPeriodInput({ kind: 'always', from: 'junk', to: 'junk' })).toEqual({ ok: true, from: null, to: null });
    expect(readPeriodInput({ kind: 'from', from: '01-01-1984', to: 'junk' })).toEqual({
      ok: true,
      from: '1984-01-01',
      to: null,
    });
    expect(readPeriodInput({ kind: 'to', from: '', to: '31-12-1985' })).toEqual({
      ok: true,
      from: null,
      to: '1985-12-31',
    });
    expect(readPeriodInput({ kind: 'between', from: '01-01-1984', to: '31-12-1985' })).toEqual({
      ok: true,
      from: '1984-01-01',
      to: '1985-12-31',
    });
  });

  it('names the wrong field', () => {
    expect(readPeriodInput({ kind: 'between', from: '', to: '31-12-1985' })).toEqual({ ok: false, field: 'from' });
    expect(readPeriodInput({ kind: 'to', from: '', to: '31-13-1985' })).toEqual({ ok: false, field: 'to' });
    expect(readPeriodInput({ kind: 'between', from: '01-01-1986', to: '31-12-1985' })).toEqual({
      ok: false,
      field: 'order',
    });
  });

  it('goes back and forth with stored days', () => {
    expect(formDay('1984-02-01')).toBe('01-02-1984');
    expect(periodInputOf('1984-01-01', null)).toEqual({ kind: 'from', from: '01-01-1984', to: '' });
    expect(periodInputOf(null, null).kind).toBe('always');
    const input = periodInputOf('1984-01-01', '1985-12-31');
    expect(readPeriodInput(input)).toEqual({ ok: true, from: '1984-01-01', to: '1985-12-31' });
  });
});
