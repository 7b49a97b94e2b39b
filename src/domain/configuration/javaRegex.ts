/**
 * Java regular expressions (`java.util.regex.Pattern`) checked with Java's rules and translated to an equivalent
 * JavaScript `RegExp`, so that a pattern accepted by the original is accepted here and matches the same texts.
 * Translated: `\Q…\E` quoting, escaped punctuation (`\_`, `\-`), `\A \z \Z`, `\h \v \R`, POSIX and Java classes
 * (`\p{Alpha}`, `\p{javaLowerCase}`), Unicode categories and scripts, nested classes and `&&` intersections,
 * octal and `\x{…}` escapes, inline flags. Approximations, documented because JavaScript has no equivalent:
 * possessive quantifiers and atomic groups behave as greedy ones, and an inline flag in the middle of a pattern
 * applies to the whole pattern.
 */
export interface JavaRegex {
  /** As written in the configuration. */
  readonly source: string;
  /** The JavaScript translation, to be used with {@link flags}. */
  readonly javaScript: string;
  readonly flags: string;
  /** Number of capturing groups (qualifiers of pattern components and file-name scopes are numbered by them). */
  readonly groupCount: number;
}

export type JavaRegexCompilation = { ok: true; regex: JavaRegex } | { ok: false; message: string; index: number };

export function compileJavaRegex(source: string): JavaRegexCompilation {
  try {
    const translator = new Translator(source);
    const javaScript = translator.translate();
    const flags = translator.flags();
    new RegExp(javaScript, flags);
    return { ok: true, regex: { source, javaScript, flags, groupCount: translator.groupCount } };
  } catch (thrown) {
    if (thrown instanceof RegexError) return { ok: false, message: thrown.message, index: thrown.index };
    if (thrown instanceof SyntaxError) return { ok: false, message: thrown.message.replace(/^Invalid regular expression: /, ''), index: -1 };
    throw thrown;
  }
}

/** A RegExp that matches only when the whole text matches, as Java's `Matcher.matches()`. */
export function wholeTextRegExp(regex: JavaRegex): RegExp {
  return new RegExp(`^(?:${regex.javaScript})$`, regex.flags);
}

class RegexError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

const SYNTAX_CHARACTERS = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);

const POSIX_CLASSES: Record<string, string> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\u{0}-\\u{7f}',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '\\u{21}-\\u{2f}\\u{3a}-\\u{40}\\u{5b}-\\u{60}\\u{7b}-\\u{7e}',
  Graph: '\\u{21}-\\u{7e}',
  Print: '\\u{20}-\\u{7e}',
  Blank: ' \\t',
  Cntrl: '\\u{0}-\\u{1f}\\u{7f}',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\u{b}\\f\\r',
  javaLowerCase: '\\p{Ll}',
  javaUpperCase: '\\p{Lu}',
  javaWhitespace: '\\t\\n\\u{b}\\f\\r\\u{1c}-\\u{1f} \\u{1680}\\u{2000}-\\u{2006}\\u{2008}-\\u{200a}\\u{2028}\\u{2029}\\u{205f}\\u{3000}',
  javaMirrored: '\\p{Bidi_M}',
  javaLetter: '\\p{L}',
  javaDigit: '\\p{Nd}',
  javaLetterOrDigit: '\\p{L}\\p{Nd}',
  javaAlphabetic: '\\p{Alphabetic}',
};

const HORIZONTAL_SPACE = ' \\t\\u{a0}\\u{1680}\\u{180e}\\u{2000}-\\u{200a}\\u{202f}\\u{205f}\\u{3000}';
const VERTICAL_SPACE = '\\n\\u{b}\\f\\r\\u{85}\\u{2028}\\u{2029}';

const knownProperties = new Map<string, boolean>();

/** Whether a `\p{…}` body is known to JavaScript (checked once per name by compiling it). */
function javaScriptProperty(name: string): boolean {
  let known = knownProperties.get(name);
  if (known === undefined) {
    try {
      new RegExp(`\\p{${name}}`, 'u');
      known = true;
    } catch {
      known = false;
    }
    knownProperties.set(name, known);
  }
  return known;
}

function literal(character: string, inClass: boolean): string {
  if (/[A-Za-z0-9]/.test(character)) return character;
  if (inClass) return `\\u{${character.codePointAt(0)!.toString(16)}}`;
  if (SYNTAX_CHARACTERS.has(character)) return '\\' + character;
  return character;
}

interface ClassItem {
  /** The item as it goes inside a JavaScript class. */
  text: string;
  /** Single code point, when the item is one (ranges need them on both ends). */
  codePoint?: number;
}

class Translator {
  groupCount = 0;
  private position = 0;
  private caseInsensitive = false;
  private dotAll = false;
  private multiline = false;
  private comments = false;
  private needsSets = false;

  constructor(private readonly source: string) {}

  flags(): string {
    return (this.needsSets ? 'v' : 'u') + (this.caseInsensitive ? 'i' : '') + (this.dotAll ? 's' : '') + (this.multiline ? 'm' : '');
  }

  translate(): string {
    const out = this.alternatives(0);
    if (this.position < this.source.length) throw new RegexError(`Unmatched closing ')'`, this.position - 1);
    return out;
  }

  private error(message: string, index = this.position): RegexError {
    return new RegexError(`${message} near index ${index}`, index);
  }

  /** Reads until an unmatched `)` (left in place) or the end. */
  private alternatives(depth: number): string {
    const source = this.source;
    let out = '';
    let canRepeat = false;
    while (this.position < source.length) {
      const start = this.position;
      const character = source[start];
      if (this.comments && /\s/.test(character)) {
        this.position += 1;
        continue;
      }
      if (this.comments && character === '#') {
        while (this.position < source.length && source[this.position] !== '\n') this.position += 1;
        continue;
      }
      switch (character) {
        case ')':
          if (depth === 0) throw new RegexError(`Unmatched closing ')' near index ${start}`, start);
          return out;
        case '(':
          out += this.group(depth);
          canRepeat = true;
          break;
        case '[':
          this.position += 1;
          out += this.characterClass();
          canRepeat = true;
          break;
        case '\\': {
          const escape = this.escape(false);
          out += escape.text;
          canRepeat = escape.repeatable;
          break;
        }
        case '*':
        case '+':
        case '?':
        case '{': {
          if (!canRepeat) {
            if (character === '{') throw this.error('Illegal repetition');
            throw this.error(`Dangling meta character '${character}'`);
          }
          out += this.quantifier();
          canRepeat = false;
          break;
        }
        case '|':
          this.position += 1;
          out += '|';
          canRepeat = false;
          break;
        case '^':
        case '$':
          this.position += 1;
          out += character;
          canRepeat = false;
          break;
        case '.':
          this.position += 1;
          out += '.';
          canRepeat = true;
          break;
        default: {
          const codePoint = source.codePointAt(start)!;
          const text = String.fromCodePoint(codePoint);
          this.position += text.length;
          out += literal(text, false);
          canRepeat = true;
        }
      }
    }
    if (depth > 0) throw this.error('Unclosed group', source.length);
    return out;
  }

  private quantifier(): string {
    const source = this.source;
    let out: string;
    if (source[this.position] === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(this.position));
      if (!match) throw this.error('Illegal repetition');
      if (match[3] !== undefined && match[3] !== '' && Number(match[3]) < Number(match[1])) throw this.error('Illegal repetition range');
      out = match[0];
      this.position += match[0].length;
    } else {
      out = source[this.position];
      this.position += 1;
    }
    if (source[this.position] === '?') {
      out += '?';
      this.position += 1;
    } else if (source[this.position] === '+') {
      // Possessive: JavaScript has none; greedy is the closest.
      this.position += 1;
    }
    return out;
  }

  private group(depth: number): string {
    const source = this.source;
    const start = this.position;
    this.position += 1;
    let opening = '(';
    if (source[this.position] === '?') {
      const rest = source.slice(this.position + 1);
      const named = /^<([a-zA-Z][a-zA-Z0-9]*)>/.exec(rest);
      if (rest.startsWith(':') || rest.startsWith('=') || rest.startsWith('!')) {
        opening = '(?' + rest[0];
        this.position += 2;
      } else if (rest.startsWith('<=') || rest.startsWith('<!')) {
        opening = '(?' + rest.slice(0, 2);
        this.position += 3;
      } else if (named) {
        opening = `(?<${named[1]}>`;
        this.position += 1 + named[0].length;
        this.groupCount += 1;
      } else if (rest.startsWith('>')) {
        opening = '(?:';
        this.position += 2;
      } else {
        const flags = /^([idmsuxU]*)(?:-([idmsuxU]*))?([:)])/.exec(rest);
        if (!flags) throw new RegexError(`Unknown inline modifier near index ${this.position + 1}`, this.position + 1);
        this.applyFlags(flags[1], true);
        this.applyFlags(flags[2] ?? '', false);
        this.position += 1 + flags[0].length;
        if (flags[3] === ')') return '';
        opening = '(?:';
      }
    } else {
      this.groupCount += 1;
    }
    const inner = this.alternatives(depth + 1);
    if (source[this.position] !== ')') throw new RegexError(`Unclosed group near index ${source.length}`, start);
    this.position += 1;
    return opening + inner + ')';
  }

  private applyFlags(letters: string, on: boolean): void {
    if (!on) return;
    for (const letter of letters) {
      if (letter === 'i') this.caseInsensitive = true;
      else if (letter === 's') this.dotAll = true;
      else if (letter === 'm') this.multiline = true;
      else if (letter === 'x') this.comments = true;
    }
  }

  /** Reads an escape at `position` (a backslash). Inside a class the result is a class item. */
  private escape(inClass: boolean): { text: string; repeatable: boolean; codePoint?: number } {
    const source = this.source;
    const start = this.position;
    const next = source[start + 1];
    if (next === undefined) throw new RegexError(`Unexpected internal error near index ${start + 1}`, start + 1);
    this.position += 2;
    const single = (codePoint: number) => ({ text: literal(String.fromCodePoint(codePoint), inClass), repeatable: true, codePoint });
    switch (next) {
      case 'Q': {
        const end = source.indexOf('\\E', this.position);
        const quoted = source.slice(this.position, end < 0 ? source.length : end);
        this.position = end < 0 ? source.length : end + 2;
        // As in Java, a quantifier after \E applies to the last quoted character only.
        return { text: [...quoted].map((character) => literal(character, inClass)).join(''), repeatable: quoted.length > 0 };
      }
      case 'E':
        return { text: '', repeatable: false };
      case 'd':
      case 'D':
      case 's':
      case 'S':
      case 'w':
      case 'W':
        return { text: '\\' + next, repeatable: true };
      case 'b':
      case 'B':
        if (inClass) throw this.error('Illegal/unsupported escape sequence', start + 1);
        return { text: '\\' + next, repeatable: false };
      case 'A':
      case 'G':
        return { text: '(?<![\\s\\S])', repeatable: false };
      case 'z':
        return { text: '(?![\\s\\S])', repeatable: false };
      case 'Z':
        return { text: '(?=(?:\\r\\n|[\\n\\r\\u{85}\\u{2028}\\u{2029}])?(?![\\s\\S]))', repeatable: false };
      case 'h':
        return { text: inClass ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`, repeatable: true };
      case 'H':
        return this.negatedSet(HORIZONTAL_SPACE, inClass);
      case 'v':
        return { text: inClass ? VERTICAL_SPACE : `[${VERTICAL_SPACE}]`, repeatable: true };
      case 'V':
        return this.negatedSet(VERTICAL_SPACE, inClass);
      case 'R':
        if (inClass) throw this.error('Illegal/unsupported escape sequence', start + 1);
        return { text: '(?:\\r\\n|[\\n\\u{b}\\f\\r\\u{85}\\u{2028}\\u{2029}])', repeatable: true };
      case 'X':
        if (inClass) throw this.error('Illegal/unsupported escape sequence', start + 1);
        return { text: '(?:\\P{M}\\p{M}*)', repeatable: true };
      case 't':
        return single(9);
      case 'n':
        return single(10);
      case 'r':
        return single(13);
      case 'f':
        return single(12);
      case 'a':
        return single(7);
      case 'e':
        return single(27);
      case 'c': {
        const control = source[this.position];
        if (control === undefined) throw this.error('Illegal control escape sequence');
        this.position += 1;
        return single(control.charCodeAt(0) ^ 64);
      }
      case 'x': {
        const braced = /^\{([0-9a-fA-F]+)\}/.exec(source.slice(this.position));
        const plain = /^[0-9a-fA-F]{2}/.exec(source.slice(this.position));
        const digits = braced ? braced[1] : plain?.[0];
        if (!digits || Number.parseInt(digits, 16) > 0x10ffff) throw this.error('Illegal hexadecimal escape sequence');
        this.position += braced ? braced[0].length : 2;
        return single(Number.parseInt(digits, 16));
      }
      case 'u': {
        const digits = /^[0-9a-fA-F]{4}/.exec(source.slice(this.position));
        if (!digits) throw this.error('Illegal Unicode escape sequence');
        this.position += 4;
        return single(Number.parseInt(digits[0], 16));
      }
      case '0': {
        const digits = /^[0-7]{1,3}/.exec(source.slice(this.position));
        if (!digits) throw this.error('Illegal octal escape sequence');
        const octal = digits[0].length === 3 && digits[0][0] > '3' ? digits[0].slice(0, 2) : digits[0];
        this.position += octal.length;
        return single(Number.parseInt(octal, 8));
      }
      case 'k': {
        const name = /^<([a-zA-Z][a-zA-Z0-9]*)>/.exec(source.slice(this.position));
        if (!name || inClass) throw this.error('\\k is not followed by \'<\' for named capturing group');
        this.position += name[0].length;
        return { text: `\\k<${name[1]}>`, repeatable: true };
      }
      case 'p':
      case 'P':
        return this.property(next === 'P', inClass);
      case 'N':
        throw this.error('Illegal/unsupported escape sequence', start + 1);
    }
    if (next >= '1' && next <= '9') {
      if (inClass) throw this.error('Illegal/unsupported escape sequence', start + 1);
      let digits = next;
      while (/[0-9]/.test(source[this.position] ?? '') && Number(digits + source[this.position]) <= this.groupCount) {
        digits += source[this.position];
        this.position += 1;
      }
      return { text: `\\${digits}`, repeatable: true };
    }
    if (/[A-Za-z]/.test(next)) throw this.error('Illegal/unsupported escape sequence', start + 1);
    const codePoint = source.codePointAt(start + 1)!;
    this.position = start + 1 + String.fromCodePoint(codePoint).length;
    return single(codePoint);
  }

  private negatedSet(members: string, inClass: boolean): { text: string; repeatable: boolean } {
    if (!inClass) return { text: `[^${members}]`, repeatable: true };
    this.needsSets = true;
    return { text: `[^${members}]`, repeatable: true };
  }

  private property(negated: boolean, inClass: boolean): { text: string; repeatable: boolean } {
    const source = this.source;
    let name: string;
    if (source[this.position] === '{') {
      const end = source.indexOf('}', this.position);
      if (end < 0) throw this.error('Unclosed character family');
      name = source.slice(this.position + 1, end);
      this.position = end + 1;
    } else {
      name = source[this.position] ?? '';
      this.position += 1;
    }
    const members = this.propertyMembers(name);
    if (members === undefined) throw this.error(`Unknown character property name {${name}}`);
    if (!negated) return { text: inClass ? members : `[${members}]`, repeatable: true };
    if (/^\\p\{[^}]+\}$/.test(members)) return { text: members.replace('\\p', '\\P'), repeatable: true };
    return this.negatedSet(members, inClass);
  }

  /** The class members a Java property name stands for, or undefined when Java would not know it either. */
  private propertyMembers(name: string): string | undefined {
    if (POSIX_CLASSES[name]) return POSIX_CLASSES[name];
    const candidates: string[] = [];
    if (name.startsWith('Is')) {
      const bare = name.slice(2);
      candidates.push(bare, `Script=${bare}`);
    } else if (name.startsWith('In')) {
      candidates.push(`Script=${name.slice(2)}`);
    } else if (name.startsWith('general_category=') || name.startsWith('gc=')) {
      candidates.push(`General_Category=${name.slice(name.indexOf('=') + 1)}`);
    } else if (name.startsWith('script=') || name.startsWith('sc=')) {
      candidates.push(`Script=${name.slice(name.indexOf('=') + 1)}`);
    } else {
      candidates.push(name);
    }
    const found = candidates.find(javaScriptProperty);
    return found === undefined ? undefined : `\\p{${found}}`;
  }

  /** Reads a class after its `[`, up to and including the matching `]`. */
  private characterClass(): string {
    const source = this.source;
    const start = this.position - 1;
    let negated = false;
    if (source[this.position] === '^') {
      negated = true;
      this.position += 1;
    }
    const operands: string[][] = [[]];
    let items = operands[0];
    let previous: ClassItem | undefined;
    for (;;) {
      if (this.position >= source.length) throw new RegexError(`Unclosed character class near index ${source.length - 1}`, start);
      const character = source[this.position];
      if (character === ']' && (items.length > 0 || operands.length > 1)) {
        this.position += 1;
        break;
      }
      if (character === '[') {
        this.position += 1;
        this.needsSets = true;
        items.push(this.characterClass());
        previous = undefined;
        continue;
      }
      if (character === '&' && source[this.position + 1] === '&') {
        this.position += 2;
        this.needsSets = true;
        items = [];
        operands.push(items);
        previous = undefined;
        continue;
      }
      let item: ClassItem;
      if (character === '\\') {
        const escape = this.escape(true);
        item = { text: escape.text, codePoint: escape.codePoint };
      } else {
        const codePoint = source.codePointAt(this.position)!;
        const text = String.fromCodePoint(codePoint);
        this.position += text.length;
        item = { text: literal(text, true), codePoint };
      }
      if (item.text === '') continue;
      if (previous?.codePoint !== undefined && item.codePoint === 45 && character === '-' && source[this.position] !== ']' && source[this.position] !== '[') {
        const rangeStart = previous;
        const end = this.rangeEnd();
        if (end.codePoint === undefined || end.codePoint < rangeStart.codePoint!) throw this.error('Illegal character range');
        items[items.length - 1] = `${rangeStart.text}-${end.text}`;
        previous = undefined;
        continue;
      }
      items.push(item.text);
      previous = item;
    }
    const body = operands.length === 1 ? operands[0].join('') : operands.map((operand) => `[${operand.join('')}]`).join('&&');
    return `[${negated ? '^' : ''}${body}]`;
  }

  private rangeEnd(): ClassItem {
    const source = this.source;
    if (source[this.position] === '\\') {
      const escape = this.escape(true);
      return { text: escape.text, codePoint: escape.codePoint };
    }
    const codePoint = source.codePointAt(this.position)!;
    const text = String.fromCodePoint(codePoint);
    this.position += text.length;
    return { text: literal(text, true), codePoint };
  }
}
