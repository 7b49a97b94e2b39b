import { createHash } from 'node:crypto';
import { Zip, ZipDeflate } from 'fflate';
import type { BundleFile } from '../../src/domain/bundle/manifest.ts';

/** Text is gathered into pieces of about this size before it is compressed (a line at a time would be slow). */
const PIECE_BYTES = 256 * 1024;
/** fflate writes no ZIP64 records: offsets and sizes must stay below 4 GiB. */
const MAX_ZIP_BYTES = 0xffff_ffff;
/** The most entries the end record counts; from there on it says "see the ZIP64 record" (APPNOTE 4.4.21). */
const MAX_COUNTED_ENTRIES = 0xffff;
const EOCD_SIZE = 22;
const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;

/**
 * The end of a zip of `count` entries, given its end record as fflate wrote it: fflate writes the count in 16 bits,
 * so 65,536 entries read as none and the rest were never found. From 65,535 entries on, the count goes to a ZIP64
 * end record and its locator, written before an end record that points to them.
 */
export function zip64End(end: Uint8Array, count: number): Uint8Array {
  const record = Buffer.from(end.buffer, end.byteOffset, end.byteLength);
  if (record.byteLength !== EOCD_SIZE || record.readUInt32LE(0) !== EOCD) throw new Error('no end record to extend');
  const directorySize = record.readUInt32LE(12);
  const directoryOffset = record.readUInt32LE(16);
  const zip64 = Buffer.alloc(56 + 20 + EOCD_SIZE);
  zip64.writeUInt32LE(ZIP64_EOCD, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(BigInt(count), 24);
  zip64.writeBigUInt64LE(BigInt(count), 32);
  zip64.writeBigUInt64LE(BigInt(directorySize), 40);
  zip64.writeBigUInt64LE(BigInt(directoryOffset), 48);
  zip64.writeUInt32LE(ZIP64_LOCATOR, 56);
  zip64.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 64);
  zip64.writeUInt32LE(1, 72);
  record.copy(zip64, 76);
  zip64.writeUInt16LE(MAX_COUNTED_ENTRIES, 76 + 8);
  zip64.writeUInt16LE(MAX_COUNTED_ENTRIES, 76 + 10);
  return zip64;
}

export type Content = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/**
 * A zip written as it goes: each file is compressed while its content is produced and the zip's bytes are given
 * out at once, so that a download never holds the archive (nor a whole file) in memory. Each added file answers
 * its size and SHA-256, for the manifest that comes last.
 */
export class ZipOutput {
  private readonly chunks: Uint8Array[] = [];
  private failure: Error | null = null;
  private ended = false;
  private written = 0;
  private entryCount = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  /**
   * @param limits files and bytes past which the zip fails rather than be written for a reader that stops there;
   * never more bytes than 32-bit offsets reach.
   */
  constructor(limits: { maxEntries?: number; maxBytes?: number } = {}) {
    this.maxEntries = limits.maxEntries ?? Number.POSITIVE_INFINITY;
    this.maxBytes = Math.min(limits.maxBytes ?? MAX_ZIP_BYTES, MAX_ZIP_BYTES);
  }

  private readonly zip = new Zip((error, data, final) => {
    if (error) this.failure = error;
    else this.chunks.push(data);
    if (final) this.ended = true;
  });

  private *take(): Generator<Uint8Array> {
    if (this.failure) throw this.failure;
    for (const chunk of this.chunks.splice(0)) {
      this.written += chunk.byteLength;
      if (this.written > this.maxBytes) throw new Error(`the zip would exceed ${this.maxBytes} bytes`);
      yield chunk;
    }
  }

  async *add(path: string, content: Content): AsyncGenerator<Uint8Array, BundleFile> {
    if (this.entryCount >= this.maxEntries) throw new Error(`the zip would hold more than ${this.maxEntries} files`);
    const entry = new ZipDeflate(path, { level: 6 });
    this.zip.add(entry);
    this.entryCount += 1;
    const hash = createHash('sha256');
    let size = 0;
    let texts: string[] = [];
    let textLength = 0;
    const push = (bytes: Uint8Array) => {
      hash.update(bytes);
      size += bytes.byteLength;
      entry.push(bytes);
    };
    const flushTexts = () => {
      if (texts.length === 0) return;
      push(Buffer.from(texts.join(''), 'utf8'));
      texts = [];
      textLength = 0;
    };
    for await (const piece of content) {
      if (typeof piece === 'string') {
        texts.push(piece);
        textLength += piece.length;
        if (textLength < PIECE_BYTES) continue;
        flushTexts();
      } else {
        flushTexts();
        push(piece);
      }
      yield* this.take();
    }
    flushTexts();
    entry.push(new Uint8Array(), true);
    yield* this.take();
    return { path, size, sha256: hash.digest('hex') };
  }

  *end(): Generator<Uint8Array> {
    this.zip.end();
    if (this.failure) throw this.failure;
    if (!this.ended) throw new Error('zip not finished');
    if (this.entryCount >= MAX_COUNTED_ENTRIES) {
      // fflate gives its directory and end record as its last chunk.
      const last = this.chunks.pop()!;
      const cut = last.byteLength - EOCD_SIZE;
      this.chunks.push(last.subarray(0, cut), zip64End(last.subarray(cut), this.entryCount));
    }
    yield* this.take();
  }
}

/** Files as a zip (exports, additionalFile.zip), each compressed as its content is produced. */
export async function* zipOf(files: ReadonlyArray<{ name: string; content: Content }>): AsyncGenerator<Uint8Array> {
  const zip = new ZipOutput();
  for (const file of files) yield* zip.add(file.name, file.content);
  yield* zip.end();
}
