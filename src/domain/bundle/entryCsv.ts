/**
 * Stored rows written back as a CSV file the engine reads into the very same values: the inverse of the CSV engine
 * for one data entry. Used by the upload kit (templates) and the backup (every row), so that a backup is also a
 * bulk-upload kit and its restore goes through the engine like any upload.
 *
 * A file gives every row the same lines above the data (constants) and the same header (dynamic and pattern
 * columns), so rows are written in groups of one "shape" each: most entries have one shape, an entry loaded from
 * files with different constants or columns gets one file per shape.
 */
import { compileJavaDatePattern } from '../configuration/javaDatePattern';
import type { Checker, DataEntry, DynamicComponent, PatternComponent } from '../configuration/model';
import { runnableRegex } from '../regex';
import { cellText } from '../rows/cellText';
import { groupsOf } from '../rows/patternGroups';
import { storedChecker, type RowTexts, type WrittenRow } from '../rows/rowTexts';

/** What the lines above the data and the header of a file depend on, for one stored row. */
export interface RowShape {
  /** Constant component → its cell text. */
  constants: Record<string, string>;
  /** Dynamic component → hierarchical keys of the reference rows it has a column for (sorted). */
  dynamics: Record<string, string[]>;
  /** Pattern component → headers of its matched columns, in file order. */
  patterns: Record<string, string[]>;
}

/** Entries without constant, dynamic or pattern components give every row the same shape. */
export const hasSingleShape = (entry: DataEntry) =>
  !entry.components.some((c) => c.kind === 'constant' || c.kind === 'dynamic' || c.kind === 'pattern');

export function shapeOf(entry: DataEntry, values: Record<string, unknown>, texts: RowTexts): RowShape {
  const shape: RowShape = { constants: {}, dynamics: {}, patterns: {} };
  for (const component of entry.components) {
    const value = values[component.key];
    if (component.kind === 'constant') shape.constants[component.key] = texts.cell(component, value);
    else if (component.kind === 'dynamic')
      shape.dynamics[component.key] = value && typeof value === 'object' ? Object.keys(value).sort() : [];
    else if (component.kind === 'pattern')
      shape.patterns[component.key] = groupsOf(value).map((group) => String(group.header ?? ''));
  }
  return shape;
}

/** Equal for rows that can share a file. */
export const shapeKey = (shape: RowShape) => JSON.stringify(shape);

export interface EntryCsvOptions {
  /** Header of a dynamic component's column for one reference row: the prefix and the row's value. */
  dynamicHeader(component: DynamicComponent, hierarchicalKey: string): string;
  /** How stored rows are written as texts: needed to write data lines (templates have none). */
  texts?: RowTexts;
}

interface Column {
  header: string;
  /** The cell of a row, given its values and the texts of its written components (`RowTexts.row`). */
  cell(values: Record<string, unknown>, texts: Record<string, string>): string;
  /** The checker examples are made for (pattern columns get none: their headers come from the file). */
  example?: Checker | null;
}

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

export class EntryCsvWriter {
  private readonly cells: Array<Column | null>;
  private readonly headLines: string[][];

  constructor(
    readonly entry: DataEntry,
    readonly shape: RowShape,
    private readonly options: EntryCsvOptions,
  ) {
    const columns: Column[] = [];
    const components = new Map(entry.components.map((component) => [component.key, component]));
    for (const binding of entry.csv.columns) {
      const component = components.get(binding.component);
      const checker = component ? storedChecker(entry, component) : null;
      columns.push({ header: binding.header, cell: (_, texts) => texts[binding.component] ?? '', example: checker });
    }
    for (const component of entry.components) {
      if (component.kind === 'dynamic') {
        for (const key of shape.dynamics[component.key] ?? []) {
          columns.push({
            header: options.dynamicHeader(component, key),
            cell: (values) =>
              cellText((values[component.key] as Record<string, unknown> | undefined)?.[key], component.checker),
            example: component.checker,
          });
        }
      }
    }
    for (const component of entry.components)
      if (component.kind === 'pattern')
        columns.push(...patternColumns(entry, component, shape.patterns[component.key] ?? []));

    // Constants read on the header line sit in their own column: data lines leave it empty.
    const cells: Array<Column | null> = [...columns];
    const headerConstants = entry.csv.constants
      .filter((constant) => constant.zone === 'header' && 'number' in constant.column)
      .sort((a, b) => (a.column as { number: number }).number - (b.column as { number: number }).number);
    for (const constant of headerConstants) {
      const at = (constant.column as { number: number }).number - 1;
      while (cells.length < at) cells.push(null);
      cells.splice(at, 0, null);
    }
    this.cells = cells;

    const headerLine = Math.max(1, entry.csv.headerLine);
    const firstDataLine = Math.max(headerLine + 1, entry.csv.firstDataLine);
    const lines: string[][] = Array.from({ length: firstDataLine - 1 }, () => []);
    lines[headerLine - 1] = cells.map((column) => column?.header ?? '');
    for (const constant of entry.csv.constants) {
      const line = lines[constant.row - 1];
      if (!line) continue;
      const at =
        'number' in constant.column
          ? constant.column.number - 1
          : lines[headerLine - 1].indexOf(constant.column.header);
      if (at < 0 || (constant.zone === 'header' && !('number' in constant.column))) continue;
      while (line.length <= at) line.push('');
      line[at] = shape.constants[constant.component] ?? '';
    }
    this.headLines = lines;
  }

  /** Every line above the first data line (the header among them), each ended by a line feed. */
  head(): string {
    return this.headLines.map((cells) => `${cells.map(quote).join(this.entry.csv.separator)}\n`).join('');
  }

  /** One data line; `rowTexts` when the texts change from page to page (an export reading a large reference). */
  line(row: WrittenRow, rowTexts: RowTexts | undefined = this.options.texts): string {
    if (!rowTexts) throw new Error('EntryCsvWriter: data lines need the texts option');
    const texts = rowTexts.row(row);
    return `${this.cells.map((column) => quote(column ? column.cell(row.values, texts) : '')).join(this.entry.csv.separator)}\n`;
  }

  /** A line of examples, one per column. */
  exampleLine(words: ExampleWords): string {
    const examples = this.cells.map((column) =>
      column && column.example !== undefined ? exampleCell(column.example, words) : '',
    );
    return `${examples.map(quote).join(this.entry.csv.separator)}\n`;
  }
}

/** A pattern component's columns for the headers of one shape, each followed by its adjacents. */
function patternColumns(entry: DataEntry, component: PatternComponent, headers: readonly string[]): Column[] {
  const binding = entry.csv.patterns.find((pattern) => pattern.component === component.key);
  if (!binding) return [];
  const regex = runnableRegex(binding.headerPattern);
  const columns: Column[] = [];
  headers.forEach((header, index) => {
    const group = (values: Record<string, unknown>) => groupsOf(values[component.key])[index];
    columns.push({ header, cell: (values) => cellText(group(values)?.value, component.checker) });
    const match = regex.matchGroups(header);
    const captured = (n: number) => (match ? (match[n] ?? '') : '');
    binding.adjacents.forEach((item) => {
      const adjacent = component.adjacents.find((a) => a.storedKey === item.storedKey);
      if (!adjacent) return;
      columns.push({
        header: item.headerTemplate.replace(/\{\$(\d+)\}/g, (_, n: string) => captured(Number(n))),
        cell: (values) => cellText(group(values)?.adjacents?.[adjacent.name], adjacent.checker),
      });
    });
  });
  return columns;
}

/** Texts for the example line that depend on the reader's language or on stored rows. */
export interface ExampleWords {
  /** For a free text. */
  text: string;
  /** A natural key of a stored row of the reference, when there is one; the reference's name otherwise. */
  reference(name: string): string;
}

const EXAMPLE_DATE = { year: 2024, month: 1, day: 31, hour: 13, minute: 45, second: 0, nano: 0 };

/** A value that the checker accepts in most configurations (a regular expression is not turned into an example). */
export function exampleCell(checker: Checker | null, words: ExampleWords): string {
  switch (checker?.kind) {
    case 'date': {
      const compiled = compileJavaDatePattern(checker.pattern);
      return compiled.ok ? compiled.pattern.format(EXAMPLE_DATE) : '';
    }
    case 'integer':
      return String(within(1, checker.min, checker.max));
    case 'float':
      return String(within(1.5, checker.min, checker.max));
    case 'boolean':
      return 'true';
    case 'reference':
      return words.reference(checker.reference);
    default:
      return words.text;
  }
}

const within = (value: number, min: number | null, max: number | null) =>
  min !== null && value < min ? min : max !== null && value > max ? max : value;

/** The shape of a template: example constants, one column per dynamic key given, no pattern column. */
export function templateShape(
  entry: DataEntry,
  words: ExampleWords,
  dynamicKeys: (component: DynamicComponent) => string[],
): RowShape {
  const shape: RowShape = { constants: {}, dynamics: {}, patterns: {} };
  for (const component of entry.components) {
    if (component.kind === 'constant') shape.constants[component.key] = exampleCell(component.checker, words);
    else if (component.kind === 'dynamic') shape.dynamics[component.key] = dynamicKeys(component);
  }
  return shape;
}
