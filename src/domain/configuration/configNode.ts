/**
 * The YAML document as the validators see it: plain maps, lists and scalars that remember where they came from.
 * Validators never touch the `yaml` library's own nodes; this small tree is what both single files and merged zip
 * entries produce, and every error is located from the `source` and `offset` of the node it is about.
 */

/** One YAML text: its name (the upload or the zip entry) and how to turn an offset into a line and a column. */
export interface SourceText {
  readonly name: string;
  /** Whether the name should be shown with positions (true for zip entries, whose names tell files apart). */
  readonly isArchiveEntry: boolean;
  linePosition(offset: number): { line: number; column: number };
}

interface NodeBase {
  readonly source: SourceText;
  /** Offset of the node's first character in its source. */
  readonly offset: number;
}

export interface MapEntry {
  readonly key: string;
  readonly keyOffset: number;
  readonly value: ConfigNode;
}

export interface MapNode extends NodeBase {
  readonly kind: 'map';
  readonly entries: readonly MapEntry[];
  readonly byKey: ReadonlyMap<string, MapEntry>;
}

export interface ListNode extends NodeBase {
  readonly kind: 'list';
  readonly items: readonly ConfigNode[];
}

/** The YAML 1.2 core-schema type of a scalar; `null` covers `~`, `null` and an empty value (`key:`). */
export type ScalarType = 'string' | 'integer' | 'float' | 'boolean' | 'null';

export interface ScalarNode extends NodeBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  readonly value: string | number | boolean | null;
  /**
   * The value as text the way the author wrote it: a plain `1.10` stays `1.10` (not `1.1`), `2.0.1` stays a string.
   * Where the format expects text, a number is accepted and read through this.
   */
  readonly text: string;
}

export type ConfigNode = MapNode | ListNode | ScalarNode;

export function mapNode(source: SourceText, offset: number, entries: MapEntry[]): MapNode {
  const byKey = new Map<string, MapEntry>();
  for (const entry of entries) byKey.set(entry.key, entry);
  return { kind: 'map', source, offset, entries, byKey };
}

export function isNull(node: ConfigNode | undefined): boolean {
  return node === undefined || (node.kind === 'scalar' && node.type === 'null');
}

/** Where a node is, in the terms of the error object. */
export interface SourceLocation {
  line: number;
  column: number;
  file?: string;
}

export function locate(source: SourceText, offset: number): SourceLocation {
  const { line, column } = source.linePosition(offset);
  return source.isArchiveEntry ? { line, column, file: source.name } : { line, column };
}
