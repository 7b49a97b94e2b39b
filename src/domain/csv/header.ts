/**
 * Mapping of the header line to the components of an entry (§7, §8): basic components claim the columns whose
 * trimmed header equals theirs, dynamic components the columns `<prefix><value of a reference row>`, pattern
 * components the columns left whose header matches their regex, each followed by its adjacent columns. Everything
 * that goes wrong here is a header error on the header line, and the data lines are then not read.
 */
import type { CsvMappingPlan, DataEntry, PatternBinding } from '../configuration/model';
import { LabelError, escapeLabel, javaTrim as trimKey } from '../keys';
import { runnableRegex } from '../regex';
import type { CsvErrorCode } from './errors';
import type { ReferenceIndex } from './references';

export interface PatternMatch {
  column: number;
  header: string;
  /** Capture groups 1…n ('' for a group that did not take part). */
  groups: string[];
  /** Column of each adjacent of the binding, in order; -1 when absent. */
  adjacentColumns: number[];
}

export interface ColumnMapping {
  /** Number of columns the header defines (trailing empty header cells excluded). */
  columnCount: number;
  /** Basic component key → its column, for the components whose column is there. */
  basicColumns: Map<string, number>;
  /** Dynamic component key → its columns and the reference row each stands for. */
  dynamicColumns: Map<string, Array<{ column: number; header: string; hierarchicalKey: string }>>;
  /** Pattern component key → the columns it matched, in file order. */
  patternMatches: Map<string, PatternMatch[]>;
  /** Header text of every column (trimmed). */
  headers: string[];
  errors: Array<{ code: CsvErrorCode; params: Record<string, unknown> }>;
}

/** Java's String.trim (cells and headers are trimmed as the original does); a fast check first, cells rarely need it. */
export function javaTrim(text: string): string {
  const length = text.length;
  if (length === 0 || (text.charCodeAt(0) > 32 && text.charCodeAt(length - 1) > 32)) return text;
  return trimKey(text);
}

function escapedOrSelf(text: string): string {
  try {
    return escapeLabel(text);
  } catch (thrown) {
    if (thrown instanceof LabelError) return text;
    throw thrown;
  }
}

/** The text a reference row's value gives a dynamic column header (`<prefix><text>`). */
export function dynamicHeaderText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export interface HeaderInput {
  entry: DataEntry;
  cells: readonly string[];
  headerLine: number;
  /** Columns (0-based) that a constant reads on the header line itself: they are not headers. */
  constantColumns: ReadonlySet<number>;
  reference(name: string): ReferenceIndex;
}

export function mapHeader({ entry, cells, headerLine, constantColumns, reference }: HeaderInput): ColumnMapping {
  const plan: CsvMappingPlan = entry.csv;
  const headers = cells.map(javaTrim);
  let columnCount = headers.length;
  while (columnCount > 0 && headers[columnCount - 1] === '' && !constantColumns.has(columnCount - 1)) columnCount -= 1;
  headers.length = columnCount;

  const mapping: ColumnMapping = {
    columnCount,
    basicColumns: new Map(),
    dynamicColumns: new Map(),
    patternMatches: new Map(),
    headers,
    errors: [],
  };
  const claimed: boolean[] = headers.map((_, column) => constantColumns.has(column));
  const adjacent: boolean[] = headers.map(() => false);
  const error = (code: CsvErrorCode, params: Record<string, unknown>) => mapping.errors.push({ code, params });

  headers.forEach((header, column) => {
    if (header === '' && !claimed[column]) {
      error('emptyHeader', { headerLine, columnNumber: column + 1 });
      claimed[column] = true;
    }
  });

  // Basic components first: the first unclaimed column with their header.
  for (const binding of plan.columns) {
    const column = headers.findIndex((header, index) => !claimed[index] && header === binding.header);
    if (column < 0) continue;
    claimed[column] = true;
    mapping.basicColumns.set(binding.component, column);
  }

  // Dynamic components: one column per row of their reference.
  for (const dynamic of plan.dynamics) {
    const byHeader = new Map<string, string>();
    const byEscapedHeader = new Map<string, string>();
    for (const row of reference(dynamic.reference).allRows()) {
      const text = dynamicHeaderText(row.values[dynamic.referenceComponent]);
      byHeader.set(dynamic.headerPrefix + text, row.hierarchicalKey);
      byEscapedHeader.set(escapedOrSelf(text), row.hierarchicalKey);
    }
    const columns: Array<{ column: number; header: string; hierarchicalKey: string }> = [];
    const used = new Set<string>();
    headers.forEach((header, column) => {
      if (claimed[column] || !header.startsWith(dynamic.headerPrefix)) return;
      const hierarchicalKey =
        byHeader.get(header) ?? byEscapedHeader.get(escapedOrSelf(header.slice(dynamic.headerPrefix.length)));
      if (hierarchicalKey === undefined || used.has(hierarchicalKey)) return;
      used.add(hierarchicalKey);
      claimed[column] = true;
      columns.push({ column, header, hierarchicalKey });
    });
    mapping.dynamicColumns.set(dynamic.component, columns);
  }

  // Pattern components on the columns left, each matched column followed by its adjacents.
  for (const binding of plan.patterns) matchPattern(binding, headers, claimed, adjacent, mapping, error);

  // Under OA_allowUnexpectedColumns the original ignores undeclared columns, repeated or not: only a header some
  // component claimed counts as repeated there.
  const declared = new Set(headers.filter((_, column) => claimed[column] && !constantColumns.has(column)));
  // Sets, not lists: a header of tens of thousands of repeated names was looked up in them once per column.
  const duplicated = new Set<string>();
  const seen = new Set<string>();
  headers.forEach((header, column) => {
    if (header === '' || adjacent[column]) return;
    if (plan.allowUnexpectedColumns && !declared.has(header)) return;
    if (seen.has(header)) duplicated.add(header);
    else seen.add(header);
  });
  if (duplicated.size > 0) error('duplicatedHeaders', { duplicatedHeaders: shownHeaders([...duplicated]) });

  const unknown: string[] = [];
  headers.forEach((header, column) => {
    if (claimed[column] || duplicated.has(header)) return;
    if (plan.allowUnexpectedColumns) return;
    const dynamic = plan.dynamics.find((item) => item.headerPrefix !== '' && header.startsWith(item.headerPrefix));
    if (dynamic) {
      error('headerColumnPatternNotMatching', {
        component: dynamic.component,
        headerPrefix: dynamic.headerPrefix,
        refType: dynamic.reference,
        actualHeaderColumn: header,
        columnNumber: column + 1,
      });
      return;
    }
    unknown.push(header);
  });
  const absent = plan.columns.filter((binding) => !mapping.basicColumns.has(binding.component));
  if (unknown.length > 0) {
    error('invalidHeaders', {
      expectedColumns: plan.columns.map((binding) => binding.header),
      actualColumns: shownHeaders(headers.filter((header) => header !== '')),
      missingComponents: absent.map((binding) => binding.header),
      unknownComponents: shownHeaders(unknown),
    });
  }
  const mandatory = absent.filter((binding) => binding.mandatory || entry.naturalKey.includes(binding.component));
  if (mandatory.length > 0)
    error('missingMandatoryColumns', { missingMandatoryColumns: mandatory.map((binding) => binding.header) });
  return mapping;
}

function matchPattern(
  binding: PatternBinding,
  headers: readonly string[],
  claimed: boolean[],
  adjacent: boolean[],
  mapping: ColumnMapping,
  error: (code: CsvErrorCode, params: Record<string, unknown>) => void,
): void {
  const regex = runnableRegex(binding.headerPattern);
  const groupCount = binding.headerPattern.groupCount;
  const matches: PatternMatch[] = [];
  for (let column = 0; column < headers.length; column += 1) {
    if (claimed[column]) continue;
    const match = regex.matchGroups(headers[column]);
    if (!match) continue;
    claimed[column] = true;
    const groups: string[] = [];
    for (let group = 1; group <= groupCount; group += 1) groups.push(match[group] ?? '');
    const adjacentColumns: number[] = [];
    binding.adjacents.forEach((item, index) => {
      const expected = item.headerTemplate.replace(
        /\{\$(\d+)\}/g,
        (_, group: string) => groups[Number(group) - 1] ?? '',
      );
      const at = column + 1 + index;
      if (at < headers.length && !claimed[at] && headers[at] === expected) {
        claimed[at] = true;
        adjacent[at] = true;
        adjacentColumns.push(at);
        return;
      }
      adjacentColumns.push(-1);
      if (item.mandatory) {
        error('unexpectedHeaderColumn', {
          component: item.storedKey,
          expectedHeaderColumn: expected,
          actualHeaderColumn: at < headers.length ? headers[at] : '',
          columnNumber: at + 1,
        });
      }
    });
    matches.push({ column, header: headers[column], groups, adjacentColumns });
  }
  mapping.patternMatches.set(binding.component, matches);
}

/** Headers an error names, and characters of each: then `…`. */
const HEADERS_SHOWN = 50;
const HEADER_CHARACTERS_SHOWN = 100;

/**
 * The headers of the file an error names, bounded: a header of thousands of cells (a file whose lines were read as
 * one) had its error repeat them all, megabytes, in a message.
 */
function shownHeaders(headers: readonly string[]): string[] {
  const shown = headers
    .slice(0, HEADERS_SHOWN)
    .map((header) =>
      header.length > HEADER_CHARACTERS_SHOWN ? `${header.slice(0, HEADER_CHARACTERS_SHOWN)}…` : header,
    );
  return headers.length > HEADERS_SHOWN ? [...shown, '…'] : shown;
}
