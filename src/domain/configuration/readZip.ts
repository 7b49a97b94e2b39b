import type { ConfigurationError } from './errorCodes';
import { EntrySizeMismatch, inflateEntry } from './inflateEntry';
import { zipDirectory, type ZipDirectoryEntry } from './zipDirectory';

/** Limits of a zip configuration; sizes are the ones declared in the archive, checked before anything is inflated. */
export const ZIP_LIMITS = {
  maxEntries: 200,
  maxUncompressedBytes: 20 * 1024 * 1024,
} as const;

export interface ZipYamlEntry {
  /** Path inside the archive, `/`-separated, e.g. `OA_data/pem.yaml`. */
  path: string;
  bytes: Uint8Array;
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_SIGNATURE = [0x50, 0x4b, 0x05, 0x06];

export function looksLikeZip(bytes: Uint8Array): boolean {
  const startsWith = (signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  return bytes.length >= 4 && (startsWith(ZIP_SIGNATURE) || startsWith(EMPTY_ZIP_SIGNATURE));
}

/** Mac archivers add `__MACOSX/…/._name.yaml` resource forks: binary files that only look like YAML by name. */
function isYamlEntry(path: string): boolean {
  const fileName = path.slice(path.lastIndexOf('/') + 1);
  return /\.ya?ml$/i.test(fileName) && !fileName.startsWith('._') && !path.split('/').includes('__MACOSX');
}

/** Absolute, Windows or parent-relative paths: an archive entry must never name a place outside its folder (zip-slip). */
export function isUnsafePath(path: string): boolean {
  return path.startsWith('/') || path.includes('\\') || /^[a-zA-Z]:/.test(path) || path.split('/').includes('..');
}

class ZipRefusal extends Error {
  constructor(readonly params: Record<string, unknown>) {
    super('zip refused');
  }
}

/**
 * The YAML entries of a zip, in archive order. Unsafe paths, too many entries or too many bytes refuse the whole
 * archive, before anything is inflated; so does an entry whose content is not the size it declares, found while it
 * inflates (never inflated past it): a configuration is small, so such an archive is a mistake or an attack, never
 * something to half-read.
 */
export function readZip(
  bytes: Uint8Array,
): { ok: true; entries: ZipYamlEntry[] } | { ok: false; error: ConfigurationError } {
  let entryCount = 0;
  let declaredBytes = 0;
  try {
    // By path, as an archive listing a path twice was read: the later one, at the place of the first.
    const yamlEntries = new Map<string, ZipDirectoryEntry>();
    for (const entry of zipDirectory(bytes)) {
      entryCount += 1;
      if (entryCount > ZIP_LIMITS.maxEntries)
        throw new ZipRefusal({ reason: 'zipTooManyEntries', maxEntries: ZIP_LIMITS.maxEntries });
      if (isUnsafePath(entry.name)) throw new ZipRefusal({ reason: 'zipUnsafeEntry', entry: entry.name });
      if (!isYamlEntry(entry.name)) continue;
      declaredBytes += entry.declaredSize;
      if (declaredBytes > ZIP_LIMITS.maxUncompressedBytes) {
        throw new ZipRefusal({ reason: 'zipTooLarge', maxUncompressedBytes: ZIP_LIMITS.maxUncompressedBytes });
      }
      yamlEntries.set(entry.name, entry);
    }
    const entries = [...yamlEntries.values()].map((entry) => ({ path: entry.name, bytes: contentOf(bytes, entry) }));
    if (entries.length === 0) return { ok: false, error: refusal({ reason: 'zipWithoutYaml' }) };
    return { ok: true, entries };
  } catch (thrown) {
    if (thrown instanceof ZipRefusal) return { ok: false, error: refusal(thrown.params) };
    return {
      ok: false,
      error: refusal({ reason: 'invalidZip', message: thrown instanceof Error ? thrown.message : String(thrown) }),
    };
  }
}

function contentOf(bytes: Uint8Array, entry: ZipDirectoryEntry): Uint8Array {
  try {
    return inflateEntry(bytes, entry);
  } catch (thrown) {
    if (!(thrown instanceof EntrySizeMismatch)) throw thrown;
    throw new ZipRefusal({ reason: 'zipEntrySizeMismatch', entry: entry.name, declaredBytes: entry.declaredSize });
  }
}

function refusal(params: Record<string, unknown>): ConfigurationError {
  return { code: 'INVALID_CONFIGURATION_FILE', path: '', params };
}
