/**
 * Java regular expressions (for split, replaceAll, replaceFirst, matches, ==~ and =~) run by a Pike VM: every
 * pattern runs in time linear in the input and each step is counted against the evaluation budget, so no pattern
 * can hang a worker or the server the way a backtracking engine (JavaScript's RegExp) can. Lookaround,
 * back-references and possessive quantifiers, which need backtracking, are refused.
 */
import { ExpressionError } from './errors';

type CharTest = (code: number) => boolean;

type RegexNode =
  | { readonly t: 'char'; readonly test: CharTest }
  | { readonly t: 'seq'; readonly items: readonly RegexNode[] }
  | { readonly t: 'alt'; readonly options: readonly RegexNode[] }
  | { readonly t: 'group'; readonly body: RegexNode; readonly capture: number | null }
  | { readonly t: 'repeat'; readonly body: RegexNode; readonly min: number; readonly max: number; readonly greedy: boolean }
  | { readonly t: 'assert'; readonly kind: AssertionKind };

type AssertionKind = 'lineStart' | 'lineEnd' | 'inputStart' | 'inputEnd' | 'inputEndOrFinalNewline' | 'wordBoundary' | 'notWordBoundary';

type Instruction =
  | { readonly op: 'char'; readonly test: CharTest }
  | { readonly op: 'split'; readonly first: number; readonly second: number }
  | { readonly op: 'jump'; readonly to: number }
  | { readonly op: 'save'; readonly slot: number }
  | { readonly op: 'assert'; readonly kind: AssertionKind }
  | { readonly op: 'match' };

export interface CompiledRegex {
  readonly pattern: string;
  /** Set when the pattern has no special character: the engine then works on plain strings. */
  readonly literal: string | null;
  readonly groupCount: number;
  readonly groupNames: ReadonlyMap<string, number>;
  /** Program that searches (a lazy `.*?` in front of the pattern). */
  readonly search: readonly Instruction[];
  /** Program that must match the whole input. */
  readonly whole: readonly Instruction[];
}

/** Called once per VM step; throws when the evaluation budget is spent. */
export type Tick = () => void;

const MAX_PROGRAM = 20_000;
const MAX_CACHE = 256;
const cache = new Map<string, CompiledRegex>();

function invalid(pattern: string, reason: string): ExpressionError {
  return new ExpressionError('invalidRegex', `Invalid or unsupported regular expression /${pattern}/: ${reason}.`, { pattern, reason });
}

const isDigitCode = (c: number) => c >= 48 && c <= 57;
const isWordCode = (c: number) => isDigitCode(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpaceCode = (c: number) => c === 32 || (c >= 9 && c <= 13);
const isLineTerminator = (c: number) => c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;

const PROPERTY_CLASSES: Record<string, CharTest> = {
  Lower: (c) => c >= 97 && c <= 122,
  Upper: (c) => c >= 65 && c <= 90,
  ASCII: (c) => c <= 0x7f,
  Alpha: (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  Digit: isDigitCode,
  Alnum: (c) => isDigitCode(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  Punct: (c) => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126),
  Space: isSpaceCode,
  L: (c) => /\p{L}/u.test(String.fromCharCode(c)),
  Lu: (c) => /\p{Lu}/u.test(String.fromCharCode(c)),
  Ll: (c) => /\p{Ll}/u.test(String.fromCharCode(c)),
  N: (c) => /\p{N}/u.test(String.fromCharCode(c)),
  IsAlphabetic: (c) => /\p{Alphabetic}/u.test(String.fromCharCode(c)),
};

class RegexParser {
  private i = 0;
  groupCount = 0;
  readonly groupNames = new Map<string, number>();
  caseInsensitive = false;
  dotAll = false;
  multiline = false;

  constructor(private readonly src: string) {}

  private fail(reason: string): never {
    throw invalid(this.src, reason);
  }

  parse(): RegexNode {
    this.parseLeadingFlags();
    const node = this.parseAlternation();
    if (this.i < this.src.length) this.fail(`unexpected '${this.src[this.i]}' at ${this.i + 1}`);
    return node;
  }

  /** `(?i)`, `(?s)`, `(?m)` at the very start; flags elsewhere are refused. */
  private parseLeadingFlags(): void {
    const match = /^\(\?([ism]+)\)/.exec(this.src);
    if (!match) return;
    this.caseInsensitive = match[1].includes('i');
    this.dotAll = match[1].includes('s');
    this.multiline = match[1].includes('m');
    this.i = match[0].length;
  }

  private parseAlternation(): RegexNode {
    const options = [this.parseSequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      options.push(this.parseSequence());
    }
    return options.length === 1 ? options[0] : { t: 'alt', options };
  }

  private parseSequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const quoted = this.parseQuoted();
      if (quoted) {
        items.push(...quoted);
        continue;
      }
      items.push(this.parseQuantified(this.parseAtom()));
    }
    return { t: 'seq', items };
  }

  /** `\Q…\E`: everything in between is literal. */
  private parseQuoted(): RegexNode[] | null {
    if (!this.src.startsWith('\\Q', this.i)) return null;
    const end = this.src.indexOf('\\E', this.i + 2);
    const text = this.src.slice(this.i + 2, end < 0 ? undefined : end);
    this.i = end < 0 ? this.src.length : end + 2;
    return [...text].map((ch) => this.literal(ch.charCodeAt(0)));
  }

  private literal(code: number): RegexNode {
    return { t: 'char', test: this.literalTest(code) };
  }

  private literalTest(code: number): CharTest {
    if (!this.caseInsensitive) return (c) => c === code;
    const lower = String.fromCharCode(code).toLowerCase().charCodeAt(0);
    const upper = String.fromCharCode(code).toUpperCase().charCodeAt(0);
    return (c) => c === code || c === lower || c === upper;
  }

  private parseQuantified(atom: RegexNode): RegexNode {
    const c = this.src[this.i];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.i))) {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))!;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      if (max < min) this.fail('a repetition has its maximum below its minimum');
      if (min > 1000 || (max !== Infinity && max > 1000)) this.fail('repetition counts above 1000 are not supported');
      this.i += match[0].length - 1;
    } else return atom;
    this.i++;
    let greedy = true;
    if (this.src[this.i] === '?') {
      greedy = false;
      this.i++;
    } else if (this.src[this.i] === '+') this.fail('possessive quantifiers are not supported');
    if (atom.t === 'assert') this.fail('a quantifier follows an anchor');
    const quantified: RegexNode = { t: 'repeat', body: atom, min, max, greedy };
    const next = this.src[this.i];
    if (next === '*' || next === '+' || next === '?') this.fail('two quantifiers follow each other');
    return quantified;
  }

  private parseAtom(): RegexNode {
    const c = this.src[this.i];
    switch (c) {
      case '(':
        return this.parseGroup();
      case '[':
        return { t: 'char', test: this.parseClass() };
      case '.': {
        this.i++;
        const dotAll = this.dotAll;
        return { t: 'char', test: (code) => dotAll || !isLineTerminator(code) };
      }
      case '^':
        this.i++;
        return { t: 'assert', kind: this.multiline ? 'lineStart' : 'inputStart' };
      case '$':
        this.i++;
        return { t: 'assert', kind: this.multiline ? 'lineEnd' : 'inputEndOrFinalNewline' };
      case '\\':
        return this.parseEscape();
      case '*':
      case '+':
      case '?':
        return this.fail(`nothing to repeat before '${c}'`);
      case '{':
        return this.fail("'{' does not start a valid repetition");
      default:
        this.i++;
        return this.literal(c.charCodeAt(0));
    }
  }

  private parseGroup(): RegexNode {
    this.i++;
    let capture: number | null = null;
    if (this.src[this.i] === '?') {
      const rest = this.src.slice(this.i);
      const named = /^\?<([a-zA-Z][a-zA-Z0-9]*)>/.exec(rest);
      if (rest.startsWith('?:')) this.i += 2;
      else if (named) {
        capture = ++this.groupCount;
        this.groupNames.set(named[1], capture);
        this.i += named[0].length;
      } else if (/^\?(=|!|<=|<!)/.test(rest)) this.fail('lookaround is not supported');
      else if (rest.startsWith('?>')) this.fail('atomic groups are not supported');
      else this.fail('inline flags are only supported at the start of the pattern');
    } else capture = ++this.groupCount;
    const body = this.parseAlternation();
    if (this.src[this.i] !== ')') this.fail('a group is never closed');
    this.i++;
    return { t: 'group', body, capture };
  }

  private parseEscape(): RegexNode {
    const c = this.src[this.i + 1];
    if (c === undefined) this.fail('the pattern ends with a backslash');
    const assertions: Record<string, AssertionKind> = {
      b: 'wordBoundary', B: 'notWordBoundary', A: 'inputStart', z: 'inputEnd', Z: 'inputEndOrFinalNewline',
    };
    if (c in assertions) {
      this.i += 2;
      return { t: 'assert', kind: assertions[c] };
    }
    if (/[1-9]/.test(c)) this.fail('back-references are not supported');
    if (c === 'G' || c === 'k') this.fail(`\\${c} is not supported`);
    return { t: 'char', test: this.parseCharEscape() };
  }

  /** An escape that stands for characters (`\d`, `\t`, `\.`, `\p{Alpha}`, …), with the backslash under the cursor. */
  private parseCharEscape(): CharTest {
    const c = this.src[this.i + 1];
    this.i += 2;
    switch (c) {
      case 'd':
        return isDigitCode;
      case 'D':
        return (code) => !isDigitCode(code);
      case 'w':
        return isWordCode;
      case 'W':
        return (code) => !isWordCode(code);
      case 's':
        return isSpaceCode;
      case 'S':
        return (code) => !isSpaceCode(code);
      case 'p':
      case 'P': {
        const match = /^\{(?:Is)?([A-Za-z]+)\}|^([LN])/.exec(this.src.slice(this.i));
        const name = match?.[1] ?? match?.[2];
        const test = name ? PROPERTY_CLASSES[name] ?? PROPERTY_CLASSES['Is' + name] : undefined;
        if (!match || !test) this.fail(`the character property \\${c}${this.src.slice(this.i, this.i + 12)} is not supported`);
        this.i += match[0].length;
        return c === 'p' ? test : (code) => !test(code);
      }
    }
    return this.literalTest(this.escapedCode(c));
  }

  /** Code of a character escape (`\t`, `\x41`, `\u00e9`, `\0101`, `\.`). */
  private escapedCode(c: string): number {
    const simple: Record<string, number> = { t: 9, n: 10, r: 13, f: 12, a: 7, e: 27 };
    if (c in simple) return simple[c];
    if (c === 'x' || c === 'u') {
      const length = c === 'x' ? 2 : 4;
      const hex = this.src.slice(this.i, this.i + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) this.fail(`\\${c} needs ${length} hex digits`);
      this.i += length;
      return parseInt(hex, 16);
    }
    if (c === '0') {
      const octal = /^[0-7]{1,3}/.exec(this.src.slice(this.i));
      if (!octal) this.fail('\\0 needs octal digits');
      this.i += octal[0].length;
      return parseInt(octal[0], 8);
    }
    if (/[a-zA-Z]/.test(c)) this.fail(`\\${c} is not a known escape`);
    return c.charCodeAt(0);
  }

  private parseClass(): CharTest {
    this.i++;
    const negated = this.src[this.i] === '^';
    if (negated) this.i++;
    const tests: CharTest[] = [];
    let first = true;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) this.fail('a character class is never closed');
      if (c === ']' && !first) break;
      first = false;
      if (c === '[' || (c === '&' && this.src[this.i + 1] === '&')) this.fail('nested classes and intersections are not supported');
      let low: number;
      if (c === '\\') {
        const escape = this.src[this.i + 1];
        if (escape !== undefined && 'dDwWsSpP'.includes(escape)) {
          tests.push(this.parseCharEscape());
          continue;
        }
        this.i += 2;
        low = this.escapedCode(escape ?? '');
      } else {
        low = c.charCodeAt(0);
        this.i++;
      }
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== undefined) {
        this.i++;
        let high: number;
        if (this.src[this.i] === '\\') {
          const escape = this.src[this.i + 1] ?? '';
          this.i += 2;
          high = this.escapedCode(escape);
        } else {
          high = this.src.charCodeAt(this.i);
          this.i++;
        }
        if (high < low) this.fail('a character range is reversed');
        tests.push(this.rangeTest(low, high));
      } else tests.push(this.rangeTest(low, low));
    }
    this.i++;
    return negated ? (code) => !tests.some((t) => t(code)) : (code) => tests.some((t) => t(code));
  }

  private rangeTest(low: number, high: number): CharTest {
    if (!this.caseInsensitive) return (c) => c >= low && c <= high;
    return (c) => {
      if (c >= low && c <= high) return true;
      const lower = String.fromCharCode(c).toLowerCase().charCodeAt(0);
      const upper = String.fromCharCode(c).toUpperCase().charCodeAt(0);
      return (lower >= low && lower <= high) || (upper >= low && upper <= high);
    };
  }
}

class ProgramBuilder {
  readonly code: Instruction[] = [];

  constructor(private readonly pattern: string) {}

  private emit(instruction: Instruction): number {
    if (this.code.length >= MAX_PROGRAM) throw invalid(this.pattern, 'the pattern is too large');
    this.code.push(instruction);
    return this.code.length - 1;
  }

  /** Emits a placeholder to patch once the jump targets are known. */
  private hole(): number {
    return this.emit({ op: 'jump', to: -1 });
  }

  compile(node: RegexNode): void {
    switch (node.t) {
      case 'char':
        this.emit({ op: 'char', test: node.test });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.kind });
        return;
      case 'seq':
        for (const item of node.items) this.compile(item);
        return;
      case 'group':
        if (node.capture !== null) this.emit({ op: 'save', slot: node.capture * 2 });
        this.compile(node.body);
        if (node.capture !== null) this.emit({ op: 'save', slot: node.capture * 2 + 1 });
        return;
      case 'alt': {
        const exits: number[] = [];
        node.options.forEach((option, k) => {
          if (k === node.options.length - 1) {
            this.compile(option);
            return;
          }
          const split = this.hole();
          this.compile(option);
          exits.push(this.hole());
          this.code[split] = { op: 'split', first: split + 1, second: this.code.length };
        });
        for (const exit of exits) this.code[exit] = { op: 'jump', to: this.code.length };
        return;
      }
      case 'repeat':
        this.compileRepeat(node.body, node.min, node.max, node.greedy);
        return;
    }
  }

  private branch(at: number, body: number, exit: number, greedy: boolean): void {
    this.code[at] = greedy ? { op: 'split', first: body, second: exit } : { op: 'split', first: exit, second: body };
  }

  private compileRepeat(body: RegexNode, min: number, max: number, greedy: boolean): void {
    for (let k = 0; k < min; k++) this.compile(body);
    if (max === Infinity) {
      const loop = this.hole();
      this.compile(body);
      this.emit({ op: 'jump', to: loop });
      this.branch(loop, loop + 1, this.code.length, greedy);
      return;
    }
    const splits: number[] = [];
    for (let k = min; k < max; k++) {
      splits.push(this.hole());
      this.compile(body);
    }
    for (const split of splits) this.branch(split, split + 1, this.code.length, greedy);
  }
}

function buildProgram(pattern: string, node: RegexNode, searching: boolean): Instruction[] {
  const builder = new ProgramBuilder(pattern);
  if (searching) {
    // A lazy `.*?` in front: threads that start earlier keep priority, so the leftmost match wins.
    builder.code.push({ op: 'split', first: 3, second: 1 }, { op: 'char', test: () => true }, { op: 'jump', to: 0 });
  }
  builder.code.push({ op: 'save', slot: 0 });
  builder.compile(node);
  builder.code.push({ op: 'save', slot: 1 });
  if (!searching) builder.code.push({ op: 'assert', kind: 'inputEnd' });
  builder.code.push({ op: 'match' });
  return builder.code;
}

export function compileRegex(pattern: string): CompiledRegex {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const literal = /[\\^$.|?*+()[\]{}]/.test(pattern) ? null : pattern;
  const parser = new RegexParser(pattern);
  const node = parser.parse();
  const compiled: CompiledRegex = {
    pattern,
    literal,
    groupCount: parser.groupCount,
    groupNames: parser.groupNames,
    search: buildProgram(pattern, node, true),
    whole: buildProgram(pattern, node, false),
  };
  if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

function assertionHolds(kind: AssertionKind, input: string, at: number): boolean {
  switch (kind) {
    case 'inputStart':
      return at === 0;
    case 'inputEnd':
      return at === input.length;
    case 'inputEndOrFinalNewline':
      return at === input.length || (at === input.length - 1 && input.charCodeAt(at) === 10);
    case 'lineStart':
      return at === 0 || isLineTerminator(input.charCodeAt(at - 1));
    case 'lineEnd':
      return at === input.length || isLineTerminator(input.charCodeAt(at));
    case 'wordBoundary':
    case 'notWordBoundary': {
      const before = at > 0 && isWordCode(input.charCodeAt(at - 1));
      const after = at < input.length && isWordCode(input.charCodeAt(at));
      return (before !== after) === (kind === 'wordBoundary');
    }
  }
}

interface Thread {
  readonly pc: number;
  readonly slots: readonly number[];
}

/**
 * Runs a program from `start`; returns the capture slots of the preferred match (start and end of each group,
 * -1 when a group did not take part) or null.
 */
function run(program: readonly Instruction[], slotCount: number, input: string, start: number, tick: Tick): number[] | null {
  let current: Thread[] = [];
  let next: Thread[] = [];
  const seen = new Int32Array(program.length).fill(-1);
  let generation = 0;
  let matched: number[] | null = null;

  /** Follows jumps, splits, saves and assertions from `pc` (in priority order) and queues the threads that wait. */
  const add = (list: Thread[], startPc: number, startSlots: readonly number[], at: number): void => {
    const pending: Thread[] = [{ pc: startPc, slots: startSlots }];
    while (pending.length > 0) {
      let { pc, slots } = pending.pop()!;
      for (;;) {
        if (seen[pc] === generation) break;
        seen[pc] = generation;
        tick();
        const instruction = program[pc];
        if (instruction.op === 'jump') {
          pc = instruction.to;
        } else if (instruction.op === 'split') {
          pending.push({ pc: instruction.second, slots });
          pc = instruction.first;
        } else if (instruction.op === 'save') {
          const copy = slots.slice();
          copy[instruction.slot] = at;
          slots = copy;
          pc++;
        } else if (instruction.op === 'assert') {
          if (!assertionHolds(instruction.kind, input, at)) break;
          pc++;
        } else {
          list.push({ pc, slots });
          break;
        }
      }
    }
  };

  add(current, 0, new Array<number>(slotCount).fill(-1), start);
  for (let at = start; current.length > 0; at++) {
    generation++;
    const code = at < input.length ? input.charCodeAt(at) : -1;
    for (const thread of current) {
      const instruction = program[thread.pc];
      if (instruction.op === 'match') {
        matched = thread.slots.slice();
        break; // threads after this one have lower priority
      }
      if (instruction.op === 'char' && code !== -1 && instruction.test(code)) add(next, thread.pc + 1, thread.slots, at + 1);
    }
    [current, next] = [next, []];
  }
  return matched;
}

/** The first match at or after `from`: capture slots, or null. */
export function searchRegex(regex: CompiledRegex, input: string, from: number, tick: Tick): number[] | null {
  if (regex.literal !== null) {
    const at = input.indexOf(regex.literal, from);
    return at < 0 ? null : [at, at + regex.literal.length];
  }
  return run(regex.search, (regex.groupCount + 1) * 2, input, from, tick);
}

export function matchesWhole(regex: CompiledRegex, input: string, tick: Tick): boolean {
  if (regex.literal !== null) return input === regex.literal;
  return run(regex.whole, (regex.groupCount + 1) * 2, input, 0, tick) !== null;
}

/** Successive non-overlapping matches, as java.util.regex.Matcher.find() walks them. */
function* allMatches(regex: CompiledRegex, input: string, tick: Tick): Generator<number[]> {
  let from = 0;
  while (from <= input.length) {
    const slots = searchRegex(regex, input, from, tick);
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
      if (k >= replacement.length) throw invalid(regex.pattern, 'the replacement ends with a backslash');
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
      if (index === undefined) throw invalid(regex.pattern, `no group named ${named[1]}`);
      group = index;
      k += named[0].length;
    } else {
      const digit = replacement[k + 1];
      if (digit === undefined || !/\d/.test(digit)) throw invalid(regex.pattern, "'$' in the replacement must name a group");
      group = Number(digit);
      k++;
      while (k + 1 < replacement.length && /\d/.test(replacement[k + 1]) && group * 10 + Number(replacement[k + 1]) <= regex.groupCount) {
        group = group * 10 + Number(replacement[k + 1]);
        k++;
      }
      if (group > regex.groupCount) throw invalid(regex.pattern, `no group ${group}`);
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
