import { createHash } from 'node:crypto';
import { Zip, ZipDeflate } from 'fflate';
import type { BundleFile } from '../../src/domain/bundle/manifest.ts';

/** Text is gathered into pieces of about this size before it is compressed (a line at a time would be slow). */
const PIECE_BYTES = 256 * 1024;
/** fflate writes no ZIP64 records: offsets and sizes must stay below 4 GiB. */
const MAX_ZIP_BYTES = 0xffff_ffff;

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
  private readonly zip = new Zip((error, data, final) => {
    if (error) this.failure = error;
    else this.chunks.push(data);
    if (final) this.ended = true;
  });

  private *take(): Generator<Uint8Array> {
    if (this.failure) throw this.failure;
    for (const chunk of this.chunks.splice(0)) {
      this.written += chunk.byteLength;
      if (this.written > MAX_ZIP_BYTES) throw new Error('the bundle would exceed 4 GiB');
      yield chunk;
    }
  }

  async *add(path: string, content: Content): AsyncGenerator<Uint8Array, BundleFile> {
    const entry = new ZipDeflate(path, { level: 6 });
    this.zip.add(entry);
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
    yield* this.take();
    if (!this.ended) throw new Error('zip not finished');
  }
}

/** Files as a zip (exports, additionalFile.zip), each compressed as its content is produced. */
export async function* zipOf(files: ReadonlyArray<{ name: string; content: Content }>): AsyncGenerator<Uint8Array> {
  const zip = new ZipOutput();
  for (const file of files) yield* zip.add(file.name, file.content);
  yield* zip.end();
}
