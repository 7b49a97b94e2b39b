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
  const paths = entries.map((entry) => entry.path);
  const commonFolder = sharedTopFolder(paths);
  const rootEntry = findRootEntry(paths);
  const top = new Map<string, MapEntry>();
  for (const entry of entries) {
    const relative = commonFolder ? entry.path.slice(commonFolder.length + 1) : entry.path;
    const segments =
      rootEntry.kind === 'loose' && entry.path === rootEntry.path
        ? []
        : relative
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

/** The name the original expects for the file of the root sections; any other top file nests under its own name. */
export const ROOT_ENTRY_NAME = 'configuration.yaml';

/**
 * Which entry holds the root sections. By the original's rule only `configuration.yaml` does; a zip whose one top
 * file has another name (`myapp-config.yaml`) would nest it under that name and be told `OA_version` is missing, so
 * that file is read as the root (`loose`). Several such files and no `configuration.yaml` cannot be told apart:
 * `ambiguous`, with the files' paths. Top files named after a section (`OA_data.yaml`) keep the original's reading.
 */
export function findRootEntry(
  paths: readonly string[],
): { kind: 'named' } | { kind: 'loose'; path: string } | { kind: 'ambiguous'; files: string[] } {
  const commonFolder = sharedTopFolder(paths);
  const topFiles = paths.filter((path) => !(commonFolder ? path.slice(commonFolder.length + 1) : path).includes('/'));
  const stem = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.ya?ml$/i, '');
  if (topFiles.some((path) => stem(path) === 'configuration')) return { kind: 'named' };
  const loose = topFiles.filter((path) => !stem(path).startsWith('OA_'));
  if (loose.length === 1) return { kind: 'loose', path: loose[0] };
  if (loose.length > 1) return { kind: 'ambiguous', files: loose };
  return { kind: 'named' };
}

function sharedTopFolder(paths: readonly string[]): string | undefined {
  const firstSegments = new Set(paths.map((path) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '')));
  if (firstSegments.size !== 1) return undefined;
  const [folder] = firstSegments;
  return folder && !folder.startsWith('OA_') ? folder : undefined;
}
