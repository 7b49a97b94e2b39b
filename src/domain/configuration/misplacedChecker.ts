import { mapNode, type MapEntry, type MapNode } from './configNode';
import { childPath, type Problems } from './problems';

/**
 * An `OA_checker` indented one level too deep, inside the `OA_exportHeader` of a component, qualifier or adjacent.
 * The original accepts the file and never reads that checker (an export header is a label to it): Terrain does
 * the same, so a file checks the same values on both, and a warning tells the author the checker does nothing
 * there. Returns the body without it.
 */
export function dropCheckerFromExportHeader(body: MapNode, path: string, problems: Problems): MapNode {
  const header = body.byKey.get('OA_exportHeader');
  if (header?.value.kind !== 'map') return body;
  const nested = header.value.byKey.get('OA_checker');
  if (!nested) return body;

  const headerPath = childPath(path, 'OA_exportHeader');
  const at = { source: header.value.source, offset: nested.keyOffset };
  const cleanedHeader: MapEntry = {
    ...header,
    value: mapNode(
      header.value.source,
      header.value.offset,
      header.value.entries.filter((entry) => entry !== nested),
    ),
  };
  const entries = body.entries.map((entry) => (entry === header ? cleanedHeader : entry));
  problems.warn('CHECKER_IGNORED_UNDER_EXPORT_HEADER', headerPath, {}, at);
  return mapNode(body.source, body.offset, entries);
}
