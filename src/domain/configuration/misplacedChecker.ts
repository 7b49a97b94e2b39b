import { mapNode, type MapEntry, type MapNode } from './configNode';
import { childPath, type Problems } from './problems';

/**
 * An `OA_checker` indented one level too deep, inside the `OA_exportHeader` of a component, qualifier or adjacent.
 * The original raises nothing for it; teams bring such files, and the intent is plain, so it is read as the
 * owner's checker and a warning says so. When the owner has its own checker too, the nested one is the one dropped
 * (with a warning): the one in its right place wins. Returns the body as if the checker had been written in place.
 */
export function liftCheckerFromExportHeader(body: MapNode, path: string, problems: Problems): MapNode {
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
  if (body.byKey.has('OA_checker')) {
    problems.warn('CHECKER_IGNORED_UNDER_EXPORT_HEADER', headerPath, {}, at);
  } else {
    problems.warn('CHECKER_READ_FROM_EXPORT_HEADER', headerPath, {}, at);
    entries.push(nested);
  }
  return mapNode(body.source, body.offset, entries);
}
