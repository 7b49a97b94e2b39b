/**
 * A streaming CSV tokenizer: text goes in as chunks split anywhere, records come out with their number. Standard
 * double-quoted fields (a doubled quote is one quote, separators and line breaks inside are kept as they are), LF,
 * CRLF and lone CR line ends (a CRLF cut between two chunks is one), a BOM at the very start dropped. Lines without
 * quotes take a fast path (one `split` per line); the rest goes through a small state machine that keeps its state
 * between chunks, so neither depends on where the chunks were cut. It never throws on bad input: an unterminated
 * quote or text after a closing quote is reported with the record and the text is kept as it was read.
 */

/** Something wrong with how a record is written (the record is still given, read as well as possible). */
export interface RecordProblem {
  /**
   * `nulCharacter` (a NUL cannot be stored) and `notUtf8` (a replacement character: bytes that were not UTF-8) are
   * found by the validator, the others by the tokenizer.
   */
  kind: 'unterminatedQuote' | 'textAfterQuote' | 'separatorInValue' | 'fieldTooLong' | 'nulCharacter' | 'notUtf8';
  /** 0-based index of the field. */
  field: number;
}

/**
 * Called once per record. `recordNumber` is 1-based and counts every record, empty lines included: it is the row
 * number a spreadsheet shows. The `fields` array belongs to the callee.
 */
export type RecordHandler = (fields: string[], recordNumber: number, problems: RecordProblem[] | null) => void;

/**
 * Characters a field may hold. Past them it is cut there and reported (`fieldTooLong`): one cell of hundreds of
 * megabytes (a value filled in by mistake, a quote never closed) was held whole in memory, then stored, and every
 * later read of its row cost seconds.
 */
export const MAX_FIELD_LENGTH = 500_000;

const QUOTE = 34;
const LF = 10;
const CR = 13;
/** One line break: CRLF, LF or a lone CR (an old Mac's, and Excel's "CSV (Macintosh)"). */
const LINE_BREAK = /\r\n?|\n/;

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

/**
 * Where a character is next in the buffer, searched again only once passed: a search that found nothing is not run
 * again over the same text for every line, nor over the whole buffer when a chunk is added.
 */
class NextIndex {
  /** -1: none in the buffer from where it was searched; -2: not searched yet. */
  private index = -2;

  constructor(private readonly character: string) {}

  /** Index of the next occurrence at or after `from`, or -1. */
  find(buffer: string, from: number): number {
    if (this.index === -2 || (this.index >= 0 && this.index < from)) this.index = buffer.indexOf(this.character, from);
    return this.index;
  }

  /** The buffer drops its first `dropped` characters, keeps `kept` and gets `added` after them. */
  rebase(dropped: number, kept: number, added: string): void {
    if (this.index >= dropped) this.index -= dropped;
    else if (this.index === -1) {
      const found = added.indexOf(this.character);
      this.index = found < 0 ? -1 : kept + found;
    } else this.index = -2;
  }
}

export class CsvTokenizer {
  private buffer = '';
  private position = 0;
  private recordNumber = 0;
  private started = false;
  private readonly quote = new NextIndex('"');
  private readonly lineFeed = new NextIndex('\n');
  private readonly carriageReturn = new NextIndex('\r');
  /**
   * A CR ended the last record: a LF right after it is the rest of the same break (CRLF), whether or not a chunk
   * was cut between them.
   */
  private afterCarriageReturn = false;
  /** State of a record that the slow path is reading. */
  private inRecord = false;
  private state = State.FieldStart;
  private fields: string[] = [];
  private field = '';
  private problems: RecordProblem[] | null = null;
  private readonly separatorCode: number;

  constructor(
    private readonly separator: string,
    private readonly onRecord: RecordHandler,
  ) {
    this.separatorCode = separator.charCodeAt(0);
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const rest = this.position === 0 ? this.buffer : this.buffer.slice(this.position);
    for (const next of [this.quote, this.lineFeed, this.carriageReturn]) next.rebase(this.position, rest.length, text);
    this.buffer = rest + text;
    this.position = 0;
    this.process(false);
  }

  /** The end of the text: reads the last record even without a final line break. */
  end(): void {
    this.process(true);
    if (this.inRecord) this.finishRecord(true);
    this.buffer = '';
    this.position = 0;
  }

  private process(final: boolean): void {
    const buffer = this.buffer;
    const length = buffer.length;
    while (this.position < length) {
      if (this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        if (buffer.charCodeAt(this.position) === LF) this.position += 1;
        continue;
      }
      if (!this.inRecord && this.quote.find(buffer, this.position) < 0 && this.completeLines(buffer)) continue;
      if (!this.inRecord) {
        let lineEnd = this.lineEnd(buffer);
        if (lineEnd < 0) {
          if (!final) {
            // An incomplete line: read what is there through the state machine, which keeps its state.
            this.slowPath(buffer, length, final);
            continue;
          }
          lineEnd = length;
        }
        const quote = this.quote.find(buffer, this.position);
        if (quote < 0 || quote >= lineEnd) {
          const line = buffer.slice(this.position, lineEnd);
          this.passBreak(buffer, lineEnd);
          this.recordNumber += 1;
          this.giveLine(line);
          continue;
        }
      }
      this.slowPath(buffer, length, final);
    }
  }

  /** Index of the line break that ends the line at `position`, or -1 when the buffer holds none. */
  private lineEnd(buffer: string): number {
    const lineFeed = this.lineFeed.find(buffer, this.position);
    const carriageReturn = this.carriageReturn.find(buffer, this.position);
    if (carriageReturn < 0 || (lineFeed >= 0 && lineFeed < carriageReturn)) return lineFeed;
    return carriageReturn;
  }

  /** Moves past the line break at `at`, a CR noted for the LF that may follow it. */
  private passBreak(buffer: string, at: number): void {
    this.position = at + 1;
    if (buffer.charCodeAt(at) === CR) this.afterCarriageReturn = true;
  }

  /**
   * With no quote in the rest of the buffer, every complete line at once, each through one `split`. Says whether
   * there was one.
   */
  private completeLines(buffer: string): boolean {
    // A text without CR (most files) is split on LF alone, its buffer never searched backwards for one.
    const carriageReturn = this.carriageReturn.find(buffer, this.position);
    const lastLineFeed = buffer.lastIndexOf('\n');
    const lastBreak = carriageReturn < 0 ? lastLineFeed : Math.max(lastLineFeed, buffer.lastIndexOf('\r'));
    if (lastBreak < this.position) return false;
    let end = lastBreak;
    // The CR of a CRLF ending the last line is part of the break, not of the line.
    if (buffer.charCodeAt(end) === LF && end > this.position && buffer.charCodeAt(end - 1) === CR) end -= 1;
    const text = buffer.slice(this.position, end);
    this.passBreak(buffer, lastBreak);
    const lines = carriageReturn < 0 || carriageReturn >= end ? text.split('\n') : text.split(LINE_BREAK);
    for (let index = 0; index < lines.length; index += 1) {
      this.recordNumber += 1;
      this.giveLine(lines[index]);
    }
    return true;
  }

  /** A line without quotes as its record, its fields past the limit cut and reported. */
  private giveLine(line: string): void {
    const fields = line.length === 0 ? [''] : line.split(this.separator);
    let problems: RecordProblem[] | null = null;
    if (line.length > MAX_FIELD_LENGTH)
      fields.forEach((field, index) => {
        if (field.length <= MAX_FIELD_LENGTH) return;
        fields[index] = field.slice(0, MAX_FIELD_LENGTH);
        (problems ??= []).push({ kind: 'fieldTooLong', field: index });
      });
    this.onRecord(fields, this.recordNumber, problems);
  }

  /**
   * Appends text to the field being read, one character past the limit at most: whether the field is too long is
   * told when it ends.
   */
  private append(text: string): void {
    const room = MAX_FIELD_LENGTH + 1 - this.field.length;
    this.field += text.length <= room ? text : text.slice(0, Math.max(0, room));
  }

  /** The field read so far ends: cut at the limit, and said so, when longer. */
  private endField(): void {
    if (this.field.length > MAX_FIELD_LENGTH) {
      this.field = this.field.slice(0, MAX_FIELD_LENGTH);
      this.problem('fieldTooLong');
    }
    this.fields.push(this.field);
    this.field = '';
  }

  /** Reads from `position` until the end of the current record or of the buffer. */
  private slowPath(buffer: string, length: number, final: boolean): void {
    if (!this.inRecord) {
      this.inRecord = true;
      this.state = State.FieldStart;
      this.fields = [];
      this.field = '';
      this.problems = null;
    }
    const separator = this.separatorCode;
    let i = this.position;
    while (i < length) {
      switch (this.state) {
        case State.FieldStart:
          if (buffer.charCodeAt(i) === QUOTE) {
            this.state = State.Quoted;
            i += 1;
          } else this.state = State.Unquoted;
          break;
        case State.Unquoted: {
          const start = i;
          while (i < length) {
            const code = buffer.charCodeAt(i);
            if (code === separator || code === LF || code === CR) break;
            i += 1;
          }
          this.append(buffer.slice(start, i));
          if (i >= length) break;
          if (buffer.charCodeAt(i) === separator) {
            this.endField();
            this.state = State.FieldStart;
            i += 1;
          } else {
            this.passBreak(buffer, i);
            this.finishRecord(false);
            return;
          }
          break;
        }
        case State.Quoted: {
          const close = buffer.indexOf('"', i);
          if (close < 0) {
            this.append(buffer.slice(i));
            i = length;
            break;
          }
          this.append(buffer.slice(i, close));
          i = close + 1;
          this.state = State.QuoteInQuoted;
          break;
        }
        case State.QuoteInQuoted: {
          const code = buffer.charCodeAt(i);
          if (code === QUOTE) {
            this.append('"');
            this.state = State.Quoted;
            i += 1;
          } else if (code === separator) {
            this.closeQuotedField();
            this.state = State.FieldStart;
            i += 1;
          } else if (code === LF || code === CR) {
            // The record's last field is given by the record's end: closed here as well, the record had one more,
            // empty field.
            this.passBreak(buffer, i);
            this.finishRecord(false);
            return;
          } else {
            this.problem('textAfterQuote');
            this.state = State.Unquoted;
          }
          break;
        }
      }
    }
    this.position = length;
    if (final) this.finishRecord(true);
  }

  private closeQuotedField(): void {
    if (this.field.includes(this.separator)) this.problem('separatorInValue');
    this.endField();
  }

  private problem(kind: RecordProblem['kind']): void {
    (this.problems ??= []).push({ kind, field: this.fields.length });
  }

  private finishRecord(atEnd: boolean): void {
    if (atEnd && this.state === State.Quoted) this.problem('unterminatedQuote');
    if (this.state === State.QuoteInQuoted && this.field.includes(this.separator)) this.problem('separatorInValue');
    this.endField();
    this.inRecord = false;
    this.state = State.FieldStart;
    this.recordNumber += 1;
    const fields = this.fields;
    const problems = this.problems;
    this.fields = [];
    this.field = '';
    this.problems = null;
    this.onRecord(fields, this.recordNumber, problems);
  }
}
