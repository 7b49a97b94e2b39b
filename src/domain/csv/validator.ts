/**
 * The CSV validator of one file of one data entry: reads records as they stream in, maps the header, turns each
 * data line into a row (values, keys, links, period) or into errors, and ends with the whole-file checks
 * (duplicated keys, recursive parents, references to rows of the same file). See `index.ts` for the stored shapes.
 */
import type {
  Checker,
  Component,
  DataEntry,
  LineValidation,
  PatternComponent,
  TimeScope,
} from '../configuration/model';
import { checkersOf, refersToItself } from '../configuration/checkedAgainst';
import { addDuration, parseDuration } from '../configuration/duration';
import { toIsoLocalDateTime } from '../configuration/localDateTime';
import { periodLengthOf, timeScopeOf } from '../configuration/timeScope';
import {
  compositeKey,
  escapeLabel,
  hierarchicalKey as joinHierarchicalKey,
  isUnderHierarchicalKey,
  LabelError,
  MAX_HIERARCHICAL_KEY_LENGTH,
  manyCompositeKey,
} from '../keys';
import {
  compileChecker,
  type CheckerEnvironment,
  INVALID,
  REFERENCE_SAMPLE,
  isoOfStoredDate,
  type CheckSink,
  type CheckTarget,
  type CompiledChecker,
} from './checkers';
import { compareIso, parseIsoLocalDateTime } from './dates';
import { ErrorCollector, type CsvError, type CsvErrorCode } from './errors';
import { NoteCollector, type CsvNoteCode } from './notes';
import { ExpressionRunner, expressionResultText } from './expressions';
import { javaTrim, mapHeader, type ColumnMapping } from './header';
import { RepeatedKeys } from './repeatedKeys';
import { memoized } from '../memo/memoized';
import { ReferenceIndex } from './references';
import { CsvTokenizer, MAX_FIELD_LENGTH, type RecordProblem } from './tokenizer';
import type { CsvLink, CsvReport, CsvRow, CsvValidationOptions, CsvValidator, StoredRow, StoredValue } from './types';

/**
 * A character that shows nothing (a zero-width space, a soft hyphen, a byte order mark pasted in the middle): in a
 * key it made a row that looks like another one and is not.
 */
const INVISIBLE = /[\u00AD\u180E\u200B\u2060-\u2064\uFEFF]/;

/** Characters of a file's beginning that tell UTF-16 once read as UTF-8 (its byte order mark, if any, included). */
const UTF16_SIGN_LENGTH = 4;
/** UTF-16's byte order mark read as UTF-8: FF FE or FE FF, bytes no UTF-8 text holds, each a replacement character. */
const UTF16_BOM_READ_AS_UTF8 = '\uFFFD\uFFFD';

/**
 * Whether a file's first characters, read as UTF-8, are UTF-16: its byte order mark then a character beside its NUL
 * byte, or without one (a file another tool wrote), two characters each beside its NUL byte, on the same side.
 * Letters of the Latin alphabets, the headers' letters, have a NUL byte in UTF-16; a text file has no NUL to hold
 * (a cell holding one is refused).
 */
function readAsUtf16(head: string): boolean {
  if (head.length < UTF16_SIGN_LENGTH) return false;
  if (head.startsWith(UTF16_BOM_READ_AS_UTF8)) return besideNuls(head, UTF16_BOM_READ_AS_UTF8.length, 1);
  return besideNuls(head, 0, 2);
}

/** Whether `units` pairs of characters from `start` each hold one NUL, always first or always second. */
function besideNuls(head: string, start: number, units: number): boolean {
  const nulSide = head[start] === '\u0000' ? 0 : 1;
  for (let unit = 0; unit < units; unit += 1) {
    const at = start + unit * 2;
    if (head[at + nulSide] !== '\u0000' || head[at + 1 - nulSide] === '\u0000') return false;
  }
  return true;
}

/** Lines a duplicated key's error lists (then `…`); `lineCount` counts them all. */
const DUPLICATE_LINES_SHOWN = 10;

const DEFAULT_MAX_ERRORS = 1000;
/** Stands for "no link yet" while a row is read (the row then gets its own empty list). */
const NO_LINKS: CsvLink[] = [];
const KNOWN_REFERENCES_IN_ERRORS = 20;

type Text = string;
/** A pattern group while the row is read: texts only. */
interface RawGroup {
  header: string;
  value: Text;
  qualifiers: Record<string, Text>;
  adjacents: Record<string, Text>;
}

interface Slot {
  /** Position in `Validator.slots`, the index of the component's text in the row being read. */
  index: number;
  key: string;
  /** Column of a basic component in the file, -1 when absent. */
  column: number;
  component: Component;
  checker: CompiledChecker | null;
  target: CheckTarget;
}

interface CompiledValidation {
  validation: LineValidation;
  checker: CompiledChecker | null;
  targets: CheckTarget[];
}

/** A reference to a row of the same file, resolved at the end. */
interface Deferred {
  target: CheckTarget;
  text: string;
  index: number | null;
}

interface PendingRow {
  row: CsvRow;
  valid: boolean;
  /** Hierarchical key of the parent of another entry (OA_isParent), if any. */
  parentPrefix: string | null;
  /** The cell naming the recursive parent. */
  recursiveText: string;
  deferred: Deferred[] | null;
}

export class Validator implements CsvValidator, CheckSink {
  private readonly entry: DataEntry;
  private readonly errors: ErrorCollector;
  private readonly notes: NoteCollector;
  private readonly environment: CheckerEnvironment;
  private readonly tokenizer: CsvTokenizer;
  private readonly headerLine: number;
  private readonly firstDataLine: number;
  private readonly referenceIndexes = new Map<string, ReferenceIndex>();
  private readonly runner: ExpressionRunner;
  private readonly slots: Slot[];
  private readonly slotByKey = new Map<string, Slot>();
  /** Texts of the row being read, by slot index (reused from row to row). */
  private readonly texts: unknown[] = [];
  /** Stored values of the row being read, by slot index (reused from row to row). */
  private readonly stored: StoredValue[] = [];
  /**
   * Makes the value objects of rows: plain objects (their prototype is Object.prototype), made by a constructor of
   * this file only so that the engine sizes them for the entry's components at once instead of growing each one.
   */
  private readonly Values: new () => Record<string, StoredValue>;
  private readonly naturalKeySlots: Array<Slot | undefined>;
  private readonly naturalKeyParts: string[];
  private readonly validations: CompiledValidation[];
  private readonly needsDatum: boolean;
  private readonly hasComputed: boolean;
  private readonly collectRows: boolean;
  /** `<dataName>K`, the start of the row's own label in hierarchical keys. */
  private readonly labelPrefix: string;
  /** Without parents, rows are told apart by natural key (as good as the hierarchical key, and cheaper to hash). */
  private readonly keyByNaturalKey: boolean;
  private readonly deferRows: boolean;
  private readonly timeScope: TimeScope | null;
  private readonly timeScopeLength: ReturnType<typeof parseDuration>;
  private readonly preHeaderRows: string[][] = [];
  private readonly postHeaderRows: string[][] = [];
  private headerCells: string[] | null = null;
  private mapping: ColumnMapping | null = null;
  private headerFailed = false;
  private prepared = false;
  private finished: CsvReport | null = null;
  private rowCount = 0;
  private constants = new Map<string, string>();
  private ready: CsvRow[] = [];
  private readonly pending: PendingRow[] = [];
  private readonly rowKeys = new RepeatedKeys();
  /** Whether a character no row may store (NUL, or a replacement for bytes not UTF-8) was met, and above the data lines. */
  private sawUnstorable = false;
  /** Whether the file's first characters were read: they tell its encoding. */
  private started = false;
  /** The first characters, kept until there are enough of them to tell the encoding. */
  private head = '';
  /** The file is UTF-16 ("Unicode text"): one error says so, and nothing of it is read. */
  private utf16 = false;
  private unstorableAboveData = false;
  /**
   * Lines with the same natural key are duplicates, under different parents too (configuration-format.md §9.1): the
   * entry's rows are stored, updated, pointed to and deleted by natural key. Under parents duplicates are first
   * found by hierarchical key (same key, same parent); this finds the same key under another parent.
   */
  private readonly naturalKeys = new RepeatedKeys();

  // State of the row being read (the CheckSink side).
  private lineNumber = 0;
  private rowErrors = 0;
  private links: CsvLink[] = [];
  private deferred: Deferred[] | null = null;
  private datum: Record<string, unknown> | null = null;
  private currentFields: readonly string[] = [];

  constructor(private readonly options: CsvValidationOptions) {
    const entry = options.model.data.find((item) => item.name === options.dataName);
    if (!entry) throw new Error(`No data entry ${options.dataName} in application ${options.model.name}`);
    this.entry = entry;
    this.errors = new ErrorCollector(Math.max(0, options.maxErrors ?? DEFAULT_MAX_ERRORS));
    this.headerLine = Math.max(1, entry.csv.headerLine);
    this.firstDataLine = Math.max(this.headerLine + 1, entry.csv.firstDataLine);
    this.runner = new ExpressionRunner(options.model, entry, (name) => this.storedRows(name));
    this.notes = new NoteCollector(Math.max(0, options.maxErrors ?? DEFAULT_MAX_ERRORS));
    const withoutCopy = new Set(options.device?.withoutCopy ?? []);
    const partCopies = new Set(options.device?.partCopies ?? []);
    const queued = new Map(
      Object.entries(options.device?.queuedRows ?? {}).map(([name, rows]) => [name, new Set<StoredRow>(rows)]),
    );
    this.environment = {
      dataName: entry.name,
      reference: (name: string) => this.reference(name),
      withoutCopy: (name: string) => withoutCopy.has(name),
      partCopy: (name: string) => partCopies.has(name),
      queued: (name: string, row: StoredRow) => queued.get(name)?.has(row) ?? false,
    };
    const compile = (checker: Checker | null) => (checker ? compileChecker(checker, this.environment) : null);
    this.slots = entry.components.map((component, index) => ({
      index,
      key: component.key,
      column: -1,
      component,
      checker: compile(component.checker),
      target: { component: component.key, column: undefined },
    }));
    for (const slot of this.slots) this.slotByKey.set(slot.key, slot);
    const Values = function Values() {} as unknown as { prototype: object } & (new () => Record<string, StoredValue>);
    Values.prototype = Object.prototype;
    this.Values = Values;
    this.naturalKeySlots = entry.naturalKey.map((key) => this.slotByKey.get(key));
    this.naturalKeyParts = entry.naturalKey.map(() => '');
    this.validations = entry.validations.map((validation) => ({
      validation,
      checker: validation.checker.kind === 'expression' ? null : compile(validation.checker),
      targets: validation.components.map((component) => ({
        component,
        column: undefined,
        extra: { validation: validation.name },
      })),
    }));
    // Expressions see the row's texts (`datum`): built only for entries that have one.
    this.needsDatum =
      entry.components.some(
        (component) =>
          checkersOf(component).some((checker) => checker.kind === 'expression') ||
          (component.kind === 'computed' && component.computation.kind === 'expression') ||
          ('defaultValue' in component && component.defaultValue !== null) ||
          (component.kind === 'pattern' && component.qualifiers.some((qualifier) => qualifier.defaultValue !== null)),
      ) || entry.validations.some((validation) => validation.checker.kind === 'expression');
    this.hasComputed = entry.components.some((component) => component.kind === 'computed');
    this.deferRows = refersToItself(entry);
    this.collectRows = options.collectRows !== false;
    this.labelPrefix = `${entry.name}K`;
    this.keyByNaturalKey = !this.deferRows && entry.hierarchy.parents.length === 0;
    this.timeScope = timeScopeOf(entry);
    this.timeScopeLength = this.timeScope ? periodLengthOf(this.timeScope) : null;
    this.tokenizer = new CsvTokenizer(entry.csv.separator || ';', (fields, recordNumber, problems) =>
      this.onRecord(fields, recordNumber, problems),
    );
  }

  push(chunk: string): void {
    if (this.finished || this.utf16) return;
    if (!this.started) {
      // The file's first characters, whatever the chunks they come in, tell its encoding.
      this.head += chunk;
      if (this.head.length >= UTF16_SIGN_LENGTH) this.startWith(this.head);
      return;
    }
    this.read(chunk);
  }

  /**
   * The file's beginning. What a spreadsheet's "Unicode text" looks like once read as UTF-8: its byte order mark as
   * two replacement characters (other tools write none), then a NUL beside every letter. Read on, every line, header
   * included, would be refused column by column for reasons that say nothing of the file's encoding.
   */
  private startWith(head: string): void {
    this.started = true;
    this.head = '';
    if (readAsUtf16(head)) {
      this.utf16 = true;
      this.report(-1, 'invalidFormat', { reason: 'utf16' });
      return;
    }
    this.read(head);
  }

  private read(chunk: string): void {
    // A NUL character is valid text but no database stores it. A replacement character is what the decoder makes of
    // bytes that are not UTF-8: a file saved as Latin-1 or Windows-1252 (a spreadsheet's "CSV" on many systems),
    // whose accented letters would otherwise be stored garbled. Once either is seen, records are searched for them.
    if (!this.sawUnstorable && (chunk.indexOf('\u0000') >= 0 || chunk.indexOf('\uFFFD') >= 0))
      this.sawUnstorable = true;
    this.tokenizer.push(chunk);
  }

  takeRows(): CsvRow[] {
    const rows = this.ready;
    this.ready = [];
    return rows;
  }

  finish(): CsvReport {
    if (this.finished) return this.finished;
    if (!this.started && this.head !== '') this.startWith(this.head);
    this.tokenizer.end();
    if (this.utf16) {
      // Refused whole already.
    } else if (this.headerCells === null) {
      this.report(-1, 'missingHeaderLine', { headerLine: this.headerLine });
    } else {
      this.prepare();
      if (!this.headerFailed) {
        if (this.deferRows) this.resolveDeferredRows();
        this.reportDuplicates();
      }
    }
    const errors = [...this.errors.kept].sort((a, b) => a.lineNumber - b.lineNumber);
    this.finished = {
      rowCount: this.rowCount,
      errorCount: this.errors.count,
      errors,
      truncated: this.errors.count > errors.length,
    };
    if (this.options.device) {
      this.finished.notes = this.notes.kept;
      this.finished.noteCount = this.notes.count;
      if (this.notes.capped) this.finished.noteCountCapped = true;
    }
    return this.finished;
  }

  // ---------------------------------------------------------------- records

  private onRecord(fields: string[], recordNumber: number, problems: RecordProblem[] | null): void {
    if (this.sawUnstorable) {
      const unstorable: RecordProblem[] = [];
      fields.forEach((field, index) => {
        if (field.indexOf('\u0000') >= 0) unstorable.push({ kind: 'nulCharacter', field: index });
        if (field.indexOf('\uFFFD') >= 0) unstorable.push({ kind: 'notUtf8', field: index });
      });
      if (unstorable.length > 0 && recordNumber < this.firstDataLine) {
        // Above the data (header, constants): the file cannot be read further.
        for (const problem of unstorable)
          this.report(recordNumber, 'invalidFormat', { reason: problem.kind, columnNumber: problem.field + 1 });
        this.unstorableAboveData = true;
      } else if (unstorable.length > 0) problems = [...(problems ?? []), ...unstorable];
    }
    if (recordNumber < this.headerLine) {
      this.preHeaderRows.push(fields);
      return;
    }
    if (recordNumber === this.headerLine) {
      this.headerCells = fields;
      return;
    }
    if (recordNumber < this.firstDataLine) {
      this.postHeaderRows.push(fields);
      return;
    }
    if (isBlank(fields)) return;
    this.rowCount += 1;
    if (!this.prepared) this.prepare();
    if (this.headerFailed) return;
    this.options.beforeRow?.(recordNumber);
    this.readRow(fields, recordNumber, problems);
  }

  /** Once the lines above the data are read: maps the header and reads the constants. */
  private prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    const cells = this.headerCells ?? [];
    const constantColumns = new Set<number>();
    for (const constant of this.entry.csv.constants) {
      if (constant.zone === 'header' && 'number' in constant.column) constantColumns.add(constant.column.number - 1);
    }
    this.mapping = mapHeader({
      entry: this.entry,
      cells,
      headerLine: this.headerLine,
      constantColumns,
      reference: (name) => this.reference(name),
    });
    for (const problem of this.mapping.errors) this.report(this.headerLine, problem.code, problem.params);
    this.headerFailed = this.mapping.errors.length > 0 || this.unstorableAboveData;
    for (const slot of this.slots) {
      const column = this.mapping.basicColumns.get(slot.key);
      slot.column = column ?? -1;
      if (column !== undefined) slot.target = { component: slot.key, column: this.mapping.headers[column] };
    }
    for (const validation of this.validations) {
      validation.targets = validation.targets.map((target) => ({
        ...target,
        column: this.slotByKey.get(target.component)?.target.column,
      }));
    }
    for (const constant of this.entry.csv.constants)
      this.constants.set(constant.component, this.constantText(constant));
    this.runner.setFile({
      headerRow: this.mapping.headers,
      preHeaderRow: this.preHeaderRows,
      postHeaderRow: this.postHeaderRows,
    });
  }

  private constantText(constant: DataEntry['csv']['constants'][number]): string {
    let row: readonly string[] | undefined;
    if (constant.row < this.headerLine) row = this.preHeaderRows[constant.row - 1];
    else if (constant.row === this.headerLine) row = this.headerCells ?? undefined;
    else row = this.postHeaderRows[constant.row - this.headerLine - 1];
    if (!row) return '';
    const column =
      'number' in constant.column
        ? constant.column.number - 1
        : (this.mapping?.headers.indexOf(constant.column.header) ?? -1);
    return column >= 0 ? javaTrim(row[column] ?? '') : '';
  }

  // ---------------------------------------------------------------- rows

  private readRow(fields: readonly string[], lineNumber: number, problems: RecordProblem[] | null): void {
    const mapping = this.mapping!;
    this.startRow(fields, lineNumber);
    if (problems) this.reportRecordProblems(problems, mapping);
    this.reportCellsBeyondHeader(fields, mapping);
    this.readTexts(fields, mapping);
    if (this.hasComputed) this.computeTexts(fields);
    this.storeValues();
    const naturalKey = this.naturalKey();
    const period = this.timeScope ? this.period() : undefined;
    if (this.options.deposit?.scope) this.checkScope();
    // A row that may name another row of the file waits for the whole file (see `resolveDeferredRows`).
    if (this.deferRows) this.deferRow(naturalKey, period);
    else if (naturalKey !== null) this.giveRow(naturalKey, period);
  }

  /** What errors, links and expressions (the CheckSink side) refer to is now this row. */
  private startRow(fields: readonly string[], lineNumber: number): void {
    this.lineNumber = lineNumber;
    this.rowErrors = 0;
    this.links = NO_LINKS;
    this.deferred = null;
    this.currentFields = fields;
    this.datum = this.needsDatum ? {} : null;
  }

  /** Cells past the header's columns are an error, unless blank: spreadsheets often end lines with empty cells. */
  private reportCellsBeyondHeader(fields: readonly string[], mapping: ColumnMapping): void {
    if (fields.length <= mapping.columnCount) return;
    let last = fields.length - 1;
    while (last >= mapping.columnCount && javaTrim(fields[last]) === '') last -= 1;
    if (last >= mapping.columnCount)
      this.report(this.lineNumber, 'unexpectedTokenCount', {
        expectedTokenCount: mapping.columnCount,
        actualTokenCount: last + 1,
      });
  }

  /**
   * The texts of the row in configuration order, so that a default value's expression sees the components before
   * it; computed components get theirs afterwards (`computeTexts`), once every other text is known.
   */
  private readTexts(fields: readonly string[], mapping: ColumnMapping): void {
    const texts = this.texts;
    const slots = this.slots;
    const datum = this.datum;
    for (let index = 0; index < slots.length; index += 1) {
      const slot = slots[index];
      const text = this.rawText(slot, fields, mapping);
      texts[index] = text;
      if (datum) datum[slot.key] = text;
    }
  }

  /** A component's text as the file gives it: its cell, a constant, a default value; '' for a computed one for now. */
  private rawText(slot: Slot, fields: readonly string[], mapping: ColumnMapping): unknown {
    const component = slot.component;
    switch (component.kind) {
      case 'basic': {
        const column = slot.column;
        const cell = column < 0 ? undefined : fields[column];
        const text = cell === undefined ? '' : javaTrim(cell);
        return text === '' && component.defaultValue
          ? this.defaultText(component.defaultValue, slot.key, this.datum)
          : text;
      }
      case 'constant': {
        const text = this.constants.get(slot.key) ?? '';
        return text === '' && component.defaultValue
          ? this.defaultText(component.defaultValue, slot.key, this.datum)
          : text;
      }
      case 'dynamic': {
        const map: Record<string, string> = {};
        for (const column of mapping.dynamicColumns.get(slot.key) ?? [])
          map[column.hierarchicalKey] = javaTrim(fields[column.column] ?? '');
        return map;
      }
      case 'pattern':
        return this.patternGroups(component, mapping, fields, this.datum);
      case 'computed':
        return '';
    }
  }

  /** Computed components in configuration order, so that one may use the value of a computed component before it. */
  private computeTexts(fields: readonly string[]): void {
    const datum = this.datum;
    for (const slot of this.slots) {
      const component = slot.component;
      if (component.kind !== 'computed') continue;
      const text = this.computedText(component.computation, slot, fields);
      this.texts[slot.index] = text;
      if (datum) datum[slot.key] = text;
    }
  }

  private computedText(
    computation: Extract<Component, { kind: 'computed' }>['computation'],
    slot: Slot,
    fields: readonly string[],
  ): string {
    if (computation.kind === 'naturalKey') return this.naturalKeyText(computation.components, slot);
    if (computation.kind !== 'expression') return '';
    const outcome = this.runner.evaluate(computation.expression, this.datum ?? {}, fields, this.lineNumber, {
      component: slot.key,
    });
    if (outcome.ok) return expressionResultText(outcome.value);
    this.report(this.lineNumber, outcome.code, outcome.params);
    return '';
  }

  /** Stored values by slot, reused from row to row: the row's object is only made for a row that is given. */
  private storeValues(): void {
    const slots = this.slots;
    const stored = this.stored;
    for (let index = 0; index < slots.length; index += 1)
      stored[index] = this.storedValue(slots[index], this.texts[index]);
    for (const compiled of this.validations) this.applyValidation(compiled);
  }

  /** Kept, errors or not, until the end: a later row may be its parent, or be named by it. */
  private deferRow(naturalKey: string | null, period: CsvRow['period']): void {
    const recursive = this.entry.hierarchy.recursiveComponent;
    this.pending.push({
      row: this.rowObject(naturalKey ?? '', '', period),
      valid: this.rowErrors === 0,
      parentPrefix: this.parentPrefix(),
      recursiveText: recursive ? this.textOf(recursive) : '',
      deferred: this.deferred,
    });
  }

  /** A row whose key is known at once: its key is tracked even when it has errors, so that duplicates are reported. */
  private giveRow(naturalKey: string, period: CsvRow['period']): void {
    const hierarchicalKey = this.keyByNaturalKey
      ? this.labelPrefix + naturalKey
      : joinHierarchicalKey(this.entry.name, naturalKey, this.parentPrefix());
    if (this.keyTooLong(hierarchicalKey, this.lineNumber)) return;
    if (!this.trackRowKeys(naturalKey, hierarchicalKey, this.lineNumber)) return;
    if (this.rowErrors > 0 || !this.collectRows) return;
    this.ready.push(this.rowObject(naturalKey, hierarchicalKey, period));
  }

  private rowObject(naturalKey: string, hierarchicalKey: string, period: CsvRow['period']): CsvRow {
    const row: CsvRow = {
      lineNumber: this.lineNumber,
      naturalKey,
      hierarchicalKey,
      values: this.valuesObject(),
      links: this.links === NO_LINKS ? [] : this.links,
    };
    if (period) row.period = period;
    return row;
  }

  /** The stored values of the row being read, as the row's object, in configuration order. */
  private valuesObject(): Record<string, StoredValue> {
    const values = new this.Values();
    const slots = this.slots;
    const stored = this.stored;
    for (let index = 0; index < slots.length; index += 1) values[slots[index].key] = stored[index];
    return values;
  }

  /** The stored value of a component in the row being read. */
  private storedOf(key: string): StoredValue | undefined {
    const slot = this.slotByKey.get(key);
    return slot ? this.stored[slot.index] : undefined;
  }

  private reportRecordProblems(problems: RecordProblem[], mapping: ColumnMapping): void {
    for (const problem of problems) {
      const column = mapping.headers[problem.field];
      if (problem.kind === 'separatorInValue') {
        this.report(
          this.lineNumber,
          'separatorInValue',
          { columnNumber: problem.field + 1, separator: this.entry.csv.separator },
          column,
          this.currentFields[problem.field],
        );
      } else {
        this.report(
          this.lineNumber,
          'invalidFormat',
          {
            reason: problem.kind,
            columnNumber: problem.field + 1,
            ...(problem.kind === 'fieldTooLong' ? { max: MAX_FIELD_LENGTH } : {}),
          },
          column,
        );
      }
    }
  }

  private defaultText(
    expression: NonNullable<Extract<Component, { kind: 'basic' }>['defaultValue']>,
    component: string,
    datum: Record<string, unknown> | null,
  ): string {
    const outcome = this.runner.evaluate(expression, datum ?? {}, this.currentFields, this.lineNumber, { component });
    if (outcome.ok) return expressionResultText(outcome.value);
    this.report(this.lineNumber, outcome.code, outcome.params);
    return '';
  }

  private patternGroups(
    component: PatternComponent,
    mapping: ColumnMapping,
    fields: readonly string[],
    datum: Record<string, unknown> | null,
  ): RawGroup[] {
    const groups: RawGroup[] = [];
    for (const match of mapping.patternMatches.get(component.key) ?? []) {
      let value = javaTrim(fields[match.column] ?? '');
      if (value === '' && component.defaultValue)
        value = this.defaultText(component.defaultValue, component.key, datum);
      const qualifiers: Record<string, string> = {};
      for (const qualifier of component.qualifiers) {
        let text = match.groups[qualifier.group - 1] ?? '';
        if (text === '' && qualifier.defaultValue)
          text = this.defaultText(qualifier.defaultValue, qualifier.storedKey, datum);
        qualifiers[qualifier.name] = text;
      }
      const adjacents: Record<string, string> = {};
      component.adjacents.forEach((item, index) => {
        const column = match.adjacentColumns[index] ?? -1;
        adjacents[item.name] = column < 0 ? '' : javaTrim(fields[column] ?? '');
      });
      groups.push({ header: match.header, value, qualifiers, adjacents });
    }
    return groups;
  }

  /** `OA_withNaturalKeyComponents`: the composite key of the listed components' texts (a list of keys with MANY). */
  private naturalKeyText(components: readonly string[], slot: Slot): string {
    const parts = components.map((key) => this.textOf(key));
    try {
      return slot.checker?.many ? manyCompositeKey(parts) : compositeKey(parts.map(javaTrim));
    } catch (thrown) {
      if (!(thrown instanceof LabelError)) throw thrown;
      this.report(this.lineNumber, 'invalidNaturalKey', {
        component: slot.key,
        components: [...components],
        value: thrown.text,
        problem: thrown.problem,
      });
      return '';
    }
  }

  private storedValue(slot: Slot, text: unknown): StoredValue {
    const component = slot.component;
    if (component.kind === 'dynamic') {
      const map = text as Record<string, string>;
      const stored: Record<string, StoredValue> = {};
      for (const hierarchicalKey of Object.keys(map)) {
        const cell = map[hierarchicalKey];
        if (cell !== '') this.link(slot.target, component.reference, hierarchicalKey);
        stored[hierarchicalKey] = cell === '' || !slot.checker ? cell : this.checked(slot.checker, cell, slot.target);
      }
      return stored;
    }
    if (component.kind === 'pattern') return this.patternValue(component, slot, text as RawGroup[]);
    return this.checkedText(text as string, component.required, slot.checker, slot.target);
  }

  /** A text through the required rule and the checker: '' (or [''] with MANY) when empty and allowed. */
  private checkedText(
    text: string,
    required: boolean,
    checker: CompiledChecker | null,
    target: CheckTarget,
  ): StoredValue {
    if (text === '') {
      if (required) this.error('requiredValueWithComponent', target, {}, '');
      return checker?.many ? [''] : '';
    }
    return checker ? this.checked(checker, text, target) : text;
  }

  private checked(checker: CompiledChecker, text: string, target: CheckTarget): StoredValue {
    const value = checker.check(text, target, this);
    return value === INVALID ? text : value;
  }

  private patternValue(component: PatternComponent, slot: Slot, groups: RawGroup[]): StoredValue {
    const stored: StoredValue[] = [];
    for (const group of groups) {
      const qualifiers: Record<string, StoredValue> = {};
      for (const qualifier of component.qualifiers) {
        const checker = qualifier.checker ? this.partChecker(qualifier.storedKey, qualifier.checker) : null;
        qualifiers[qualifier.name] = this.checkedText(group.qualifiers[qualifier.name], qualifier.required, checker, {
          component: qualifier.storedKey,
          column: group.header,
        });
      }
      const adjacents: Record<string, StoredValue> = {};
      component.adjacents.forEach((item) => {
        const checker = item.checker ? this.partChecker(item.storedKey, item.checker) : null;
        adjacents[item.name] = this.checkedText(group.adjacents[item.name], item.required, checker, {
          component: item.storedKey,
          column: group.header,
        });
      });
      stored.push({
        header: group.header,
        value: this.checkedText(group.value, component.required, slot.checker, {
          component: slot.key,
          column: group.header,
        }),
        qualifiers,
        adjacents,
      });
    }
    return stored;
  }

  private readonly partCheckers = new Map<string, CompiledChecker>();

  private partChecker(key: string, checker: Checker): CompiledChecker {
    let compiled = this.partCheckers.get(key);
    if (!compiled) {
      compiled = compileChecker(checker, this.environment);
      this.partCheckers.set(key, compiled);
    }
    return compiled;
  }

  /**
   * `OA_validations` (§11): the checker runs on each listed component's text; an empty text is only an error when the
   * rule is required. A reference or date rule on a component without its own checker gives the stored value.
   * A rule that lists no component is not run, as in the original.
   */
  private applyValidation(compiled: CompiledValidation): void {
    const { validation } = compiled;
    for (const target of compiled.targets) {
      const slot = this.slotByKey.get(target.component);
      const text = slot ? this.texts[slot.index] : undefined;
      if (typeof text !== 'string') continue;
      if (text === '') {
        if (validation.required) this.error('requiredValueWithComponent', target, {}, '');
        continue;
      }
      if (validation.checker.kind === 'expression') {
        const result = this.evaluateCheck(validation.checker, target, text);
        if (result === false)
          this.error(
            'checkerExpressionReturnedFalse',
            target,
            { expression: validation.checker.expression.source },
            text,
          );
        continue;
      }
      const value = compiled.checker!.check(text, target, this);
      if (value !== INVALID && slot && !slot.checker) this.stored[slot.index] = value;
    }
  }

  /** The text of a component in the row being read ('' for maps and lists). */
  private textOf(key: string): string {
    const slot = this.slotByKey.get(key);
    const text = slot ? this.texts[slot.index] : '';
    return typeof text === 'string' ? text : '';
  }

  // ---------------------------------------------------------------- keys

  /** §9.1: escaped values of the key components joined by `__`; dates as their pattern writes them. */
  private naturalKey(): string | null {
    const parts = this.naturalKeyParts;
    const slots = this.naturalKeySlots;
    for (let index = 0; index < slots.length; index += 1) {
      const slot = slots[index];
      if (!slot) {
        parts[index] = '';
        continue;
      }
      const value = this.stored[slot.index];
      const text = this.texts[slot.index];
      parts[index] =
        typeof value === 'string' && value.startsWith('date:') ? value : typeof text === 'string' ? text : '';
    }
    const invisible = parts.find((part) => INVISIBLE.test(part));
    if (invisible !== undefined) {
      const character = invisible.match(INVISIBLE)![0].codePointAt(0)!;
      this.report(this.lineNumber, 'invalidNaturalKey', {
        components: [...this.entry.naturalKey],
        value: invisible,
        problem: 'invisible',
        character: `U+${character.toString(16).toUpperCase().padStart(4, '0')}`,
      });
      return null;
    }
    let key: string;
    try {
      key =
        parts.length === 1 && parts[0] !== '' && !parts[0].startsWith('date:')
          ? escapeLabel(parts[0])
          : compositeKey(parts);
    } catch (thrown) {
      if (!(thrown instanceof LabelError)) throw thrown;
      this.report(this.lineNumber, 'invalidNaturalKey', {
        components: [...this.entry.naturalKey],
        value: thrown.text,
        problem: thrown.problem,
      });
      return null;
    }
    if (key === '') {
      this.report(this.lineNumber, 'invalidNaturalKey', {
        components: [...this.entry.naturalKey],
        value: '',
        problem: 'empty',
      });
      return null;
    }
    return key;
  }

  /** Reports a row whose whole key, its parents' included, is longer than the database can index. */
  private keyTooLong(hierarchicalKey: string, lineNumber: number): boolean {
    if (hierarchicalKey.length <= MAX_HIERARCHICAL_KEY_LENGTH) return false;
    this.report(lineNumber, 'invalidNaturalKey', {
      components: [...this.entry.naturalKey],
      value: `${hierarchicalKey.slice(0, 60)}…`,
      problem: 'pathTooLong',
      max: MAX_HIERARCHICAL_KEY_LENGTH,
    });
    return true;
  }

  /** The hierarchical key of the row's parent in another entry (the first OA_isParent component that holds one). */
  private parentPrefix(): string | null {
    for (const parent of this.entry.hierarchy.parents) {
      const value = this.storedOf(parent.component);
      if (typeof value === 'string' && value !== '' && this.links.some((link) => link.hierarchicalKey === value))
        return value;
    }
    return null;
  }

  /**
   * Tracks a row's keys for duplicates; answers whether the row is the first with them. A row repeating a key is
   * never given, valid or not: the file is refused at its end, and a batch holding the same key twice could not
   * be written meanwhile.
   */
  private trackRowKeys(naturalKey: string, hierarchicalKey: string, lineNumber: number): boolean {
    if (this.keyByNaturalKey) return this.rowKeys.meet(naturalKey, lineNumber);
    return this.rowKeys.meet(hierarchicalKey, lineNumber) && this.naturalKeys.meet(naturalKey, lineNumber);
  }

  /**
   * Lines sharing a hierarchical key: every line after the first is reported. The original reports
   * `duplicatedLineInReference` for data types too (corpus: condition_prelevements), so Terrain does.
   */
  private reportDuplicates(): void {
    const keyOf = (key: string) => (this.keyByNaturalKey ? joinHierarchicalKey(this.entry.name, key) : key);
    const repeats = [
      ...[...this.rowKeys.repeats()].map(([key, lines]) => ({ duplicateKey: keyOf(key), lines })),
      ...[...this.naturalKeys.repeats()].map(([naturalKey, lines]) => ({ duplicateKey: naturalKey, lines })),
    ];
    for (const { duplicateKey, lines } of repeats) {
      // A key filled down a whole column repeats on every line: each of its errors listing every line made the
      // report grow with the square of the lines (hundreds of megabytes), so each lists the first few and counts.
      const shown = lines.length > DUPLICATE_LINES_SHOWN ? [...lines.slice(0, DUPLICATE_LINES_SHOWN), '…'] : lines;
      for (const line of lines.slice(1))
        this.report(line, 'duplicatedLineInReference', {
          file: this.entry.name,
          lineNumber: line,
          otherLines: shown,
          lineCount: lines.length,
          duplicateKey,
        });
    }
  }

  // ---------------------------------------------------------------- time and scope

  /** Where the period starting at a date ends (the time scope's duration later); null for a date that does not parse. */
  private readonly endOfPeriod = memoized((from: string) => {
    const start = parseIsoLocalDateTime(from);
    return start && this.timeScopeLength ? toIsoLocalDateTime(addDuration(start, this.timeScopeLength)) : null;
  });

  private period(): CsvRow['period'] {
    const scope = this.timeScope;
    if (!scope || !this.timeScopeLength) return undefined;
    const from = isoOfStoredDate(this.storedOf(scope.component) ?? null);
    if (from === null) return undefined;
    const to = this.endOfPeriod(from);
    if (to === null) return undefined;
    const period = { from, to };
    const deposit = this.options.deposit;
    if (
      deposit &&
      ((deposit.from && compareIso(from, deposit.from) < 0) || (deposit.to && compareIso(from, deposit.to) > 0))
    ) {
      const text = this.textOf(scope.component);
      this.error(
        'timerangeoutofinterval',
        this.slotByKey.get(scope.component)?.target ?? { component: scope.component, column: undefined },
        {
          value: typeof text === 'string' ? text : from,
          from: deposit.from ?? null,
          to: deposit.to ?? null,
        },
        typeof text === 'string' ? text : from,
      );
    }
    return period;
  }

  private checkScope(): void {
    for (const [component, expected] of Object.entries(this.options.deposit!.scope!)) {
      const value = this.storedOf(component);
      const keys = Array.isArray(value) ? value : [value];
      const inside =
        keys.length > 0 &&
        keys.every((key) => typeof key === 'string' && key !== '' && isUnderHierarchicalKey(key, expected));
      if (inside) continue;
      const target = this.slotByKey.get(component)?.target ?? { component, column: undefined };
      const text = Array.isArray(value)
        ? value.join(',')
        : typeof value === 'string'
          ? value
          : JSON.stringify(value ?? null);
      this.error('badauthorizationscopeforrepository', target, { value: text, expected }, text);
    }
  }

  // ---------------------------------------------------------------- whole file

  /** Recursive and self-referencing entries: parents, hierarchical keys and self references once every row is known. */
  private resolveDeferredRows(): void {
    const stored = this.storedRows(this.entry.name);
    const missingParents = new Set<string>();
    const { parentOf, byNaturalKey } = this.findRecursiveParents(stored, missingParents);
    const byHierarchicalKey = this.indexByHierarchicalKey(stored, parentOf, missingParents);
    this.reportMissingParents(missingParents, byNaturalKey);
    this.resolveSelfReferences(byHierarchicalKey);
    this.releaseDeferredRows();
  }

  /**
   * Each row's recursive parent, looked for by natural key among the stored rows and the file's rows. The file's rows
   * have no hierarchical key yet, so each stands in the index as a candidate that `pendingOf` leads back to. Under
   * `__ORDER_STRICT__` the file promises parents before children: only the rows of earlier lines are candidates, and
   * a parent not found is refused at the child's line, as the original does. Otherwise any row of the file may be
   * the parent, and the parents not found go to `missingParents` (escaped as keys) for one summary error.
   */
  private findRecursiveParents(
    stored: readonly StoredRow[],
    missingParents: Set<string>,
  ): { parentOf: Map<PendingRow, PendingRow | StoredRow>; byNaturalKey: ReferenceIndex } {
    const byNaturalKey = new ReferenceIndex(this.entry.name, stored);
    const pendingOf = new Map<StoredRow, PendingRow>();
    const parentOf = new Map<PendingRow, PendingRow | StoredRow>();
    const addCandidate = (pending: PendingRow) => {
      const candidate: StoredRow = {
        naturalKey: pending.row.naturalKey,
        hierarchicalKey: `\u0000${pending.row.naturalKey}`,
        values: pending.row.values,
      };
      pendingOf.set(candidate, pending);
      byNaturalKey.add(candidate);
    };
    const inFileOrder = this.entry.hierarchy.orderStrict === true;
    const withKeys = this.pending.filter((pending) => pending.row.naturalKey !== '');
    if (!inFileOrder) withKeys.forEach(addCandidate);
    const recursive = this.entry.hierarchy.recursiveComponent;
    for (const pending of withKeys) {
      if (recursive && pending.recursiveText !== '') {
        const found = byNaturalKey.resolve(pending.recursiveText);
        if (found) parentOf.set(pending, pendingOf.get(found) ?? found);
        else if (inFileOrder) {
          // A refused row is no candidate: its children are refused in turn, as in the original.
          this.refuseParentNotAbove(pending, recursive, byNaturalKey);
          continue;
        } else this.missParent(pending, missingParents);
      }
      if (inFileOrder) addCandidate(pending);
    }
    return { parentOf, byNaturalKey };
  }

  /** Where the references to the entry itself resolve: the stored rows and the file's rows, by hierarchical key. */
  private indexByHierarchicalKey(
    stored: readonly StoredRow[],
    parentOf: Map<PendingRow, PendingRow | StoredRow>,
    missingParents: Set<string>,
  ): ReferenceIndex {
    const index = new ReferenceIndex(this.entry.name, stored);
    const computing = new Set<PendingRow>();
    for (const pending of this.pending) {
      if (pending.row.naturalKey === '') continue;
      const key = this.hierarchicalKeyOf(pending, parentOf, computing);
      if (key !== null)
        index.add({ naturalKey: pending.row.naturalKey, hierarchicalKey: key, values: pending.row.values });
      // A parent on a loop (or under one) has no key: the original counts it as missing too.
      else this.missParent(pending, missingParents);
    }
    return index;
  }

  /**
   * A row's key follows the chain of its parents; null when a parent has none, or when the chain comes back to a row
   * being computed (`computing`): a loop has no root, so it counts as a missing parent.
   */
  private hierarchicalKeyOf(
    pending: PendingRow,
    parentOf: Map<PendingRow, PendingRow | StoredRow>,
    computing: Set<PendingRow>,
  ): string | null {
    if (pending.row.hierarchicalKey !== '') return pending.row.hierarchicalKey;
    if (pending.row.naturalKey === '') return null;
    if (computing.has(pending)) return null;
    computing.add(pending);
    const parent = parentOf.get(pending);
    let prefix: string | null = pending.parentPrefix;
    if (parent) prefix = 'row' in parent ? this.hierarchicalKeyOf(parent, parentOf, computing) : parent.hierarchicalKey;
    computing.delete(pending);
    if (parent && prefix === null) return null;
    pending.row.hierarchicalKey = joinHierarchicalKey(this.entry.name, pending.row.naturalKey, prefix);
    return pending.row.hierarchicalKey;
  }

  private missParent(pending: PendingRow, missingParents: Set<string>): void {
    pending.valid = false;
    missingParents.add(escapedKey(pending.recursiveText));
  }

  /** The original's summary of a recursive file whose parents are missing: one error, no line, every parent named. */
  private reportMissingParents(missingParents: ReadonlySet<string>, known: ReferenceIndex): void {
    if (missingParents.size === 0) return;
    const recursive = this.entry.hierarchy.recursiveComponent;
    this.report(
      -1,
      'missingrecursiveParentReferenceWithComponent',
      {
        component: recursive,
        refType: this.entry.name,
        referenceValues: known.sampleNaturalKeys(KNOWN_REFERENCES_IN_ERRORS),
        values: [...missingParents],
      },
      recursive ? this.slotByKey.get(recursive)?.target.column : undefined,
    );
  }

  /** Under `__ORDER_STRICT__`, a parent not on an earlier line: the reference checker's error, at the child's line. */
  private refuseParentNotAbove(pending: PendingRow, recursive: string, known: ReferenceIndex): void {
    pending.valid = false;
    const target =
      pending.deferred?.find((deferred) => deferred.target.component === recursive)?.target ??
      this.slotByKey.get(recursive)?.target ??
      ({ component: recursive, column: undefined } satisfies CheckTarget);
    this.lineNumber = pending.row.lineNumber;
    this.error(
      'invalidReferenceWithComponent',
      target,
      {
        value: pending.recursiveText,
        refType: this.entry.name,
        referenceValues: known.sampleNaturalKeys(REFERENCE_SAMPLE),
      },
      pending.recursiveText,
    );
  }

  /** The recursive component and every other reference to the entry itself now resolve to hierarchical keys. */
  private resolveSelfReferences(index: ReferenceIndex): void {
    for (const pending of this.pending) {
      // Errors and links (the CheckSink side) are those of the row whose references are resolved.
      this.lineNumber = pending.row.lineNumber;
      this.links = pending.row.links;
      this.rowErrors = 0;
      for (const deferred of pending.deferred ?? []) this.resolveSelfReference(pending.row, deferred, index);
      if (this.rowErrors > 0) pending.valid = false;
    }
  }

  private resolveSelfReference(row: CsvRow, deferred: Deferred, index: ReferenceIndex): void {
    const found = index.resolve(deferred.text);
    if (!found) {
      // A recursive parent not found was reported as a missing parent already.
      if (deferred.target.component === this.entry.hierarchy.recursiveComponent) return;
      // On a device without (all of) the entry's stored rows, a row stored earlier may be the one named: the server,
      // which checks against every stored row, says; the text is kept as it was written.
      const unchecked = this.environment.withoutCopy(this.entry.name)
        ? 'referenceNotCheckedHere'
        : this.environment.partCopy(this.entry.name)
          ? 'referenceOutsideReadPart'
          : null;
      if (unchecked) {
        this.note(unchecked, deferred.target, deferred.text, this.entry.name);
        return;
      }
      this.error(
        'invalidReferenceWithComponent',
        deferred.target,
        { value: deferred.text, refType: this.entry.name, referenceValues: index.sampleNaturalKeys(REFERENCE_SAMPLE) },
        deferred.text,
      );
      return;
    }
    this.link(deferred.target, this.entry.name, found.hierarchicalKey);
    const values = row.values;
    const key = deferred.target.component;
    if (key in values) {
      if (deferred.index === null) values[key] = found.hierarchicalKey;
      else if (Array.isArray(values[key])) (values[key] as StoredValue[])[deferred.index] = found.hierarchicalKey;
    }
  }

  /** Rows with a hierarchical key count for duplicates, errors or not; only the valid ones are given. */
  private releaseDeferredRows(): void {
    for (const pending of this.pending) {
      if (pending.row.hierarchicalKey === '') continue;
      if (this.keyTooLong(pending.row.hierarchicalKey, pending.row.lineNumber)) continue;
      const first = this.trackRowKeys(pending.row.naturalKey, pending.row.hierarchicalKey, pending.row.lineNumber);
      if (first && pending.valid && this.collectRows) this.ready.push(pending.row);
    }
    this.pending.length = 0;
  }

  // ---------------------------------------------------------------- sources

  /** The stored rows of a reference, then those of uploads still waiting on the device (later rows win). */
  private storedRows(name: string): readonly StoredRow[] {
    let stored: readonly StoredRow[];
    try {
      stored = this.options.references.rows(name) ?? [];
    } catch {
      stored = [];
    }
    const queued = this.options.device?.queuedRows[name];
    return queued?.length ? [...stored, ...queued] : stored;
  }

  private reference(name: string): ReferenceIndex {
    let index = this.referenceIndexes.get(name);
    if (!index) {
      index = new ReferenceIndex(name, this.storedRows(name));
      this.referenceIndexes.set(name, index);
    }
    return index;
  }

  // ---------------------------------------------------------------- CheckSink

  error(code: CsvErrorCode, target: CheckTarget, params: Record<string, unknown>, value: string): void {
    this.rowErrors += 1;
    this.errors.add({
      lineNumber: this.lineNumber,
      code,
      params: { component: target.component, ...target.extra, ...params },
      column: target.column,
      value,
    });
  }

  note(code: CsvNoteCode, target: CheckTarget, value: string, refType?: string): void {
    this.notes.add({
      code,
      lineNumber: this.lineNumber,
      ...(refType === undefined ? {} : { refType }),
      component: target.component,
      column: target.column,
      value,
    });
  }

  link(target: CheckTarget, reference: string, hierarchicalKey: string): void {
    if (this.links === NO_LINKS) this.links = [];
    this.links.push({ component: target.component, reference, hierarchicalKey });
  }

  deferSelfReference(target: CheckTarget, text: string, index: number | null): StoredValue {
    (this.deferred ??= []).push({ target, text, index });
    return text;
  }

  evaluateCheck(checker: Extract<Checker, { kind: 'expression' }>, target: CheckTarget, value: string): boolean | null {
    const outcome = this.runner.evaluate(checker.expression, this.datum ?? {}, this.currentFields, this.lineNumber, {
      component: target.component,
      ...target.extra,
    });
    if (!outcome.ok) {
      this.rowErrors += 1;
      this.errors.add({
        lineNumber: this.lineNumber,
        code: outcome.code,
        params: outcome.params,
        column: target.column,
        value,
      });
      return null;
    }
    return outcome.value === true;
  }

  private report(
    lineNumber: number,
    code: CsvErrorCode,
    params: Record<string, unknown>,
    column?: string,
    value?: string,
  ): void {
    if (lineNumber === this.lineNumber) this.rowErrors += 1;
    const error: CsvError = { lineNumber, code, params: shownParams(params) };
    if (column !== undefined) error.column = column;
    if (value !== undefined) error.value = shownText(value);
    this.errors.add(error);
  }
}

/** Characters of a value an error repeats: a cell may hold half a million, and a report a thousand errors. */
const TEXT_SHOWN = 300;

const shownText = (text: string) => (text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}…` : text);

/** An error's values as it repeats them: long texts cut, alone or in lists. */
function shownParams(params: Record<string, unknown>): Record<string, unknown> {
  let cut: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(params)) {
    const shown =
      typeof value === 'string'
        ? shownText(value)
        : Array.isArray(value) && value.some((item) => typeof item === 'string' && item.length > TEXT_SHOWN)
          ? value.map((item: unknown) => (typeof item === 'string' ? shownText(item) : item))
          : value;
    if (shown !== value) (cut ??= { ...params })[key] = shown;
  }
  return cut ?? params;
}

function isBlank(fields: readonly string[]): boolean {
  for (const field of fields) if (javaTrim(field) !== '') return false;
  return true;
}

function escapedKey(text: string): string {
  try {
    return compositeKey([text]);
  } catch {
    return text;
  }
}
