import {
  MANIFEST_PATH,
  MAX_BUNDLE_ENTRIES,
  MAX_MANIFEST_BYTES,
  readManifest,
  type BundleFile,
  type BundleManifest,
} from '../../src/domain/bundle/manifest.ts';
import { isCharterType, looksLikePdf } from '../../src/domain/applications/charter.ts';
import type { ServerContext } from '../context.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { StreamedUpload } from '../http/readUpload.ts';
import { BundleRefused, refusedZip } from './bundleRefused.ts';
import { ZipArchive } from './zipArchive.ts';
import { spoolUpload } from './uploadSpool.ts';

/** An uploaded backup, kept in a temporary file while it is read (it may be far larger than memory). */
export interface SpooledBundle {
  archive: ZipArchive;
  manifest: BundleManifest;
  remove(): Promise<void>;
}

/**
 * Spools the upload (uploadSpool.ts, as CSV uploads are: disk room asked for as it arrives), then checks it is a
 * bundle: a zip within the limits whose manifest lists files that are all there, its charter a PDF. Nothing is
 * written to the database; every refusal is a 400 INVALID_BUNDLE, but a charter that is not a PDF: 415
 * CHARTER_NOT_PDF, as when it is uploaded.
 */
export async function spoolBundle(ctx: ServerContext, upload: StreamedUpload): Promise<SpooledBundle> {
  const spooled = await spoolUpload(ctx, upload);
  const remove = () => spooled.remove();
  try {
    await spooled.arrival();
    const size = spooled.size();
    if (size === 0) throw new Refusal('EMPTY_FILE', { fileName: upload.fileName });
    const archive = await ZipArchive.open(spooled.path, size, {
      maxEntries: MAX_BUNDLE_ENTRIES,
      maxInflatedBytes: ctx.config.bundleMaxInflatedBytes,
    }).catch((error) => {
      throw refusedZip(error);
    });
    if (!archive.entries.has(MANIFEST_PATH)) throw new BundleRefused('notABundle');
    const text = (
      await archive.readAll(MANIFEST_PATH, MAX_MANIFEST_BYTES).catch((error) => Promise.reject(refusedZip(error)))
    ).toString('utf8');
    const read = readManifest(text);
    if (!read.ok) throw new BundleRefused(read.problem.reason, read.problem.path ? { part: read.problem.path } : {});
    const manifest = read.manifest;
    for (const listed of listedFiles(manifest)) {
      const entry = archive.entries.get(listed.path);
      if (!entry) throw new BundleRefused('missingEntry', { entry: listed.path });
      if (entry.size !== listed.size) throw new BundleRefused('checksumMismatch', { entry: listed.path });
    }
    for (const charter of manifest.additionalFiles.filter((file) => isCharterType(file.fileType))) {
      const head = await headOf(archive, charter.path, 5).catch((error) => Promise.reject(refusedZip(error)));
      if (!looksLikePdf(head))
        throw new Refusal('CHARTER_NOT_PDF', { fileName: charter.fileName, entry: charter.path });
    }
    return { archive, manifest, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The first bytes of an entry (what a magic number needs), without inflating the rest. */
async function headOf(archive: ZipArchive, path: string, count: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of archive.read(path)) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= count) break;
  }
  return Buffer.concat(chunks).subarray(0, count);
}

/** The files a restore reads. */
export function listedFiles(manifest: BundleManifest): BundleFile[] {
  return [
    manifest.configuration,
    ...manifest.data.filter((data) => data.restored).flatMap((data) => data.files),
    ...manifest.deposits,
    ...manifest.additionalFiles,
  ];
}
