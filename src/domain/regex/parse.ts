/**
 * Reads a Java regular expression (`java.util.regex.Pattern` syntax) into a syntax tree, refusing what Java
 * refuses with Java's messages, and what only a backtracking engine can run (back-references, look-ahead and
 * look-behind, atomic groups, possessive quantifiers): Terrain's engines run in time proportional to the text.
 */
import {
  anyCharacter,
  complement,
  hasOtherCase,
  horizontalSpace,
  ignoringCase,
  intersection,
  isLineTerminator,
  isMark,
  namedClass,
  predefinedClass,
  union,
  verticalSpace,
  type CharTest,
} from './characters';
import { RegexSyntaxError, type Assertion, type ParsedRegex, type RegexNode } from './syntax';

interface Flags {
  caseInsensitive: boolean;
  unicodeCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  comments: boolean;
  unixLines: boolean;
  unicodeClasses: boolean;
}

const FLAG_LETTERS = new Map<string, Array<keyof Flags>>(
  Object.entries({
    i: ['caseInsensitive'],
    u: ['unicodeCase'],
    m: ['multiline'],
    s: ['dotAll'],
    x: ['comments'],
    d: ['unixLines'],
    // As in Java, UNICODE_CHARACTER_CLASS implies UNICODE_CASE.
    U: ['unicodeClasses', 'unicodeCase'],
  } satisfies Record<string, Array<keyof Flags>>),
);

/** `\t`, `\n`, `\r`, `\f`, `\a` (bell), `\e` (escape). */
const CONTROL_ESCAPES = new Map(Object.entries({ t: 9, n: 10, r: 13, f: 12, a: 7, e: 27 }));

/** Groups and classes inside one another: deeper is no real pattern, and would exhaust the stack. */
export const MAX_NESTING = 200;

/** Characters of a pattern: longer is no real pattern, and reading it would cost time and memory at every test. */
export const MAX_PATTERN_LENGTH = 20_000;

const REPETITION_COUNTS = /\{(\d+)(,(\d*))?\}/y;
const GROUP_NAME = /([a-zA-Z][a-zA-Z0-9]*)>/y;
const OCTAL_DIGITS = /[0-7]{1,3}/y;
const BRACED_HEXADECIMAL = /\{([0-9a-fA-F]+)\}/y;
const TWO_HEXADECIMAL_DIGITS = /[0-9a-fA-F]{2}/y;
const FOUR_HEXADECIMAL_DIGITS = /[0-9a-fA-F]{4}/y;

/** Why a construct is refused although Java accepts it. */
const NEEDS_BACKTRACKING = 'needs a backtracking engine, whose running time can explode; Terrain refuses it';

export function parseJavaRegex(source: string): ParsedRegex {
  if (source.length > MAX_PATTERN_LENGTH)
    throw new RegexSyntaxError(
      `The pattern is longer than ${MAX_PATTERN_LENGTH.toLocaleString('en')} characters`,
      MAX_PATTERN_LENGTH,
    );
  const parser = new Parser(source);
  const node = parser.parse();
  return { node, groupCount: parser.groupCount, groupNames: parser.groupNames };
}

/** A class escape: one code point (usable as a range end) or a set. */
type ClassItem = { codePoint: number } | { test: CharTest } | { quoted: number[] };

const codePointTest =
  (codePoint: number): CharTest =>
  (c) =>
    c === codePoint;

class Parser {
  groupCount = 0;
  readonly groupNames = new Map<string, number>();
  private i = 0;
  private flags: Flags = {
    caseInsensitive: false,
    unicodeCase: false,
    multiline: false,
    dotAll: false,
    comments: false,
    unixLines: false,
    unicodeClasses: false,
  };

  constructor(private readonly source: string) {}

  parse(): RegexNode {
    // A `)` without its `(` stops the top-level sequence with an error, so the whole pattern is read here.
    return this.alternation(0);
  }

  private error(description: string, index = this.i): RegexSyntaxError {
    return new RegexSyntaxError(description, index);
  }

  /** A sticky pattern read at `at`. */
  private readAt(pattern: RegExp, at = this.i): RegExpExecArray | null {
    pattern.lastIndex = at;
    return pattern.exec(this.source);
  }

  private refuse(construct: string, index: number): RegexSyntaxError {
    return new RegexSyntaxError(`${construct} ${NEEDS_BACKTRACKING}`, index);
  }

  /** In COMMENTS mode (`(?x)`), white space and `#` comments between items are ignored. */
  private skipComments(): void {
    if (!this.flags.comments) return;
    const source = this.source;
    while (this.i < source.length) {
      const c = source.charCodeAt(this.i);
      if (c === 32 || (c >= 9 && c <= 13)) this.i += 1;
      else if (c === 35) {
        while (this.i < source.length && !isLineTerminator(source.charCodeAt(this.i))) this.i += 1;
      } else return;
    }
  }

  private alternation(depth: number): RegexNode {
    const options = [this.sequence(depth)];
    while (this.source[this.i] === '|') {
      this.i += 1;
      options.push(this.sequence(depth));
    }
    return options.length === 1 ? options[0] : { kind: 'alternation', options };
  }

  private sequence(depth: number): RegexNode {
    const items: RegexNode[] = [];
    for (;;) {
      this.skipComments();
      const c = this.source[this.i];
      if (c === undefined || c === '|') break;
      if (c === ')') {
        if (depth === 0) throw this.error("Unmatched closing ')'");
        break;
      }
      const atom = this.atom(items, depth);
      if (atom !== null) items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0] : { kind: 'sequence', items };
  }

  private quantified(atom: RegexNode): RegexNode {
    this.skipComments();
    const source = this.source;
    const at = this.i;
    const c = source[at];
    let min: number;
    let max: number;
    let length = 1;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const counts = this.readAt(REPETITION_COUNTS, at);
      if (!counts) throw this.error('Illegal repetition');
      min = Number(counts[1]);
      max = counts[2] === undefined ? min : counts[3] === '' ? Infinity : Number(counts[3]);
      if (max < min) throw this.error('Illegal repetition range');
      length = counts[0].length;
    } else return atom;
    if (atom.kind === 'assertion') throw this.error(`Dangling meta character '${c}'`);
    this.i += length;
    let greedy = true;
    if (source[this.i] === '?') {
      greedy = false;
      this.i += 1;
    } else if (source[this.i] === '+') {
      throw this.refuse('A possessive quantifier', this.i);
    }
    return { kind: 'repeat', body: atom, min, max, greedy };
  }

  /** The next atom; quoted text (`\Q…\E`) pushes all its characters but the last, which a quantifier repeats. */
  private atom(items: RegexNode[], depth: number): RegexNode | null {
    const c = this.source[this.i];
    switch (c) {
      case '(':
        return this.group(depth);
      case '[':
        return { kind: 'char', test: this.characterClass(depth) };
      case '.':
        this.i += 1;
        return { kind: 'char', test: this.dot() };
      case '^':
        this.i += 1;
        return this.assertion(
          this.flags.multiline ? { kind: 'lineStart', unixLines: this.flags.unixLines } : { kind: 'inputStart' },
        );
      case '$':
        this.i += 1;
        return this.assertion({ kind: 'lineEnd', multiline: this.flags.multiline, unixLines: this.flags.unixLines });
      case '\\':
        return this.escapeAtom(items);
      case '*':
      case '+':
      case '?':
        throw this.error(`Dangling meta character '${c}'`);
      case '{':
        throw this.error('Illegal repetition');
      default: {
        const codePoint = this.source.codePointAt(this.i)!;
        this.i += codePoint > 0xffff ? 2 : 1;
        return this.literal(codePoint);
      }
    }
  }

  private assertion(assertion: Assertion): RegexNode {
    return { kind: 'assertion', assertion };
  }

  private dot(): CharTest {
    if (this.flags.dotAll) return anyCharacter;
    if (this.flags.unixLines) return (c) => c !== 10;
    return (c) => !isLineTerminator(c);
  }

  private literal(codePoint: number): RegexNode {
    const { caseInsensitive, unicodeCase } = this.flags;
    if (caseInsensitive && hasOtherCase(codePoint, unicodeCase))
      return { kind: 'char', test: ignoringCase(codePointTest(codePoint), unicodeCase) };
    return { kind: 'char', test: codePointTest(codePoint), literal: codePoint };
  }

  /** A set under the current flags (case-insensitive ones compare both cases). */
  private caseAware(test: CharTest): CharTest {
    return this.flags.caseInsensitive ? ignoringCase(test, this.flags.unicodeCase) : test;
  }

  private nestingAllowed(depth: number): void {
    if (depth >= MAX_NESTING) throw this.error(`Groups and classes are nested more than ${MAX_NESTING} deep`);
  }

  private group(depth: number): RegexNode | null {
    this.nestingAllowed(depth);
    const source = this.source;
    const open = this.i;
    this.i += 1;
    const saved = { ...this.flags };
    let capture: number | null = null;
    if (source[this.i] === '?') {
      const kind = source[this.i + 1];
      if (kind === ':') {
        this.i += 2;
      } else if (kind === '=' || kind === '!') {
        throw this.refuse('A look-ahead', open);
      } else if (kind === '<' && (source[this.i + 2] === '=' || source[this.i + 2] === '!')) {
        throw this.refuse('A look-behind', open);
      } else if (kind === '<') {
        const name = this.readAt(GROUP_NAME, this.i + 2);
        if (!name)
          throw this.error(
            'capturing group name does not start with a Latin letter or is missing its closing >',
            this.i + 2,
          );
        if (this.groupNames.has(name[1]))
          throw this.error(`Named capturing group <${name[1]}> is already defined`, this.i + 2);
        capture = ++this.groupCount;
        this.groupNames.set(name[1], capture);
        this.i += 2 + name[0].length;
      } else if (kind === '>') {
        throw this.refuse('An atomic group', open);
      } else if (this.inlineFlags()) {
        return null;
      }
    } else {
      capture = ++this.groupCount;
    }
    const body = this.alternation(depth + 1);
    if (source[this.i] !== ')') throw this.error('Unclosed group', source.length);
    this.i += 1;
    this.flags = saved;
    return { kind: 'group', body, capture };
  }

  /**
   * `(?idmsuxU-idmsuxU)` changes the flags until the end of the enclosing group (true is returned: nothing more to
   * read); `(?idmsuxU-idmsuxU:` changes them for the group it opens.
   */
  private inlineFlags(): boolean {
    let on = true;
    for (let at = this.i + 1; at < this.source.length; at += 1) {
      const letter = this.source[at];
      if (letter === ')' || letter === ':') {
        this.i = at + 1;
        return letter === ')';
      }
      if (letter === '-' && on) {
        on = false;
        continue;
      }
      const names = FLAG_LETTERS.get(letter);
      if (!names)
        throw this.error(
          letter === 'c' ? 'Canonical equivalence (?c) is not supported' : 'Unknown inline modifier',
          at,
        );
      for (const name of names) this.flags[name] = on;
    }
    throw this.error('Unknown inline modifier', this.source.length);
  }

  /** An escape outside a class, the backslash under the cursor. */
  private escapeAtom(items: RegexNode[]): RegexNode | null {
    const source = this.source;
    const start = this.i;
    const letter = source[start + 1];
    switch (letter) {
      case undefined:
        throw this.error('Unexpected internal error', start + 1);
      case 'Q': {
        const quoted = this.quoted();
        if (quoted.length === 0) return null;
        // As in Java, a quantifier after \E repeats the last quoted character only.
        for (const codePoint of quoted.slice(0, -1)) items.push(this.literal(codePoint));
        return this.literal(quoted[quoted.length - 1]);
      }
      case 'E':
        this.i += 2;
        return null;
      case 'b':
      case 'B':
        if (source[start + 2] === '{') throw this.error('Boundaries such as \\b{g} are not supported', start + 2);
        this.i += 2;
        return this.assertion({ kind: 'wordBoundary', negated: letter === 'B', unicode: this.flags.unicodeClasses });
      case 'A':
        this.i += 2;
        return this.assertion({ kind: 'inputStart' });
      case 'G':
        this.i += 2;
        return this.assertion({ kind: 'searchStart' });
      case 'z':
        this.i += 2;
        return this.assertion({ kind: 'inputEnd' });
      case 'Z':
        this.i += 2;
        return this.assertion({ kind: 'lineEnd', multiline: false, unixLines: this.flags.unixLines });
      case 'R':
        this.i += 2;
        return this.linebreak();
      case 'X':
        this.i += 2;
        // A grapheme cluster, approximated as a character and the marks combining with it.
        return {
          kind: 'group',
          capture: null,
          body: {
            kind: 'sequence',
            items: [
              { kind: 'char', test: complement(isMark) },
              { kind: 'repeat', body: { kind: 'char', test: isMark }, min: 0, max: Infinity, greedy: true },
            ],
          },
        };
      case 'k':
        throw this.refuse('A back-reference', start);
    }
    if (letter >= '1' && letter <= '9') throw this.refuse('A back-reference', start);
    const item = this.characterEscape(false);
    return 'test' in item ? { kind: 'char', test: item.test } : this.literal(item.codePoint);
  }

  /** `\R`: `\r\n` or one vertical space character. */
  private linebreak(): RegexNode {
    const crlf: RegexNode = {
      kind: 'sequence',
      items: [
        { kind: 'char', test: codePointTest(13), literal: 13 },
        { kind: 'char', test: codePointTest(10), literal: 10 },
      ],
    };
    return {
      kind: 'group',
      capture: null,
      body: { kind: 'alternation', options: [crlf, { kind: 'char', test: verticalSpace }] },
    };
  }

  /** `\Q…\E` with the cursor on the backslash: the quoted code points (up to the end when `\E` is missing). */
  private quoted(): number[] {
    const from = this.i + 2;
    const end = this.source.indexOf('\\E', from);
    const text = this.source.slice(from, end < 0 ? undefined : end);
    this.i = end < 0 ? this.source.length : end + 2;
    return [...text].map((character) => character.codePointAt(0)!);
  }

  /** An escape standing for characters (inside or outside a class), the backslash under the cursor. */
  private characterEscape(inClass: boolean): { codePoint: number } | { test: CharTest } {
    const source = this.source;
    const start = this.i;
    const letter = source[start + 1];
    if (letter === undefined) throw this.error('Unexpected internal error', start + 1);
    this.i += 2;
    const unicode = this.flags.unicodeClasses;
    switch (letter) {
      case 'd':
      case 'w':
      case 's':
        return { test: predefinedClass(letter, unicode) };
      case 'D':
      case 'W':
      case 'S':
        return { test: complement(predefinedClass(letter.toLowerCase() as 'd' | 'w' | 's', unicode)) };
      case 'h':
        return { test: horizontalSpace };
      case 'H':
        return { test: complement(horizontalSpace) };
      case 'v':
        return { test: verticalSpace };
      case 'V':
        return { test: complement(verticalSpace) };
      case 'p':
      case 'P':
        return { test: this.property(letter === 'P') };
      case 'c': {
        const control = source[this.i];
        if (control === undefined) throw this.error('Illegal control escape sequence');
        this.i += 1;
        return { codePoint: control.charCodeAt(0) ^ 64 };
      }
      case 'x':
        return { codePoint: this.hexadecimal() };
      case 'u':
        return { codePoint: this.unicodeEscape() };
      case '0': {
        const digits = this.readAt(OCTAL_DIGITS);
        if (!digits) throw this.error('Illegal octal escape sequence');
        const octal = digits[0].length === 3 && digits[0][0] > '3' ? digits[0].slice(0, 2) : digits[0];
        this.i += octal.length;
        return { codePoint: Number.parseInt(octal, 8) };
      }
    }
    const control = CONTROL_ESCAPES.get(letter);
    if (control !== undefined) return { codePoint: control };
    if (/[a-zA-Z]/.test(letter) || (inClass && /[1-9]/.test(letter)))
      throw this.error('Illegal/unsupported escape sequence', start + 1);
    const codePoint = source.codePointAt(start + 1)!;
    this.i = start + 1 + (codePoint > 0xffff ? 2 : 1);
    return { codePoint };
  }

  private hexadecimal(): number {
    const braced = this.readAt(BRACED_HEXADECIMAL);
    const digits = braced ? braced[1] : this.readAt(TWO_HEXADECIMAL_DIGITS)?.[0];
    if (!digits || Number.parseInt(digits, 16) > 0x10ffff) throw this.error('Illegal hexadecimal escape sequence');
    this.i += braced ? braced[0].length : 2;
    return Number.parseInt(digits, 16);
  }

  /** `\uXXXX`; two escapes forming a surrogate pair give one code point, as in Java. */
  private unicodeEscape(): number {
    const read = (at: number) => {
      const digits = this.readAt(FOUR_HEXADECIMAL_DIGITS, at);
      return digits ? Number.parseInt(digits[0], 16) : undefined;
    };
    const unit = read(this.i);
    if (unit === undefined) throw this.error('Illegal Unicode escape sequence');
    this.i += 4;
    if (unit >= 0xd800 && unit <= 0xdbff && this.source.startsWith('\\u', this.i)) {
      const low = read(this.i + 2);
      if (low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
        this.i += 6;
        return (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      }
    }
    return unit;
  }

  /** `\p{…}` / `\P{…}` (or `\pL`), the cursor after the letter. */
  private property(negated: boolean): CharTest {
    const source = this.source;
    let name: string;
    if (source[this.i] === '{') {
      const end = source.indexOf('}', this.i);
      if (end < 0) throw this.error('Unclosed character family');
      name = source.slice(this.i + 1, end);
      this.i = end + 1;
    } else {
      name = source[this.i] ?? '';
      this.i += 1;
    }
    const test = namedClass(name, this.flags.unicodeClasses);
    if (!test) throw this.error(`Unknown character property name {${name}}`);
    const aware = this.caseAware(test);
    return negated ? complement(aware) : aware;
  }

  /**
   * A class, `[` under the cursor, up to its `]`: members, ranges, nested classes (union) and `&&`
   * (intersection with what follows); `^` negates the whole class. A `]` right after `[` or `[^` is a member.
   */
  private characterClass(depth: number): CharTest {
    this.nestingAllowed(depth);
    const source = this.source;
    this.i += 1;
    let negated = false;
    if (source[this.i] === '^') {
      negated = true;
      this.i += 1;
    }
    const operands: CharTest[] = [];
    let members = new ClassMembers();
    let first = true;
    for (;;) {
      this.skipComments();
      const c = source[this.i];
      if (c === undefined) throw this.error('Unclosed character class', source.length - 1);
      if (c === ']' && !first) {
        this.i += 1;
        break;
      }
      first = false;
      if (c === '[') {
        members.nested.push(this.characterClass(depth + 1));
        continue;
      }
      if (c === '&' && source[this.i + 1] === '&') {
        this.i += 2;
        if (!members.isEmpty()) operands.push(members.test(this.flags));
        members = new ClassMembers();
        continue;
      }
      const item = this.classItem();
      if ('test' in item) {
        members.nested.push(item.test);
        continue;
      }
      if ('quoted' in item) {
        for (const codePoint of item.quoted) members.addRange(codePoint, codePoint);
        continue;
      }
      if (
        source[this.i] === '-' &&
        source[this.i + 1] !== ']' &&
        source[this.i + 1] !== '[' &&
        this.i + 1 < source.length
      ) {
        this.i += 1;
        const end = this.classItem();
        if (!('codePoint' in end) || end.codePoint < item.codePoint)
          throw this.error('Illegal character range', this.i - 1);
        members.addRange(item.codePoint, end.codePoint);
        continue;
      }
      members.addRange(item.codePoint, item.codePoint);
    }
    if (!members.isEmpty() || operands.length === 0) operands.push(members.test(this.flags));
    const test = operands.length === 1 ? operands[0] : intersection(operands);
    return negated ? complement(test) : test;
  }

  private classItem(): ClassItem {
    const source = this.source;
    if (source[this.i] === '\\') {
      const letter = source[this.i + 1];
      if (letter === 'Q') return { quoted: this.quoted() };
      if (letter === 'b' || letter === 'B' || letter === 'R' || letter === 'X' || letter === 'k')
        throw this.error('Illegal/unsupported escape sequence', this.i + 1);
      return this.characterEscape(true);
    }
    const codePoint = source.codePointAt(this.i)!;
    this.i += codePoint > 0xffff ? 2 : 1;
    return { codePoint };
  }
}

/** The members of one operand of a class: code-point ranges (compared with case folding when asked) and sets. */
class ClassMembers {
  private readonly ranges: number[] = [];
  /** Nested classes and escapes such as `\p{…}`, whose case handling is already decided. */
  readonly nested: CharTest[] = [];

  addRange(low: number, high: number): void {
    this.ranges.push(low, high);
  }

  isEmpty(): boolean {
    return this.ranges.length === 0 && this.nested.length === 0;
  }

  test(flags: Flags): CharTest {
    const ranges = this.ranges;
    const tests = [...this.nested];
    if (ranges.length > 0) {
      const inRanges: CharTest = (c) => {
        for (let k = 0; k < ranges.length; k += 2) if (c >= ranges[k] && c <= ranges[k + 1]) return true;
        return false;
      };
      tests.unshift(flags.caseInsensitive ? ignoringCase(inRanges, flags.unicodeCase) : inRanges);
    }
    return tests.length === 1 ? tests[0] : union(tests);
  }
}
