/**
 * The readable export ("to read"): one column per component, titled with its export title, so that a person, a
 * spreadsheet or pandas can tell every column apart. The file to load again is written by `bundle/entryCsv` instead;
 * this one never has to be loaded.
 */
import type { Component, DynamicComponent } from '../configuration/model';
import { cellText } from './cellText';
import { groupsOf } from './patternGroups';

/** A column of the readable export: its export title, and what tells it apart from others of the same title. */
export interface TitledColumn {
  title: string;
  /** The column's header in an uploaded file, when it has one. */
  importHeader?: string;
  /** The component key: unique in the entry. */
  key: string;
}

/**
 * Titles a reader can tell apart: a title shared by several columns (`Site` for the code and the French and English
 * names) is followed by the column's import header, or its component key when that is not enough.
 */
export function uniqueTitles(columns: readonly TitledColumn[]): string[] {
  const count = (titles: readonly string[], title: string) => titles.filter((other) => other === title).length;
  const titles = columns.map((column) => column.title);
  const suffixed = columns.map((column, index) =>
    count(titles, column.title) > 1 && column.importHeader !== undefined && column.importHeader !== column.title
      ? `${column.title} (${column.importHeader})`
      : titles[index],
  );
  return columns.map((column, index) =>
    count(suffixed, suffixed[index]) > 1 ? `${column.title} (${column.key})` : suffixed[index],
  );
}

/**
 * The cell of a dynamic or pattern component as a JSON document a reader understands: a dynamic component as an
 * object keyed by the headers of its columns (`ps_altitude`, as the uploaded file had them), a pattern component as
 * an array of the columns it matched, each with its header, value, adjacents and qualifiers by name. Values are
 * written as text like every other cell (references by natural key, dates in their pattern). Other components are
 * written as `cellText` writes them.
 */
export function readableCell(
  component: Component,
  value: unknown,
  dynamicHeader: (component: DynamicComponent, hierarchicalKey: string) => string,
): string {
  if (value === null || value === undefined) return '';
  if (component.kind === 'dynamic' && typeof value === 'object' && !Array.isArray(value)) {
    // In the order of the reference rows' keys, as the file to load again has its columns (not the database's).
    const entries = Object.keys(value)
      .sort()
      .map((key) => [
        dynamicHeader(component, key),
        cellText((value as Record<string, unknown>)[key], component.checker),
      ]);
    return JSON.stringify(Object.fromEntries(entries));
  }
  if (component.kind === 'pattern' && Array.isArray(value)) {
    const texts = groupsOf(value).map((group) => ({
      column: String(group.header ?? ''),
      value: cellText(group.value, component.checker),
      adjacents: Object.fromEntries(
        component.adjacents.map((adjacent) => [
          adjacent.name,
          cellText(group.adjacents?.[adjacent.name], adjacent.checker),
        ]),
      ),
      qualifiers: Object.fromEntries(
        component.qualifiers.map((qualifier) => [
          qualifier.name,
          cellText(group.qualifiers?.[qualifier.name], qualifier.checker),
        ]),
      ),
    }));
    return JSON.stringify(texts);
  }
  return cellText(value, component.checker);
}
