import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { isUnsafePath } from '../../src/domain/configuration/readZip.ts';

/**
 * A zip kept in a file, read through its central directory (the sizes written by streaming archivers in their
 * local headers are zero) and one entry at a time, inflated as it is read. Guards: no entry may name a place
 * outside the archive (zip-slip), the entries and the bytes they declare are bounded before anything is
 * inflated, and an entry that inflates to more than it declared is cut and refused (zip bomb).
 */
export interface ZipLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

export interface ZipEntry {
  path: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class ZipRefused extends Error {
  constructor(
    readonly reason: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;

async function readAt(file: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The directory a ZIP64 end record describes, found through the locator just before the end record at `endAt`;
 * undefined without a locator (an end counting exactly 65,535 entries, or the low bits of more, in 16 bits).
 */
async function zip64Directory(file: string, endAt: number) {
  if (endAt < ZIP64_LOCATOR_SIZE) return undefined;
  const locator = await readAt(file, endAt - ZIP64_LOCATOR_SIZE, ZIP64_LOCATOR_SIZE);
  if (locator.readUInt32LE(0) !== ZIP64_LOCATOR) return undefined;
  const recordAt = locator.readBigUInt64LE(8);
  if (recordAt > BigInt(endAt - ZIP64_LOCATOR_SIZE - ZIP64_EOCD_SIZE)) throw new ZipRefused('invalidZip');
  const record = await readAt(file, Number(recordAt), ZIP64_EOCD_SIZE);
  if (record.length < ZIP64_EOCD_SIZE || record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipRefused('invalidZip');
  const [count, directorySize, directoryOffset] = [32, 40, 48].map((at) => record.readBigUInt64LE(at));
  // Beyond 4 GiB (offsets) or what any limit lets through (the count), as the 32-bit fields would.
  if (directorySize > 0xffffffffn || directoryOffset > 0xffffffffn || count > 0xffffffffn)
    throw new ZipRefused('zip64NotSupported');
  return { count: Number(count), directorySize: Number(directorySize), directoryOffset: Number(directoryOffset) };
}

export class ZipArchive {
  private constructor(
    private readonly file: string,
    readonly entries: ReadonlyMap<string, ZipEntry>,
  ) {}

  static async open(file: string, fileSize: number, limits: ZipLimits): Promise<ZipArchive> {
    const tailLength = Math.min(fileSize, EOCD_SIZE + MAX_COMMENT);
    const tail = await readAt(file, fileSize - tailLength, tailLength);
    let at = -1;
    for (let index = tail.length - EOCD_SIZE; index >= 0; index -= 1) {
      if (tail.readUInt32LE(index) === EOCD) {
        at = index;
        break;
      }
    }
    if (at < 0) throw new ZipRefused('invalidZip');
    const disk = tail.readUInt16LE(at + 4);
    if (disk !== 0) throw new ZipRefused('invalidZip');
    // Offsets and sizes past 4 GiB are beyond what Terrain writes; 65,535 entries and more are counted by a ZIP64 end.
    if (tail.readUInt32LE(at + 12) === 0xffffffff || tail.readUInt32LE(at + 16) === 0xffffffff)
      throw new ZipRefused('zip64NotSupported');
    const counted = tail.readUInt16LE(at + 10);
    const zip64 = counted === 0xffff ? await zip64Directory(file, fileSize - tailLength + at) : undefined;
    const { directorySize, directoryOffset } = zip64 ?? {
      directorySize: tail.readUInt32LE(at + 12),
      directoryOffset: tail.readUInt32LE(at + 16),
    };
    if ((zip64?.count ?? counted) > limits.maxEntries)
      throw new ZipRefused('zipTooManyEntries', { maxEntries: limits.maxEntries });
    if (directoryOffset + directorySize > fileSize) throw new ZipRefused('invalidZip');
    const directory = await readAt(file, directoryOffset, directorySize);
    const entries = new Map<string, ZipEntry>();
    let declared = 0;
    let position = 0;
    let seen = 0;
    // The directory is read to its end, not to the count: a count written in 16 bits without a ZIP64 end (Terrain's
    // backups of 65,535 files and more before it wrote one) is only the low bits of the true one.
    while (position < directory.length) {
      seen += 1;
      if (seen > limits.maxEntries) throw new ZipRefused('zipTooManyEntries', { maxEntries: limits.maxEntries });
      if (position + 46 > directory.length || directory.readUInt32LE(position) !== CENTRAL)
        throw new ZipRefused('invalidZip');
      const flags = directory.readUInt16LE(position + 8);
      const method = directory.readUInt16LE(position + 10);
      const compressedSize = directory.readUInt32LE(position + 20);
      const size = directory.readUInt32LE(position + 24);
      const nameLength = directory.readUInt16LE(position + 28);
      const extraLength = directory.readUInt16LE(position + 30);
      const commentLength = directory.readUInt16LE(position + 32);
      const localHeaderOffset = directory.readUInt32LE(position + 42);
      if ([compressedSize, size, localHeaderOffset].includes(0xffffffff)) throw new ZipRefused('zip64NotSupported');
      const nameBytes = directory.subarray(position + 46, position + 46 + nameLength);
      const path = nameBytes.toString(flags & 0x800 ? 'utf8' : 'latin1');
      position += 46 + nameLength + extraLength + commentLength;
      if (isUnsafePath(path)) throw new ZipRefused('zipUnsafeEntry', { entry: path });
      if (path.endsWith('/')) continue;
      if (flags & 1) throw new ZipRefused('zipEncrypted', { entry: path });
      if (method !== STORED && method !== DEFLATED) throw new ZipRefused('zipUnsupportedMethod', { entry: path });
      if (entries.has(path)) throw new ZipRefused('zipDuplicateEntry', { entry: path });
      if (localHeaderOffset + compressedSize > fileSize) throw new ZipRefused('invalidZip');
      declared += size;
      if (declared > limits.maxInflatedBytes)
        throw new ZipRefused('zipTooLarge', { maxInflatedBytes: limits.maxInflatedBytes });
      entries.set(path, { path, method, compressedSize, size, localHeaderOffset });
    }
    // A count that does not match what the directory holds: the archive is not what its end says.
    if (position !== directory.length || (zip64 ? seen !== zip64.count : (seen & 0xffff) !== counted))
      throw new ZipRefused('invalidZip');
    return new ZipArchive(file, entries);
  }

  entry(path: string): ZipEntry {
    const entry = this.entries.get(path);
    if (!entry) throw new ZipRefused('missingEntry', { entry: path });
    return entry;
  }

  /** The entry's bytes as they inflate; refused as soon as they exceed the size the archive declared. */
  async *read(path: string): AsyncGenerator<Uint8Array> {
    const entry = this.entry(path);
    const header = await readAt(this.file, entry.localHeaderOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== LOCAL) throw new ZipRefused('invalidZip');
    const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    let produced = 0;
    if (entry.compressedSize > 0) {
      const source = createReadStream(this.file, {
        start,
        end: start + entry.compressedSize - 1,
        highWaterMark: 1 << 20,
      });
      let stream: Readable = source;
      if (entry.method === DEFLATED) {
        const inflate = createInflateRaw();
        pipeline(source, inflate, () => undefined);
        stream = inflate;
      }
      try {
        for await (const chunk of stream) {
          produced += (chunk as Buffer).byteLength;
          if (produced > entry.size) throw new ZipRefused('zipEntryLargerThanDeclared', { entry: path });
          yield chunk as Buffer;
        }
      } catch (error) {
        if (error instanceof ZipRefused) throw error;
        throw new ZipRefused('invalidZip', { entry: path });
      } finally {
        stream.destroy();
        source.destroy();
      }
    }
    if (produced !== entry.size) throw new ZipRefused('zipEntrySizeMismatch', { entry: path });
  }

  /** A whole entry, for files that are kept whole anyway (configuration, manifest, stored files). */
  async readAll(path: string, maxBytes: number): Promise<Buffer> {
    if (this.entry(path).size > maxBytes) throw new ZipRefused('zipEntryTooLarge', { entry: path, maxBytes });
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.read(path)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
}
