import { mapNode, type ConfigNode, type MapEntry, type SourceText } from './configNode';
import { YAML_LIMITS } from './yamlLimits';

/**
 * A one-pass reader for the YAML that configurations are written in: block maps and lists, flow maps and lists,
 * plain, quoted and block scalars, comments. The `yaml` package reads about 1 MB a second here, which made it most
 * of a configuration's validation time; this reader is several times faster on the same text.
 *
 * It never decides anything the `yaml` package would decide differently: on anything outside that subset
 * (anchors, aliases, tags, directives, several documents, tabs, complex keys…) and on anything that looks wrong, it
 * gives up and returns `undefined`, and the `yaml` package reads the text, errors and positions included. The
 * differential tests beside it hold the two readers to the same trees.
 */
export function readCommonYaml(text: string, source: SourceText): { root: ConfigNode | null } | undefined {
  if (UNSUPPORTED.test(text)) return undefined;
  try {
    return { root: new CommonYamlReader(text, source).readDocument() };
  } catch (thrown) {
    if (thrown === GIVE_UP) return undefined;
    throw thrown;
  }
}

/** Characters and line starts this reader leaves to the full parser (tabs, control characters, markers…). */
const UNSUPPORTED =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|\r(?!\n)|^(?:---|\.\.\.)(?:[ \r\n]|$)|^%/m;

const GIVE_UP = Symbol('give up');

function giveUp(): never {
  throw GIVE_UP;
}

const FLOW_INDICATORS = ',[]{}';
/** Characters that cannot start a plain scalar (`-`, `?` and `:` can, when followed by a non-space). */
const NOT_PLAIN_START = ',[]{}#&*!|>\'"%@`';
const MAX_IMPLICIT_KEY = 1024;

interface ScannedKey {
  text: string;
  /** Type and value of the key as a scalar: the full parser calls `1` and `01`, or `~` and `null`, the same key. */
  identity: string;
  offset: number;
  /** Position just after the `:`. */
  next: number;
}

/** The keys of one map; a repeated key, as text or as value, is left to the full parser to report. */
class DistinctKeys {
  private readonly texts = new Set<string>();
  private readonly identities = new Set<string>();

  add(key: ScannedKey): ScannedKey {
    if (this.texts.has(key.text) || this.identities.has(key.identity)) giveUp();
    this.texts.add(key.text);
    this.identities.add(key.identity);
    return key;
  }
}

class CommonYamlReader {
  private pos = 0;
  /** Indentation of the line the reader stands on after a block node, or -1 at the end of the text. */
  private lineIndent = -1;
  private nodes = 0;

  constructor(
    private readonly text: string,
    private readonly source: SourceText,
  ) {}

  readDocument(): ConfigNode | null {
    this.contentLineFrom(0);
    if (this.lineIndent < 0) return null;
    if (this.lineIndent !== 0) giveUp();
    const root = this.blockNode(-1, 0);
    if (this.lineIndent >= 0) giveUp();
    return root;
  }

  /** A node starting at `pos` in block context, whose parent is indented by `parentIndent`. */
  private blockNode(parentIndent: number, depth: number): ConfigNode {
    this.count(depth);
    const column = this.columnOf(this.pos);
    const char = this.text[this.pos];
    if (this.isSequenceDash(this.pos)) return this.blockSequence(column, depth);
    if (char === '|' || char === '>') return this.blockScalar(parentIndent);
    if (this.scanKey(this.pos)) return this.blockMap(column, depth);
    return this.valueToLineEnd(parentIndent, depth);
  }

  private blockMap(indent: number, depth: number): ConfigNode {
    const offset = this.pos;
    const entries: MapEntry[] = [];
    const keys = new DistinctKeys();
    for (;;) {
      const key = keys.add(this.scanKey(this.pos) ?? giveUp());
      this.pos = key.next;
      entries.push({ key: key.text, keyOffset: key.offset, value: this.mapValue(indent, depth + 1) });
      if (this.lineIndent < indent) break;
      if (this.lineIndent > indent) giveUp();
    }
    return mapNode(this.source, offset, entries);
  }

  /** The value after a block map's `:`, on the same line or on the lines below. */
  private mapValue(mapIndent: number, depth: number): ConfigNode {
    this.skipSpaces();
    const char = this.text[this.pos];
    if (this.isLineEnd(this.pos) || char === '#') {
      const emptyOffset = this.pos;
      this.endOfLine();
      this.nextContentLine();
      if (this.lineIndent > mapIndent) return this.blockNode(mapIndent, depth);
      if (this.lineIndent === mapIndent && this.isSequenceDash(this.pos)) return this.blockSequence(mapIndent, depth);
      return this.nullAt(emptyOffset);
    }
    if (char === '|' || char === '>') return this.blockScalar(mapIndent);
    if (this.isSequenceDash(this.pos)) giveUp();
    return this.valueToLineEnd(mapIndent, depth);
  }

  /** A value that ends its line (a comment may follow), the reader then moved to the next line with content. */
  private valueToLineEnd(parentIndent: number, depth: number): ConfigNode {
    const node = this.inlineValue(parentIndent, depth);
    this.endOfLine();
    this.nextContentLine();
    return node;
  }

  private blockSequence(indent: number, depth: number): ConfigNode {
    const offset = this.pos;
    const items: ConfigNode[] = [];
    for (;;) {
      this.pos += 1;
      this.skipSpaces();
      if (this.isLineEnd(this.pos) || this.text[this.pos] === '#') {
        const emptyOffset = this.pos;
        this.endOfLine();
        this.nextContentLine();
        items.push(this.lineIndent > indent ? this.blockNode(indent, depth + 1) : this.nullAt(emptyOffset));
      } else {
        items.push(this.blockNode(indent, depth + 1));
      }
      if (this.lineIndent < indent) break;
      if (this.lineIndent > indent) giveUp();
      if (!this.isSequenceDash(this.pos)) break;
    }
    return { kind: 'list', source: this.source, offset, items };
  }

  /** A quoted, flow or plain scalar or a flow collection starting on the current line. */
  private inlineValue(parentIndent: number, depth: number): ConfigNode {
    const char = this.text[this.pos];
    if (char === '"' || char === "'") return this.quoted(parentIndent, false);
    if (char === '[' || char === '{') return this.flowCollection(parentIndent, depth);
    return this.blockPlain(parentIndent);
  }

  /** A plain scalar in block context; it may go on over more indented lines, which fold into spaces. */
  private blockPlain(parentIndent: number): ConfigNode {
    const offset = this.pos;
    if (!this.canStartPlain(offset, false)) giveUp();
    const first = this.scanPlainLine(offset, false);
    if (this.text[first.stop] === ':') giveUp();
    let value = this.text.slice(offset, first.end);
    this.pos = first.stop;
    if (this.text[this.pos] === '#') return this.plainScalar(value, offset);

    for (;;) {
      let cursor = this.afterLineBreak(this.pos);
      if (cursor < 0) break;
      let breaks = 1;
      let indent = this.indentAt(cursor);
      while (this.isLineEnd(cursor + indent) && cursor + indent < this.text.length) {
        cursor = this.afterLineBreak(cursor + indent);
        breaks += 1;
        indent = this.indentAt(cursor);
      }
      const start = cursor + indent;
      if (start >= this.text.length || indent <= parentIndent || this.text[start] === '#') break;
      if (
        !this.canStartPlain(start, false) ||
        this.text[start] === '-' ||
        this.text[start] === '?' ||
        this.text[start] === ':'
      )
        giveUp();
      const line = this.scanPlainLine(start, false);
      if (!this.isLineEnd(line.stop)) giveUp();
      value += (breaks === 1 ? ' ' : '\n'.repeat(breaks - 1)) + this.text.slice(start, line.end);
      this.pos = line.stop;
    }
    return this.plainScalar(value, offset);
  }

  private blockScalar(parentIndent: number): ConfigNode {
    this.count();
    const offset = this.pos;
    const folded = this.text[this.pos] === '>';
    this.pos += 1;
    let chomping: 'clip' | 'strip' | 'keep' = 'clip';
    if (this.text[this.pos] === '-') chomping = 'strip';
    else if (this.text[this.pos] === '+') chomping = 'keep';
    if (chomping !== 'clip') this.pos += 1;
    if (!this.isBlankOrEnd(this.pos)) giveUp();
    this.endOfLine();

    const lines: string[] = [];
    let contentIndent = -1;
    let widestLeadingBlank = 0;
    let cursor = this.afterLineBreak(this.pos);
    while (cursor >= 0 && cursor < this.text.length) {
      const indent = this.indentAt(cursor);
      if (this.isLineEnd(cursor + indent)) {
        if (contentIndent < 0) widestLeadingBlank = Math.max(widestLeadingBlank, indent);
        else if (indent > contentIndent) giveUp();
        lines.push('');
      } else {
        if (contentIndent < 0) {
          if (indent <= parentIndent) break;
          contentIndent = indent;
          if (widestLeadingBlank > contentIndent) giveUp();
        } else if (indent < contentIndent) break;
        lines.push(this.text.slice(cursor + contentIndent, this.lineEndAt(cursor)));
      }
      cursor = this.afterLineBreak(cursor);
    }
    if (contentIndent < 0 && lines.length > 0) giveUp();

    let trailing = 0;
    while (trailing < lines.length && lines[lines.length - 1 - trailing] === '') trailing += 1;
    const content = lines.slice(0, lines.length - trailing);
    let value = folded ? foldLines(content) : content.join('\n');
    if (content.length > 0) {
      if (chomping === 'clip') value += '\n';
      else if (chomping === 'keep') value += '\n'.repeat(trailing + 1);
    } else if (chomping === 'keep') giveUp();

    this.contentLineFrom(cursor);
    return { kind: 'scalar', source: this.source, offset, type: 'string', value, text: value };
  }

  private flowCollection(parentIndent: number, depth: number): ConfigNode {
    this.count(depth);
    const offset = this.pos;
    const isMap = this.text[this.pos] === '{';
    const close = isMap ? '}' : ']';
    this.pos += 1;
    const items: ConfigNode[] = [];
    const entries: MapEntry[] = [];
    const keys = new DistinctKeys();
    for (;;) {
      this.skipFlowSpace(parentIndent);
      if (this.text[this.pos] === close && items.length === 0 && entries.length === 0) {
        this.pos += 1;
        break;
      }
      if (isMap) {
        const key = keys.add(this.flowKey(parentIndent));
        this.pos = key.next;
        this.skipFlowSpace(parentIndent);
        entries.push({ key: key.text, keyOffset: key.offset, value: this.flowNode(parentIndent, depth + 1) });
      } else {
        items.push(this.flowNode(parentIndent, depth + 1));
      }
      this.skipFlowSpace(parentIndent);
      const separator = this.text[this.pos];
      this.pos += 1;
      if (separator === close) break;
      if (separator !== ',') giveUp();
      this.skipFlowSpace(parentIndent);
      if (this.text[this.pos] === close) giveUp();
    }
    return isMap ? mapNode(this.source, offset, entries) : { kind: 'list', source: this.source, offset, items };
  }

  private flowKey(parentIndent: number): ScannedKey {
    const offset = this.pos;
    const char = this.text[offset];
    if (char === '"' || char === "'") {
      const key = this.quoted(parentIndent, true);
      if (this.text[this.pos] !== ':') giveUp();
      return {
        text: String(key.kind === 'scalar' ? key.value : ''),
        identity: `string:${String(key.kind === 'scalar' ? key.value : '')}`,
        offset,
        next: this.pos + 1,
      };
    }
    if (!this.canStartPlain(offset, true)) giveUp();
    const line = this.scanPlainLine(offset, true);
    if (this.text[line.stop] !== ':') giveUp();
    const text = this.text.slice(offset, line.end);
    return { text, identity: identityOf(text), offset, next: line.stop + 1 };
  }

  private flowNode(parentIndent: number, depth: number): ConfigNode {
    const char = this.text[this.pos];
    if (char === '[' || char === '{') return this.flowCollection(parentIndent, depth);
    if (char === '"' || char === "'") return this.quoted(parentIndent, false);
    const offset = this.pos;
    if (!this.canStartPlain(offset, true)) giveUp();
    const line = this.scanPlainLine(offset, true);
    if (this.text[line.stop] === ':') giveUp();
    this.pos = line.stop;
    return this.plainScalar(this.text.slice(offset, line.end), offset);
  }

  /** Spaces, line breaks and comments between the parts of a flow collection. */
  private skipFlowSpace(parentIndent: number): void {
    for (;;) {
      this.skipSpaces();
      const char = this.text[this.pos];
      if (char === '#') {
        if (this.text[this.pos - 1] !== ' ' && this.text[this.pos - 1] !== '\n') giveUp();
        this.pos = this.lineEndAt(this.pos);
      }
      if (this.pos >= this.text.length) giveUp();
      if (!this.isLineEnd(this.pos)) return;
      this.pos = this.afterLineBreak(this.pos);
      if (this.pos < 0) giveUp();
      const indent = this.indentAt(this.pos);
      if (!this.isLineEnd(this.pos + indent) && indent <= parentIndent) giveUp();
    }
  }

  /** A single- or double-quoted scalar; a key must stay on one line. */
  private quoted(parentIndent: number, asKey: boolean): ConfigNode {
    this.count();
    const offset = this.pos;
    const quote = this.text[offset];
    let value = '';
    let spaces = '';
    let cursor = offset + 1;
    for (;;) {
      if (cursor >= this.text.length) giveUp();
      const char = this.text[cursor];
      if (char === quote) {
        if (quote === "'" && this.text[cursor + 1] === "'") {
          value += spaces + "'";
          spaces = '';
          cursor += 2;
          continue;
        }
        value += spaces;
        cursor += 1;
        break;
      }
      if (char === ' ') {
        spaces += ' ';
        cursor += 1;
        continue;
      }
      if (this.isLineEnd(cursor)) {
        if (asKey) giveUp();
        let breaks = 0;
        while (this.isLineEnd(cursor)) {
          cursor = this.afterLineBreak(cursor);
          if (cursor < 0) giveUp();
          breaks += 1;
          const indent = this.indentAt(cursor);
          if (!this.isLineEnd(cursor + indent) && indent <= parentIndent) giveUp();
          cursor += indent;
        }
        value += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
        spaces = '';
        continue;
      }
      value += spaces;
      spaces = '';
      if (quote === '"' && char === '\\') {
        const escaped = this.escape(cursor);
        value += escaped.text;
        cursor = escaped.next;
        continue;
      }
      value += char;
      cursor += 1;
    }
    this.pos = cursor;
    if (asKey && cursor - offset > MAX_IMPLICIT_KEY) giveUp();
    return { kind: 'scalar', source: this.source, offset, type: 'string', value, text: value };
  }

  private escape(backslash: number): { text: string; next: number } {
    const code = this.text[backslash + 1];
    const simple = SIMPLE_ESCAPES[code];
    if (simple !== undefined) return { text: simple, next: backslash + 2 };
    const length = code === 'x' ? 2 : code === 'u' ? 4 : code === 'U' ? 8 : 0;
    if (length === 0) giveUp();
    const digits = this.text.slice(backslash + 2, backslash + 2 + length);
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== length) giveUp();
    const point = parseInt(digits, 16);
    if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) giveUp();
    return { text: String.fromCodePoint(point), next: backslash + 2 + length };
  }

  /** Whether a block map key (`key:` followed by a space or the line's end) starts at `start`. */
  private scanKey(start: number): ScannedKey | undefined {
    const char = this.text[start];
    if (char === '"' || char === "'") {
      let cursor = this.quotedEndOnLine(start);
      if (cursor < 0) return undefined;
      while (this.text[cursor] === ' ') cursor += 1;
      if (this.text[cursor] !== ':' || !this.isBlankOrEnd(cursor + 1)) return undefined;
      const saved = this.pos;
      this.pos = start;
      const key = this.quoted(-1, true);
      this.pos = saved;
      while (this.text[cursor] === ' ') cursor += 1;
      if (this.text[cursor] !== ':' || !this.isBlankOrEnd(cursor + 1)) return undefined;
      const text = String(key.kind === 'scalar' ? key.value : '');
      return { text, identity: `string:${text}`, offset: start, next: cursor + 1 };
    }
    if (!this.canStartPlain(start, false)) return undefined;
    const line = this.scanPlainLine(start, false);
    if (this.text[line.stop] !== ':') return undefined;
    if (line.stop - start > MAX_IMPLICIT_KEY) giveUp();
    const text = this.text.slice(start, line.end);
    return { text, identity: identityOf(text), offset: start, next: line.stop + 1 };
  }

  /** Just after the closing quote of the quoted scalar at `start` when it closes on the same line, else -1. */
  private quotedEndOnLine(start: number): number {
    const quote = this.text[start];
    let cursor = start + 1;
    while (cursor < this.text.length && !this.isLineEnd(cursor)) {
      const char = this.text[cursor];
      if (char === quote) {
        if (quote === "'" && this.text[cursor + 1] === "'") cursor += 2;
        else return cursor + 1;
      } else cursor += quote === '"' && char === '\\' ? 2 : 1;
    }
    return -1;
  }

  /**
   * The plain scalar text on one line from `start`: it ends at a `: `, a ` #`, the line's end or, in flow context,
   * a flow indicator. `end` leaves out trailing spaces; `stop` is where reading stopped.
   */
  private scanPlainLine(start: number, flow: boolean): { end: number; stop: number } {
    const text = this.text;
    let cursor = start;
    let end = start;
    while (cursor < text.length) {
      const char = text[cursor];
      if (char === '\n' || char === '\r') break;
      if (char === ':') {
        const next = text[cursor + 1];
        if (
          next === undefined ||
          next === ' ' ||
          next === '\n' ||
          next === '\r' ||
          (flow && FLOW_INDICATORS.includes(next))
        )
          break;
      } else if (char === '#') {
        if (text[cursor - 1] === ' ') break;
      } else if (flow && FLOW_INDICATORS.includes(char)) break;
      cursor += 1;
      if (char !== ' ') end = cursor;
    }
    return { end, stop: cursor };
  }

  private canStartPlain(at: number, flow: boolean): boolean {
    const char = this.text[at];
    if (char === undefined || char === ' ' || char === '\n' || char === '\r' || NOT_PLAIN_START.includes(char))
      return false;
    if (char === '-' || char === '?' || char === ':') {
      const next = this.text[at + 1];
      return (
        next !== undefined &&
        next !== ' ' &&
        next !== '\n' &&
        next !== '\r' &&
        !(flow && FLOW_INDICATORS.includes(next))
      );
    }
    return true;
  }

  private plainScalar(text: string, offset: number): ConfigNode {
    this.count();
    const source = this.source;
    const resolved = resolvePlain(text);
    if (resolved === null) return { kind: 'scalar', source, offset, type: 'null', value: null, text: '' };
    if (typeof resolved === 'boolean')
      return { kind: 'scalar', source, offset, type: 'boolean', value: resolved, text };
    if (typeof resolved === 'number')
      return {
        kind: 'scalar',
        source,
        offset,
        type: INTEGER_SOURCE.test(text) ? 'integer' : 'float',
        value: resolved,
        text,
      };
    return { kind: 'scalar', source, offset, type: 'string', value: text, text };
  }

  private nullAt(offset: number): ConfigNode {
    this.count();
    return { kind: 'scalar', source: this.source, offset, type: 'null', value: null, text: '' };
  }

  /** After a value: spaces, perhaps a comment, then the line's end. */
  private endOfLine(): void {
    this.skipSpaces();
    if (this.text[this.pos] === '#') {
      const before = this.text[this.pos - 1];
      if (before !== ' ' && before !== '\n' && this.pos !== 0) giveUp();
      this.pos = this.lineEndAt(this.pos);
    }
    if (!this.isLineEnd(this.pos)) giveUp();
  }

  /** From a line's end, past blank and comment lines, to the first character of the next line with content. */
  private nextContentLine(): void {
    if (!this.isLineEnd(this.pos)) giveUp();
    this.contentLineFrom(this.afterLineBreak(this.pos));
  }

  private contentLineFrom(lineStart: number): void {
    let cursor = lineStart;
    while (cursor >= 0 && cursor < this.text.length) {
      const indent = this.indentAt(cursor);
      if (!this.isLineEnd(cursor + indent) && this.text[cursor + indent] !== '#') {
        this.pos = cursor + indent;
        this.lineIndent = indent;
        return;
      }
      cursor = this.afterLineBreak(this.lineEndAt(cursor + indent));
    }
    this.pos = this.text.length;
    this.lineIndent = -1;
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === ' ') this.pos += 1;
  }

  private indentAt(lineStart: number): number {
    let cursor = lineStart;
    while (this.text[cursor] === ' ') cursor += 1;
    return cursor - lineStart;
  }

  private isLineEnd(at: number): boolean {
    const char = this.text[at];
    return char === undefined || char === '\n' || (char === '\r' && this.text[at + 1] === '\n');
  }

  private isSequenceDash(at: number): boolean {
    return this.text[at] === '-' && this.isBlankOrEnd(at + 1);
  }

  private isBlankOrEnd(at: number): boolean {
    return this.text[at] === ' ' || this.isLineEnd(at);
  }

  private lineEndAt(at: number): number {
    const newline = this.text.indexOf('\n', at);
    if (newline < 0) return this.text.length;
    return this.text[newline - 1] === '\r' ? newline - 1 : newline;
  }

  /** The start of the next line from a line's end, or -1 when there is none. */
  private afterLineBreak(lineEnd: number): number {
    const newline = this.text.indexOf('\n', lineEnd);
    return newline < 0 ? -1 : newline + 1;
  }

  private columnOf(at: number): number {
    return at - (this.text.lastIndexOf('\n', at - 1) + 1);
  }

  /** Counts generously (keys too) and gives up early: the full parser then reports the limit exactly. */
  private count(depth = 0): void {
    if (++this.nodes > YAML_LIMITS.maxNodes || depth > YAML_LIMITS.maxDepth - 2) giveUp();
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};

const INTEGER_SOURCE = /^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$/;

/** The first characters of every plain scalar the core schema reads as anything but a string. */
const MAY_RESOLVE = /^(?:$|[-+.0-9~nNtTfF])/;

/** The YAML 1.2 core schema's resolution of a plain scalar, in the `yaml` package's order. */
function resolvePlain(text: string): null | boolean | number | string {
  if (!MAY_RESOLVE.test(text)) return text;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return text[0] === 't' || text[0] === 'T';
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text)) {
    if (text.slice(-3).toLowerCase() === 'nan') return Number.NaN;
    return text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (
    /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text) ||
    /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)
  )
    return parseFloat(text);
  return text;
}

function identityOf(plainKey: string): string {
  const resolved = resolvePlain(plainKey);
  return `${typeof resolved}:${String(resolved)}`;
}

/**
 * Folded block scalar lines: a line break between two text lines becomes a space, unless empty lines stand between
 * them (each one stays a break); around a more indented line every break is kept.
 */
function foldLines(lines: string[]): string {
  let value = '';
  let emptyLines = 0;
  let started = false;
  let afterMoreIndented = false;
  for (const line of lines) {
    if (line === '') {
      emptyLines += 1;
      continue;
    }
    const moreIndented = line[0] === ' ';
    if (moreIndented) value += '\n'.repeat(started ? emptyLines + 1 : emptyLines);
    else if (afterMoreIndented) value += '\n'.repeat(emptyLines + 1);
    else if (emptyLines === 0) value += started ? ' ' : '';
    else value += '\n'.repeat(emptyLines);
    value += line;
    afterMoreIndented = moreIndented;
    emptyLines = 0;
    started = true;
  }
  return value;
}
