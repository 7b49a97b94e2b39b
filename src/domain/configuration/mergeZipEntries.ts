import { mapNode, type ConfigNode, type MapEntry, type MapNode } from './configNode';

export interface ParsedZipEntry {
  path: string;
  root: ConfigNode;
}

/**
 * Merges the YAML files of a zip into one document by the original's rule (§1.2): the entry path minus its
 * extension gives nesting levels (`OA_data/sites.yaml` → `{OA_data: {sites: …}}`), a segment named `configuration`
 * adds no level, and the results are merged one level under each top key, later entries winning.
 *
 * One addition: when every entry sits in the same top folder (people zip the folder rather than its content), that
 * folder is ignored, unless it is itself a section name such as `OA_data`.
 */
export function mergeZipEntries(entries: readonly ParsedZipEntry[]): MapNode {
  const commonFolder = sharedTopFolder(entries.map((entry) => entry.path));
  const top = new Map<string, MapEntry>();
  for (const entry of entries) {
    const relative = commonFolder ? entry.path.slice(commonFolder.length + 1) : entry.path;
    const segments = relative
      .replace(/\.ya?ml$/i, '')
      .split('/')
      .filter((segment) => segment.length > 0 && segment !== 'configuration');
    const wrapped = wrap(entry.root, segments);
    if (wrapped.kind !== 'map') {
      // A root file that is not a map cannot be merged; keeping it under its own name lets validation report it.
      top.set(relative, { key: relative, keyOffset: wrapped.offset, value: wrapped });
      continue;
    }
    for (const item of wrapped.entries) {
      const existing = top.get(item.key);
      top.set(
        item.key,
        existing && existing.value.kind === 'map' && item.value.kind === 'map'
          ? { ...existing, value: mergeMaps(existing.value, item.value) }
          : item,
      );
    }
  }
  const first = entries[0].root;
  return mapNode(first.source, 0, [...top.values()]);
}

function wrap(content: ConfigNode, segments: readonly string[]): ConfigNode {
  let node = content;
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    node = mapNode(content.source, 0, [{ key: segments[index], keyOffset: 0, value: node }]);
  }
  return node;
}

function mergeMaps(earlier: MapNode, later: MapNode): MapNode {
  const merged = new Map<string, MapEntry>(earlier.entries.map((entry) => [entry.key, entry]));
  for (const entry of later.entries) merged.set(entry.key, entry);
  return mapNode(earlier.source, earlier.offset, [...merged.values()]);
}

function sharedTopFolder(paths: readonly string[]): string | undefined {
  const firstSegments = new Set(paths.map((path) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '')));
  if (firstSegments.size !== 1) return undefined;
  const [folder] = firstSegments;
  return folder && !folder.startsWith('OA_') ? folder : undefined;
}
