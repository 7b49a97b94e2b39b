import { isNull, mapNode, type ConfigNode, type ListNode, type MapNode } from './configNode';
import type { ValidationContext } from './context';
import { childPath } from './problems';

/**
 * Layouts of qualifiers and adjacents (`OA_componentQualifiers`, `OA_componentAdjacents`) that the original accepts
 * though the format writes `- name: {keys}`: Terrain reads them the same way and warns how it read them.
 */

/** One qualifier or adjacent as written: its name, its body, its path and where its name is. */
export interface NamedPart {
  name: string;
  body: ConfigNode;
  path: string;
  keyTarget: { source: MapNode['source']; offset: number };
}

/**
 * `- unite:` with the part's keys written beside its name instead of under it (the list item is then one map of
 * several keys, the name's value empty). The original takes the item's first key as the name and finds some of
 * its keys anywhere in the item, so it accepts this; Terrain reads every `OA_` key beside the name as the part's
 * own, and warns. Anything else (a second key that is not `OA_`, a name with a value) keeps the strict reading.
 */
export function partWithKeysBesideName(item: MapNode, path: string, context: ValidationContext): NamedPart | undefined {
  const [named, ...beside] = item.entries;
  if (beside.length === 0 || !isNull(named.value) || !beside.every((entry) => entry.key.startsWith('OA_')))
    return undefined;
  const partPath = childPath(path, named.key);
  const keyTarget = { source: item.source, offset: named.keyOffset };
  context.problems.warn('PART_KEYS_READ_BESIDE_NAME', partPath, { name: named.key }, keyTarget);
  return {
    name: named.key,
    body: mapNode(item.source, beside[0].keyOffset, beside),
    path: partPath,
    keyTarget,
  };
}

/**
 * A part whose keys are written as a list of one-key maps (`- unite:` then `- OA_importHeaderPattern: …` under it).
 * The original finds some of its keys anywhere under the item, lists included, so it accepts this; Terrain reads
 * the list as one map of the part's keys, and warns. A list holding anything but `OA_` keys, each once, stays an
 * error.
 */
export function mapFromKeyList(list: ListNode, part: NamedPart, context: ValidationContext): MapNode | undefined {
  const entries = list.items.flatMap((item) => (item.kind === 'map' ? item.entries : []));
  const keys = new Set(entries.map((entry) => entry.key));
  const onlyKeys = list.items.every((item) => item.kind === 'map') && entries.every((e) => e.key.startsWith('OA_'));
  if (entries.length === 0 || !onlyKeys || keys.size !== entries.length) return undefined;
  context.problems.warn('PART_KEYS_READ_FROM_LIST', part.path, { name: part.name }, list);
  return mapNode(list.source, list.offset, entries);
}
