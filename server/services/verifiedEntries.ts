import { createHash } from 'node:crypto';
import type { BundleFile } from '../../src/domain/bundle/manifest.ts';
import { BundleRefused } from './bundleRefused.ts';
import type { ZipArchive } from './zipArchive.ts';

/** Reads an entry while checking it is the one the manifest describes. */
export async function* verified(
  archive: ZipArchive,
  file: BundleFile,
  onBytes: (count: number) => void,
): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of archive.read(file.path)) {
    hash.update(chunk);
    size += chunk.byteLength;
    onBytes(chunk.byteLength);
    yield chunk;
  }
  if (size !== file.size || hash.digest('hex') !== file.sha256)
    throw new BundleRefused('checksumMismatch', { entry: file.path });
}

export function requireSize(file: BundleFile, maxBytes: number) {
  if (file.size > maxBytes) throw new BundleRefused('zipEntryTooLarge', { entry: file.path, maxBytes });
}

/** A small listed file (the configuration) whole, checked. */
export async function verifiedWhole(
  archive: ZipArchive,
  file: BundleFile,
  maxBytes: number,
  onBytes: (count: number) => void,
): Promise<Buffer> {
  requireSize(file, maxBytes);
  const chunks: Uint8Array[] = [];
  for await (const chunk of verified(archive, file, onBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
