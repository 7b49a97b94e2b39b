/**
 * Java's String methods over regular expressions (`split`, `replaceAll`, `replaceFirst`), on Terrain's one engine
 * (`src/domain/regex`): linear in the text, every step counted against the evaluation budget. A pattern the engine
 * refuses is an `invalidRegex` expression error.
 */
import { compileJavaRegex, type CompiledRegex, type Tick } from '../regex';
import { ExpressionError } from './errors';

function invalid(pattern: string, reason: string): ExpressionError {
  return new ExpressionError('invalidRegex', `Invalid or unsupported regular expression /${pattern}/: ${reason}.`, {
    pattern,
    reason,
  });
}

export function compileRegex(pattern: string): CompiledRegex {
  const compiled = compileJavaRegex(pattern);
  if (!compiled.ok) throw invalid(pattern, compiled.message);
  return compiled.regex;
}

/** Successive non-overlapping matches, as java.util.regex.Matcher.find() walks them. */
function* allMatches(regex: CompiledRegex, input: string, tick: Tick): Generator<number[]> {
  let from = 0;
  while (from <= input.length) {
    const slots = regex.find(input, from, tick);
    if (!slots) return;
    yield slots;
    from = slots[1] === slots[0] ? slots[1] + 1 : slots[1];
  }
}

/** Java `String.split(regex)`: no leading empty string for a zero-width match at 0, trailing empty strings removed. */
export function splitRegex(regex: CompiledRegex, input: string, tick: Tick): string[] {
  if (input.length === 0) return [''];
  const parts: string[] = [];
  let index = 0;
  for (const [start, end] of allMatches(regex, input, tick)) {
    if (end === 0) continue;
    parts.push(input.slice(index, start));
    index = end;
  }
  if (parts.length === 0) return [input];
  parts.push(input.slice(index));
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Expands a Java replacement string (`$1`, `${name}`, `\$`) for one match. */
function expandReplacement(regex: CompiledRegex, replacement: string, input: string, slots: readonly number[]): string {
  let out = '';
  for (let k = 0; k < replacement.length; k++) {
    const c = replacement[k];
    if (c === '\\') {
      k++;
      if (k >= replacement.length) throw invalid(regex.source, 'the replacement ends with a backslash');
      out += replacement[k];
      continue;
    }
    if (c !== '$') {
      out += c;
      continue;
    }
    let group: number;
    const named = /^\{([a-zA-Z][a-zA-Z0-9]*)\}/.exec(replacement.slice(k + 1));
    if (named) {
      const index = regex.groupNames.get(named[1]);
      if (index === undefined) throw invalid(regex.source, `no group named ${named[1]}`);
      group = index;
      k += named[0].length;
    } else {
      const digit = replacement[k + 1];
      if (digit === undefined || !/\d/.test(digit))
        throw invalid(regex.source, "'$' in the replacement must name a group");
      group = Number(digit);
      k++;
      while (
        k + 1 < replacement.length &&
        /\d/.test(replacement[k + 1]) &&
        group * 10 + Number(replacement[k + 1]) <= regex.groupCount
      ) {
        group = group * 10 + Number(replacement[k + 1]);
        k++;
      }
      if (group > regex.groupCount) throw invalid(regex.source, `no group ${group}`);
    }
    const start = slots[group * 2];
    const end = slots[group * 2 + 1];
    if (start >= 0 && end >= 0) out += input.slice(start, end);
  }
  return out;
}

/** Java `replaceAll` / `replaceFirst`; `limitLength` stops a result that grows too long. */
export function replaceRegex(
  regex: CompiledRegex,
  input: string,
  replacement: string,
  all: boolean,
  tick: Tick,
  limitLength: (length: number) => void,
): string {
  let out = '';
  let index = 0;
  for (const slots of allMatches(regex, input, tick)) {
    out += input.slice(index, slots[0]) + expandReplacement(regex, replacement, input, slots);
    limitLength(out.length);
    index = slots[1];
    if (!all) break;
  }
  return out + input.slice(index);
}
