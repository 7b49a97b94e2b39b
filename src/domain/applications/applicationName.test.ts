import { describe, expect, it } from 'vitest';
import { checkApplicationName, isValidCreatorPattern, matchesCreatorPattern } from './applicationName';

const creator = (patterns: string[]) => ({ isPlatformAdmin: false, patterns });

describe('application names', () => {
  it('follow the configuration rule', () => {
    expect(checkApplicationName('ola', creator(['ola']))).toBeUndefined();
    expect(checkApplicationName('  ola  ', creator(['ola']))).toBeUndefined();
    expect(checkApplicationName('Ola', creator(['.*']))).toBe('invalidName');
    expect(checkApplicationName('1ola', creator(['.*']))).toBe('invalidName');
    expect(checkApplicationName('ol-a', creator(['.*']))).toBe('invalidName');
  });

  it('are refused by length beyond 40 characters or under 2', () => {
    expect(checkApplicationName('a'.repeat(40), creator(['.*']))).toBeUndefined();
    expect(checkApplicationName('a'.repeat(41), creator(['.*']))).toBe('invalidLengthName');
    expect(checkApplicationName('a'.repeat(44), creator(['.*']))).toBe('invalidLengthName');
    expect(checkApplicationName('a', creator(['.*']))).toBe('invalidLengthName');
  });

  it('need a matching creator pattern unless the user is platform administrator', () => {
    expect(checkApplicationName('monsore', creator(['ola_.*']))).toBe('badNameWithRight');
    expect(checkApplicationName('ola_test', creator(['ola_.*']))).toBeUndefined();
    expect(checkApplicationName('monsore', { isPlatformAdmin: true, patterns: [] })).toBeUndefined();
  });

  it('match patterns exactly or as whole regular expressions', () => {
    expect(matchesCreatorPattern('ola', ['ola'])).toBe(true);
    expect(matchesCreatorPattern('olab', ['ola'])).toBe(false);
    expect(matchesCreatorPattern('xola_1', ['ola_.*'])).toBe(false);
    expect(matchesCreatorPattern('ola', ['[unclosed'])).toBe(false);
    expect(matchesCreatorPattern('[unclosed', ['[unclosed'])).toBe(true);
  });

  it('match in time linear in the name, whatever the pattern (a backtracking engine never ended on these)', () => {
    const name = `${'a'.repeat(39)}c`;
    for (const pattern of ['(a|a)*b', '(a+)+b', '(a|aa)*$b', '([a-z]*)*b'])
      expect(matchesCreatorPattern(name, [pattern]), pattern).toBe(false);
    expect(matchesCreatorPattern('aaab', ['(a|a)*b'])).toBe(true);
  });

  it('accept as creator patterns the regular expressions only', () => {
    for (const pattern of ['ola', 'ola_.*', '(ola|fn)_[a-z]+'])
      expect(isValidCreatorPattern(pattern), pattern).toBe(true);
    for (const pattern of ['ola_(', '[a-', '*x', 'a)|(b']) expect(isValidCreatorPattern(pattern), pattern).toBe(false);
  });
});
