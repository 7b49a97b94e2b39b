import { isNull, type ConfigNode } from './configNode';
import type { ValidationContext } from './context';
import type { ConstantBinding } from './model';
import { childPath } from './problems';
import { checkSection } from './sections';
import type { EntryLayout } from './validateComponents';
import { readInteger, readMap, readText } from './values';

const TARGET_RULE = { mandatory: ['OA_rowNumber'], anyOf: ['OA_columnName', 'OA_columnNumber'] };

/**
 * `OA_importHeaderTarget` of a constant component (§7.6): the cell above the data that holds its value. Rows are
 * 1-based and must come before the first data line; a cell above the header needs a column number, since its
 * column has no header to be found by.
 */
export function readConstantTarget(
  node: ConfigNode | undefined,
  path: string,
  layout: EntryLayout,
  context: ValidationContext,
): Omit<ConstantBinding, 'component'> | undefined {
  const { problems } = context;
  const map = readMap(node, path, problems);
  if (!map) {
    if (node !== undefined && isNull(node)) problems.report('MISSING_REQUIRED_VALUE', path, {}, node);
    return undefined;
  }
  if (!checkSection(map, TARGET_RULE, path, problems)) return undefined;

  const rowPath = childPath(path, 'OA_rowNumber');
  const rowNode = map.byKey.get('OA_rowNumber')!.value;
  if (isNull(rowNode)) {
    problems.report('MISSING_CONSTANT_IMPORT_HEADER_ROW_NUMBER', rowPath, {}, rowNode);
    return undefined;
  }
  const row = readInteger(rowNode, rowPath, problems);
  if (row === undefined) return undefined;
  if (row < 1) {
    problems.report('NEGATIVE_CONSTANT_IMPORT_HEADER_ROW_NUMBER', rowPath, { givenRowNumber: row }, rowNode);
    return undefined;
  }
  if (row >= layout.firstDataLine) {
    problems.report(
      'BAD_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
      rowPath,
      { givenRowNumber: row, firstRowLine: layout.firstDataLine },
      rowNode,
    );
    return undefined;
  }

  const numberPath = childPath(path, 'OA_columnNumber');
  const numberNode = map.byKey.get('OA_columnNumber')?.value;
  const columnNumber = readInteger(numberNode, numberPath, problems);
  const columnName = readText(
    map.byKey.get('OA_columnName')?.value,
    childPath(path, 'OA_columnName'),
    problems,
  )?.trim();
  if (columnNumber !== undefined && columnNumber <= 0) {
    problems.report(
      'NEGATIVE_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER',
      numberPath,
      { givenColumnNumber: columnNumber },
      numberNode,
    );
    return undefined;
  }
  const zone = row < layout.headerLine ? 'preHeader' : row === layout.headerLine ? 'header' : 'postHeader';
  if (columnNumber !== undefined) return { row, zone, column: { number: columnNumber } };
  if (!columnName) {
    const numberAlreadyReported = numberNode !== undefined && !isNull(numberNode);
    if (!numberAlreadyReported) problems.report('MISSING_CONSTANT_IMPORT_HEADER_COLUMN_OR_ROW_NUMBER', path, {}, map);
    return undefined;
  }
  if (zone === 'preHeader') {
    problems.report(
      'MISSING_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER',
      path,
      { givenRowNumber: row, headerLine: layout.headerLine, columnName },
      map,
    );
    return undefined;
  }
  return { row, zone, column: { header: columnName } };
}
