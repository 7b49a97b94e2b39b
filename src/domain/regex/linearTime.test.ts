/**
 * Patterns that make backtracking engines (Java's, JavaScript's) run for years on a few dozen characters run here
 * in time proportional to the text: the steps counted grow as the text does, and long texts take milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { compileJavaRegex, type CompiledRegex } from '.';

const HOSTILE = ['(a+)+$', '(a|a)*b', '(.*a){20}', '(a|aa)*c', '(\\w+\\s?)*$', '(x+x+)+y'];

function compiled(source: string): CompiledRegex {
  const result = compileJavaRegex(source);
  if (!result.ok) throw new Error(result.message);
  return result.regex;
}

/** Steps counted by one run of `match` on `text`. */
function steps(match: (text: string, tick: (steps: number) => void) => unknown, text: string): number {
  let counted = 0;
  match(text, (taken) => (counted += taken));
  return counted;
}

/** CPU time of `run` in ms: what the match costs, whatever else the machine is doing. */
function cpuMilliseconds(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / 1000;
}

/** A text that almost matches: many characters the pattern repeats, then one that makes it fail at the end. */
const almost = (length: number) => `${'a'.repeat(length)}!`;

describe('linear time on hostile patterns', () => {
  it.each(HOSTILE)('%s: steps grow with the text, not faster (whole text, search and groups)', (source) => {
    const regex = compiled(source);
    const runs: Array<(text: string, tick: (steps: number) => void) => unknown> = [
      (text, tick) => regex.matches(text, tick),
      (text, tick) => regex.find(text, 0, tick),
      (text, tick) => regex.matchGroups(text, tick),
    ];
    for (const run of runs) {
      const short = steps(run, almost(1_000));
      const long = steps(run, almost(8_000));
      // Linear: the steps per character stay the same when the text is eight times longer.
      expect(long / 8_000).toBeLessThan((short / 1_000) * 1.1);
    }
  });

  it('checks a text of a million characters in far less than a second, for each pattern', () => {
    const text = almost(1_000_000);
    for (const source of HOSTILE) {
      const regex = compiled(source);
      expect(
        cpuMilliseconds(() => regex.matches(text)),
        source,
      ).toBeLessThan(250);
    }
  });

  it('searches and captures in a text of 10,000 characters in far less than a second, for each pattern', () => {
    const text = almost(10_000);
    for (const source of HOSTILE) {
      const regex = compiled(source);
      const spent = cpuMilliseconds(() => {
        regex.find(text, 0);
        regex.matchGroups(text);
      });
      expect(spent, source).toBeLessThan(300);
    }
  });

  it('stays bounded when a pattern makes more DFA states than are kept', () => {
    // (a|b)*a(a|b){12}: the DFA needs a state per suffix of 13 letters, 8,192 of them, more than it keeps.
    const regex = compiled('(?:a|b)*a(?:a|b){12}');
    let text = '';
    for (let k = 0; k < 200_000; k += 1) text += (k * 2_654_435_761) % 7 < 3 ? 'a' : 'b';
    const native = /^(?:a|b)*a(?:a|b){12}$/;
    const spent = cpuMilliseconds(() => {
      expect(regex.matches(text)).toBe(native.test(text));
      expect(regex.matches(`${text}b`)).toBe(native.test(`${text}b`));
    });
    expect(spent).toBeLessThan(2_000);
  });
});
