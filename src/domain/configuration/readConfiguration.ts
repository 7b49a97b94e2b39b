import { locate, type ConfigNode, type MapNode } from './configNode';
import type { ConfigurationError } from './errorCodes';
import { findRootEntry, mergeZipEntries, ROOT_ENTRY_NAME, type ParsedZipEntry } from './mergeZipEntries';
import { looksLikeZip, readZip } from './readZip';
import { decodeUtf8, readYamlText, type YamlSourceName } from './readYaml';

export type DocumentReading = { ok: true; root: MapNode } | { ok: false; errors: ConfigurationError[] };

/** Turns the uploaded bytes (one YAML file or a zip of YAML files) into the document to validate. */
export function readConfigurationDocument(bytes: Uint8Array, fileName: string): DocumentReading {
  if (bytes.length === 0) return { ok: false, errors: [{ code: 'EMPTY_FILE', path: '', params: {} }] };
  if (looksLikeZip(bytes) || /\.zip$/i.test(fileName)) return readZipDocument(bytes);

  const parsed = parseYaml(bytes, { name: fileName, isArchiveEntry: false });
  if (!parsed.ok) return parsed;
  if (parsed.root === null) return { ok: false, errors: [{ code: 'EMPTY_FILE', path: '', params: {} }] };
  return requireMap(parsed.root);
}

function readZipDocument(bytes: Uint8Array): DocumentReading {
  const zip = readZip(bytes);
  if (!zip.ok) return { ok: false, errors: [zip.error] };
  const rootEntry = findRootEntry(zip.entries.map((entry) => entry.path));
  if (rootEntry.kind === 'ambiguous') {
    const params = { reason: 'zipAmbiguousRoot', files: rootEntry.files, expected: ROOT_ENTRY_NAME };
    return { ok: false, errors: [{ code: 'INVALID_CONFIGURATION_FILE', path: '', params }] };
  }
  const errors: ConfigurationError[] = [];
  const parsedEntries: ParsedZipEntry[] = [];
  for (const entry of zip.entries) {
    const parsed = parseYaml(entry.bytes, { name: entry.path, isArchiveEntry: true });
    if (!parsed.ok) errors.push(...parsed.errors);
    else if (parsed.root !== null) parsedEntries.push({ path: entry.path, root: parsed.root });
  }
  if (errors.length > 0) return { ok: false, errors };
  if (parsedEntries.length === 0) return { ok: false, errors: [{ code: 'EMPTY_FILE', path: '', params: {} }] };
  return requireMap(mergeZipEntries(parsedEntries));
}

function parseYaml(
  bytes: Uint8Array,
  name: YamlSourceName,
): { ok: true; root: ConfigNode | null } | { ok: false; errors: ConfigurationError[] } {
  const decoded = decodeUtf8(bytes, name);
  if (!decoded.ok) return { ok: false, errors: [decoded.error] };
  return readYamlText(decoded.text, name);
}

function requireMap(root: ConfigNode): DocumentReading {
  if (root.kind === 'map') return { ok: true, root };
  return {
    ok: false,
    errors: [
      {
        code: 'INVALID_CONFIGURATION_FILE',
        path: '',
        params: { reason: 'rootNotMap' },
        ...locate(root.source, root.offset),
      },
    ],
  };
}
