/**
 * Turns expression text into tokens. Newlines are tokens (they end statements) except inside `(…)` and `[…]`,
 * where Groovy ignores them; this keeps the parser's newline rules to a few places. GStrings are lexed with their
 * `${…}` parts already turned into token lists, so the parser never re-reads text.
 */
import type { NumberLiteral, Position } from './ast';
import { isDigit, isIdentifierPart, isIdentifierStart } from './characters';
import { syntaxFailure } from './errors';
import { MAX_NESTING } from './limits';

interface TokenBase {
  readonly pos: Position;
}

export type Token =
  | (TokenBase & { readonly kind: 'identifier' | 'keyword' | 'operator'; readonly text: string })
  | (TokenBase & { readonly kind: 'number'; readonly literal: NumberLiteral; readonly text: string })
  | (TokenBase & { readonly kind: 'string'; readonly value: string; readonly text: string })
  | (TokenBase & {
      readonly kind: 'gstring';
      readonly strings: readonly string[];
      /** Each interpolated part as its own token list, ending with an `eof` token. */
      readonly parts: readonly (readonly Token[])[];
      readonly text: string;
    })
  | (TokenBase & { readonly kind: 'newline' | 'eof'; readonly text: string });

/** Words the parser gives a meaning to or refuses by name; after a `.` they are plain property names. */
const KEYWORDS: ReadonlySet<string> = new Set([
  'def',
  'var',
  'final',
  'if',
  'else',
  'return',
  'throw',
  'true',
  'false',
  'null',
  'in',
  'as',
  'instanceof',
  'while',
  'for',
  'do',
  'switch',
  'case',
  'default',
  'try',
  'catch',
  'finally',
  'break',
  'continue',
  'class',
  'interface',
  'enum',
  'trait',
  'record',
  'new',
  'import',
  'package',
  'this',
  'super',
  'synchronized',
  'assert',
  'goto',
  'static',
  'abstract',
  'public',
  'private',
  'protected',
  'native',
  'transient',
  'volatile',
  'strictfp',
  'threadsafe',
  'const',
  'yield',
]);

const OPERATORS = [
  '..<',
  '<=>',
  '===',
  '!==',
  '==~',
  '>>>',
  '**=',
  '?.',
  '*.',
  '.&',
  '..',
  '?:',
  '->',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '**',
  '=~',
  '<<',
  '>>',
  '::',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<',
  '>',
  '!',
  '~',
  '&',
  '|',
  '^',
  '?',
  ':',
  ',',
  ';',
  '.',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '@',
];

/** All operators in one sticky pattern, longest first: matching one is a single native regular-expression step. */
const OPERATOR = new RegExp(OPERATORS.map((op) => op.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'y');
const BLANKS = /[ \t\f\u00a0\ufeff]+/y;

const SIMPLE_ESCAPES: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  s: ' ',
  '"': '"',
  "'": "'",
  '\\': '\\',
  $: '$',
};

/** Tokens after which `/` divides; anywhere else it opens a slashy string. */
function endsOperand(token: Token | undefined): boolean {
  if (!token) return false;
  switch (token.kind) {
    case 'identifier':
    case 'number':
    case 'string':
    case 'gstring':
      return true;
    case 'keyword':
      return token.text === 'true' || token.text === 'false' || token.text === 'null' || token.text === 'this';
    case 'operator':
      return token.text === ')' || token.text === ']' || token.text === '}';
    default:
      return false;
  }
}

/** Runs of characters that need no attention inside each kind of string (so long strings are copied at once). */
const PLAIN_RUN: Record<string, RegExp> = {
  "'": /[^'\\\r\n]+/y,
  '"': /[^"\\$\r\n]+/y,
  '/': /[^/\\$\r\n]+/y,
};
const ASCII_IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const UNICODE_IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/uy;

/**
 * One pass over the text. Scanning works on offsets; line and column are computed from the line starts only
 * when a token is made, which keeps the per-character work small (this code often runs cold, when a
 * configuration is validated).
 */
class Lexer {
  private i = 0;
  private interpolationDepth = 0;
  private readonly lineStarts: number[] = [0];

  constructor(private readonly src: string) {
    for (let k = 0; k < src.length; k++) {
      const c = src.charCodeAt(k);
      if (c === 10 || (c === 13 && src.charCodeAt(k + 1) !== 10)) this.lineStarts.push(k + 1);
    }
  }

  private positionAt(offset: number): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low] + 1 };
  }

  private position(): Position {
    return this.positionAt(this.i);
  }

  /** Length of the line break at `offset` (2 for `\r\n`), or 0. */
  private lineBreakAt(offset: number): number {
    const c = this.src[offset];
    if (c === '\n') return 1;
    if (c === '\r') return this.src[offset + 1] === '\n' ? 2 : 1;
    return 0;
  }

  /** Matches a sticky pattern at the cursor and moves past it; returns the text or null. */
  private take(pattern: RegExp): string | null {
    pattern.lastIndex = this.i;
    const match = pattern.exec(this.src);
    if (!match) return null;
    this.i += match[0].length;
    return match[0];
  }

  /**
   * Lexes until the end of the text, or, when `closingBrace` is set, until the `}` that closes an interpolation.
   */
  lex(closingBrace: boolean): Token[] {
    const tokens: Token[] = [];
    const brackets: string[] = closingBrace ? ['{'] : [];
    const push = (token: Token) => {
      if (token.kind === 'newline') {
        const previous = tokens[tokens.length - 1];
        const top = brackets[brackets.length - 1];
        if (top === '(' || top === '[' || !previous || previous.kind === 'newline') return;
      }
      tokens.push(token);
    };
    const lastSignificant = () => {
      for (let k = tokens.length - 1; k >= 0; k--) if (tokens[k].kind !== 'newline') return tokens[k];
      return undefined;
    };

    for (;;) {
      this.take(BLANKS);
      const c = this.src[this.i];
      const pos = this.position();
      if (c === undefined) {
        if (closingBrace) throw syntaxFailure('unterminatedString', 'The string ends inside ${…}.', pos);
        tokens.push({ kind: 'eof', text: '', pos });
        return tokens;
      }
      const lineBreak = this.lineBreakAt(this.i);
      if (lineBreak > 0) {
        this.i += lineBreak;
        push({ kind: 'newline', text: '\n', pos });
        continue;
      }
      if (c === '\\' && this.lineBreakAt(this.i + 1) > 0) {
        // A backslash at the end of a line continues the statement on the next one.
        this.i += 1 + this.lineBreakAt(this.i + 1);
        continue;
      }
      if ((c === '#' && this.i === 0 && this.src[1] === '!') || (c === '/' && this.src[this.i + 1] === '/')) {
        this.skipLineComment();
        continue;
      }
      if (c === '/' && this.src[this.i + 1] === '*') {
        this.skipBlockComment(pos);
        continue;
      }
      if (isDigit(c)) {
        push(this.lexNumber(pos));
        continue;
      }
      if (c === "'" || c === '"') {
        push(this.lexQuoted(c, pos));
        continue;
      }
      if (c === '$' && this.src[this.i + 1] === '/') {
        throw syntaxFailure(
          'unsupportedConstruct',
          'Dollar-slashy strings ($/…/$) are not supported.',
          pos,
          'dollar-slashy string',
        );
      }
      if (c === '/' && !endsOperand(lastSignificant())) {
        push(this.lexSlashy(pos));
        continue;
      }
      if (isIdentifierStart(c)) {
        const text = this.lexIdentifier();
        push({ kind: KEYWORDS.has(text) ? 'keyword' : 'identifier', text, pos });
        continue;
      }
      const op = this.take(OPERATOR);
      if (!op) throw syntaxFailure('unexpectedCharacter', `Unexpected character '${c}'.`, pos, c);
      if (op === '(' || op === '[' || op === '{') brackets.push(op);
      if (op === ')' || op === ']' || op === '}') {
        const open = brackets.pop();
        const expected = op === ')' ? '(' : op === ']' ? '[' : '{';
        if (open !== expected) throw syntaxFailure('unexpectedToken', `Unbalanced '${op}'.`, pos, op);
        if (closingBrace && brackets.length === 0) {
          tokens.push({ kind: 'eof', text: '', pos });
          return tokens;
        }
      }
      push({ kind: 'operator', text: op, pos });
    }
  }

  /** A name: ASCII by a quick pattern, with accented letters by the Unicode one. */
  private lexIdentifier(): string {
    const start = this.i;
    this.take(ASCII_IDENTIFIER);
    if (
      this.i === start ||
      (this.i < this.src.length && this.src.charCodeAt(this.i) >= 128 && isIdentifierPart(this.src[this.i]))
    ) {
      this.i = start;
      this.take(UNICODE_IDENTIFIER);
    }
    return this.src.slice(start, this.i);
  }

  private skipLineComment(): void {
    while (this.i < this.src.length && this.lineBreakAt(this.i) === 0) this.i++;
  }

  private skipBlockComment(pos: Position): void {
    const end = this.src.indexOf('*/', this.i + 2);
    if (end < 0) throw syntaxFailure('unterminatedComment', 'The comment /* … is never closed.', pos);
    this.i = end + 2;
  }

  private lexNumber(pos: Position): Token {
    const start = this.i;
    const src = this.src;
    let form: 'integer' | 'decimal' = 'integer';
    let digits: string;
    const radix = src[this.i] === '0' ? src[this.i + 1]?.toLowerCase() : undefined;
    if (radix === 'x' || radix === 'b') {
      this.i += 2;
      const valid = radix === 'x' ? /[0-9a-fA-F_]/ : /[01_]/;
      const from = this.i;
      while (this.i < src.length && valid.test(src[this.i])) this.i++;
      digits = '0' + radix + src.slice(from, this.i).replaceAll('_', '');
      if (digits.length === 2) throw syntaxFailure('malformedNumber', 'A number has no digits.', pos);
    } else {
      while (isDigit(src[this.i]) || src[this.i] === '_') this.i++;
      if (src[this.i] === '.' && isDigit(src[this.i + 1])) {
        form = 'decimal';
        this.i++;
        while (isDigit(src[this.i]) || src[this.i] === '_') this.i++;
      }
      if (
        (src[this.i] === 'e' || src[this.i] === 'E') &&
        (isDigit(src[this.i + 1]) || ((src[this.i + 1] === '+' || src[this.i + 1] === '-') && isDigit(src[this.i + 2])))
      ) {
        form = 'decimal';
        this.i += 2;
        while (isDigit(src[this.i])) this.i++;
      }
      digits = src.slice(start, this.i).replaceAll('_', '');
      if (form === 'integer' && /^0\d/.test(digits) && /[89]/.test(digits)) {
        throw syntaxFailure('malformedNumber', `'${digits}' is not a valid octal number.`, pos);
      }
    }
    let suffix = '';
    const next = src[this.i];
    if (next !== undefined && /[lLgGiIfFdD]/.test(next)) {
      suffix = next.toLowerCase();
      this.i++;
      const integerOnly = suffix === 'l' || suffix === 'i';
      if ((form === 'decimal' && integerOnly) || ((radix === 'x' || radix === 'b') && !integerOnly && suffix !== 'g')) {
        throw syntaxFailure('malformedNumber', `'${src.slice(start, this.i)}' is not a valid number.`, pos);
      }
    }
    if (this.i < src.length && isIdentifierPart(src[this.i])) {
      throw syntaxFailure('malformedNumber', `'${src.slice(start, this.i + 1)}' is not a valid number.`, pos);
    }
    return {
      kind: 'number',
      literal: { type: 'number', text: digits, form, suffix },
      text: src.slice(start, this.i),
      pos,
    };
  }

  private lexQuoted(quote: string, pos: Position): Token {
    const start = this.i;
    const triple = this.src.startsWith(quote.repeat(3), this.i);
    const interpolating = quote === '"';
    this.i += triple ? 3 : 1;
    const strings: string[] = [];
    const parts: Token[][] = [];
    let current = '';
    for (;;) {
      current += this.take(PLAIN_RUN[quote]) ?? '';
      const c = this.src[this.i];
      if (c === undefined) throw syntaxFailure('unterminatedString', 'The string is never closed.', pos);
      if (triple ? this.src.startsWith(quote.repeat(3), this.i) : c === quote) {
        this.i += triple ? 3 : 1;
        break;
      }
      const lineBreak = this.lineBreakAt(this.i);
      if (lineBreak > 0) {
        if (!triple) throw syntaxFailure('unterminatedString', 'The string is never closed on its line.', pos);
        this.i += lineBreak;
        current += '\n';
        continue;
      }
      if (c === '\\') {
        current += this.lexEscape(triple);
        continue;
      }
      if (interpolating && c === '$') {
        strings.push(current);
        current = '';
        parts.push(this.lexInterpolation());
        continue;
      }
      current += c;
      this.i++;
    }
    strings.push(current);
    const text = this.src.slice(start, this.i);
    if (parts.length === 0) return { kind: 'string', value: strings[0], text, pos };
    return { kind: 'gstring', strings, parts, text, pos };
  }

  private lexEscape(triple: boolean): string {
    const pos = this.position();
    const next = this.src[this.i + 1];
    const lineBreak = this.lineBreakAt(this.i + 1);
    if (triple && lineBreak > 0) {
      this.i += 1 + lineBreak;
      return '';
    }
    if (next !== undefined && next in SIMPLE_ESCAPES) {
      this.i += 2;
      return SIMPLE_ESCAPES[next];
    }
    if (next === 'u') {
      const hex = this.src.slice(this.i + 2, this.i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex))
        throw syntaxFailure('invalidEscape', 'A \\u escape needs four hex digits.', pos);
      this.i += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const octal = /^[0-7]{1,3}/.exec(this.src.slice(this.i + 1, this.i + 4));
    if (octal && parseInt(octal[0], 8) <= 0o377) {
      this.i += 1 + octal[0].length;
      return String.fromCharCode(parseInt(octal[0], 8));
    }
    throw syntaxFailure('invalidEscape', `'\\${next ?? ''}' is not a valid escape.`, pos, `\\${next ?? ''}`);
  }

  /** `${expr}` or `$name.path`, with the `$` under the cursor. */
  private lexInterpolation(): Token[] {
    const pos = this.position();
    if (this.interpolationDepth >= MAX_NESTING)
      throw syntaxFailure('nestingTooDeep', 'Strings are nested too deeply.', pos);
    if (this.src[this.i + 1] === '{') {
      this.i += 2;
      this.interpolationDepth++;
      const tokens = this.lex(true);
      this.interpolationDepth--;
      return tokens;
    }
    if (!isIdentifierStart(this.src[this.i + 1] ?? '') || this.src[this.i + 1] === '$') {
      throw syntaxFailure(
        'unexpectedCharacter',
        "A '$' in a double-quoted string must start ${…} or a name; write \\$ for a dollar sign.",
        pos,
        '$',
      );
    }
    this.i++;
    // `$a.b.c` is the property path a.b.c; the path stops at anything that is not `.name`.
    const tokens: Token[] = [];
    for (;;) {
      const namePos = this.position();
      const start = this.i;
      while (this.i < this.src.length && isIdentifierPart(this.src[this.i]) && this.src[this.i] !== '$') this.i++;
      const text = this.src.slice(start, this.i);
      tokens.push({ kind: KEYWORDS.has(text) && tokens.length === 0 ? 'keyword' : 'identifier', text, pos: namePos });
      if (this.src[this.i] === '.' && isIdentifierStart(this.src[this.i + 1] ?? '') && this.src[this.i + 1] !== '$') {
        tokens.push({ kind: 'operator', text: '.', pos: this.position() });
        this.i++;
        continue;
      }
      tokens.push({ kind: 'eof', text: '', pos: this.position() });
      return tokens;
    }
  }

  /** `/…/`: backslashes stay as written (handy for regular expressions), only `\/` is an escape. */
  private lexSlashy(pos: Position): Token {
    const start = this.i;
    this.i++;
    const strings: string[] = [];
    const parts: Token[][] = [];
    let current = '';
    for (;;) {
      current += this.take(PLAIN_RUN['/']) ?? '';
      const c = this.src[this.i];
      if (c === undefined) throw syntaxFailure('unterminatedString', 'The slashy string /…/ is never closed.', pos);
      if (c === '/') {
        this.i++;
        break;
      }
      if (c === '\\' && this.src[this.i + 1] === '/') {
        current += '/';
        this.i += 2;
        continue;
      }
      if (
        c === '$' &&
        (this.src[this.i + 1] === '{' ||
          (isIdentifierStart(this.src[this.i + 1] ?? '') && this.src[this.i + 1] !== '$'))
      ) {
        strings.push(current);
        current = '';
        parts.push(this.lexInterpolation());
        continue;
      }
      const lineBreak = this.lineBreakAt(this.i);
      current += lineBreak > 0 ? '\n' : c;
      this.i += Math.max(lineBreak, 1);
    }
    strings.push(current);
    const text = this.src.slice(start, this.i);
    if (parts.length === 0) return { kind: 'string', value: strings[0], text, pos };
    return { kind: 'gstring', strings, parts, text, pos };
  }
}

/** Throws `SyntaxFailure` at the first lexical error. */
export function tokenize(source: string): Token[] {
  return new Lexer(source).lex(false);
}
