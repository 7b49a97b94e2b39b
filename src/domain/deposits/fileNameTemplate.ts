import type { FileNameRule } from '../configuration/model';

/** Characters that still make a pattern once its groups are named: such a pattern reads as no example. */
const STILL_A_PATTERN = /[[\]*+?{}|\\()]/;

/**
 * A file name as a person would write it, from the submission's pattern: each capture group becomes the name of what
 * it fills (`‹projet›!‹chemin›!‹start›!‹end›.csv`). Undefined when the pattern holds more than literal text around its
 * groups (alternatives, classes, repetitions outside groups): showing it would show a regular expression.
 */
export function fileNameTemplate(rule: FileNameRule, nameOf: (scope: string) => string): string | undefined {
  const source = rule.pattern.source.replace(/^\^/, '').replace(/\$$/, '');
  let written = '';
  let group = 0;
  for (let i = 0; i < source.length; i++) {
    const character = source[i];
    if (character === '\\') {
      const escaped = source[i + 1];
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) return undefined;
      written += escaped;
      i++;
    } else if (character === '(' && source[i + 1] !== '?') {
      const end = closingParenthesis(source, i);
      if (end < 0) return undefined;
      const scope = rule.matchPatternScopes[group++];
      written += `‹${scope === undefined ? '…' : nameOf(scope)}›`;
      i = end;
    } else if (character === '.') {
      // Written unescaped before an extension (`(.*).csv`): a dot is what the author meant.
      written += '.';
    } else if (STILL_A_PATTERN.test(character)) {
      return undefined;
    } else {
      written += character;
    }
  }
  return written;
}

function closingParenthesis(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return i;
  }
  return -1;
}
