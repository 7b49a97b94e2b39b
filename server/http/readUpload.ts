import { holdsNulCharacter } from '../../src/domain/text/nulCharacter.ts';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { digestParts } from './idempotency.ts';
import { formParts } from './formParts.ts';
import { multipartFailure } from './multipartFailure.ts';

export interface Upload {
  fileName: string;
  bytes: Uint8Array;
  /** The type the client gave the file part. */
  contentType: string;
  /** The other text fields of the form. */
  fields: Record<string, string>;
}

/** How much of a file a form may hold, and how long its bytes may stop coming. */
export interface UploadLimits {
  maxBytes: number;
  idleMs: number;
}

/** The file of a form, once `keep` has taken its bytes. */
export interface KeptFile<T> {
  fileName: string;
  /** The type the client gave the file part. */
  contentType: string;
  /** What `keep` answered. */
  kept: T;
}

/** A multipart form whose file may be absent (an update that keeps the stored file). */
export interface KeptForm<T> {
  file?: KeptFile<T>;
  fields: Record<string, string>;
}

const FORM_FIELDS = 20;
const FIELD_BYTES = 64 * 1024;
const formLimits = (maxBytes: number) => ({
  limits: { fileSize: maxBytes, files: 1, fields: FORM_FIELDS, fieldSize: FIELD_BYTES },
});

/**
 * What a form may hold besides its file's bytes: its fields, the parts' headers and boundaries, with room to spare.
 * A form declaring a larger size than its file's limit and this is refused before any of it is read.
 */
const FORM_OVERHEAD_BYTES = FORM_FIELDS * FIELD_BYTES + 1024 * 1024;

/**
 * Reads a multipart form holding at most one file (field `file`) and text fields, in whatever order they come:
 * the file's bytes go to `keep` as they arrive (an additional file is written in parts, never held whole), and
 * the form is read on once `keep` has read them all. More than `maxBytes` of file → 413 FILE_TOO_LARGE, after
 * `keep` (whatever it kept is the caller's to discard, as on any refusal). What `keep` throws is thrown as it is (a
 * database failure is answered as one). With an Idempotency-Key, the digest of the parts is recorded so a replay
 * can be compared with them.
 */
export async function readForm<T>(
  request: FastifyRequest,
  { maxBytes, idleMs }: UploadLimits,
  keep: (bytes: AsyncIterable<Uint8Array>) => Promise<T>,
): Promise<KeptForm<T>> {
  if (!request.isMultipart()) throw new Refusal('MULTIPART_REQUIRED');
  const fields: Record<string, string> = {};
  const digest = digestParts();
  const parts = openParts(request, maxBytes, idleMs);
  let file: KeptFile<T> | undefined;
  let reading: MultipartFile | undefined;
  try {
    for (let part = await parts.next(); part; part = await parts.next()) {
      if (part.type === 'field') {
        // The parser cuts a longer field where the limit falls: read cut, it would be another value (or broken JSON).
        if (part.valueTruncated)
          throw new Refusal('PAYLOAD_TOO_LARGE', { field: formText(part.fieldname), maxBytes: FIELD_BYTES });
        fields[part.fieldname] = formText(String(part.value));
        digest.field(part.fieldname, fields[part.fieldname]);
      } else if (part.fieldname !== 'file') {
        part.file.resume();
      } else {
        reading = part;
        const fileName = formText(part.filename) || 'upload';
        const hashing = digest.fileStream('file', fileName);
        const kept = await keep(fileChunks(part, hashing, idleMs).chunks);
        if (part.file.truncated) throw new Refusal('FILE_TOO_LARGE', { maxBytes });
        hashing.end();
        file = { fileName, contentType: part.mimetype || 'application/octet-stream', kept };
      }
    }
  } finally {
    // A file refused before its end is read on to nowhere, so that the client can finish sending and read the answer.
    if (reading && !reading.file.readableEnded) reading.file.resume();
  }
  await request.recordIdempotentUpload(digest.done());
  return { file, fields };
}

/**
 * The parts of a form, one at a time: undefined after the last. A form whose declared size (Content-Length) is
 * clearly more than its file's limit is refused at once with 413 FILE_TOO_LARGE. A failure of the parser is the client's (400
 * MALFORMED_MULTIPART, or its own 4xx); a client that sends nothing more for `idleMs` between parts is refused with
 * 408 UPLOAD_STALLED, as within a file.
 */
function openParts(request: FastifyRequest, maxBytes: number, idleMs: number) {
  // Otherwise the file would be read (and kept in parts) up to its limit before its refusal.
  const declared = Number(request.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES)
    throw new Refusal('FILE_TOO_LARGE', { maxBytes });
  const iterator = formParts(request, formLimits(maxBytes))[Symbol.asyncIterator]();
  return {
    async next() {
      const next = await withinIdleTime(
        iterator.next().catch((error: unknown) => {
          throw multipartFailure(error);
        }),
        idleMs,
        () => request.raw.unpipe(),
      );
      return next.done ? undefined : next.value;
    },
  };
}

/** A text of the form (a field, a file's name): no column stores a NUL character, so a form holding one is refused. */
function formText(text: string): string {
  if (holdsNulCharacter(text)) throw new Refusal('BAD_REQUEST', { reason: 'nulCharacter' });
  return text;
}

async function whole(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const held: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    held.push(chunk);
    size += chunk.byteLength;
  }
  return Buffer.concat(held, size);
}

/** A form that must hold a small file (a configuration, a charter), read whole: refused with MISSING_FILE without one. */
export async function readUpload(request: FastifyRequest, limits: UploadLimits): Promise<Upload> {
  const { file, fields } = await readForm(request, limits, whole);
  if (!file) throw new Refusal('MISSING_FILE');
  return { fileName: file.fileName, bytes: file.kept, contentType: file.contentType, fields };
}

export interface StreamedUpload {
  fileName: string;
  /** The file's bytes as they arrive; read it once, to the end. */
  stream: AsyncIterable<Uint8Array>;
  /** Text fields sent before the file. */
  fields: Record<string, string>;
  /** Once the stream is read: refuses a file cut at the size limit. */
  complete(): void;
  /** Records the parts for idempotent replays; call it after the work, outside any transaction. */
  record(): Promise<void>;
  /** When the reading of the file began to wait for the client's next bytes; undefined while it is not waiting. */
  waitingForBytesSince(): number | undefined;
}

/** A multipart form whose file, when there is one, is processed while it arrives. */
export interface StreamedForm {
  fields: Record<string, string>;
  file?: StreamedUpload;
}

/**
 * Opens a multipart upload whose file is processed while it arrives (large CSV files are never held whole).
 * The form's text fields must come before the file.
 */
export async function openUpload(request: FastifyRequest, maxBytes: number, idleMs: number): Promise<StreamedUpload> {
  const { file } = await openStreamedForm(request, maxBytes, idleMs);
  if (!file) throw new Refusal('MISSING_FILE');
  return file;
}

/**
 * Opens a multipart form that may hold no file (a publication sent as a form with its `params` alone): its fields,
 * and its file streamed when there is one. Without a file the parts are recorded for idempotent replays at once.
 */
export async function openStreamedForm(
  request: FastifyRequest,
  maxBytes: number,
  idleMs: number,
): Promise<StreamedForm> {
  if (!request.isMultipart()) throw new Refusal('MULTIPART_REQUIRED');
  const parts = openParts(request, maxBytes, idleMs);
  const digest = digestParts();
  const fields: Record<string, string> = {};
  for (;;) {
    const part = await parts.next();
    if (!part) {
      await request.recordIdempotentUpload(digest.done());
      return { fields };
    }
    if (part.type === 'field') {
      fields[part.fieldname] = formText(String(part.value));
      digest.field(part.fieldname, fields[part.fieldname]);
    } else if (part.fieldname !== 'file') {
      part.file.resume();
    } else {
      return { fields, file: streamedUpload(request, part, fields, digest, maxBytes, idleMs) };
    }
  }
}

function streamedUpload(
  request: FastifyRequest,
  part: MultipartFile,
  fields: Record<string, string>,
  digest: ReturnType<typeof digestParts>,
  maxBytes: number,
  idleMs: number,
): StreamedUpload {
  const fileName = formText(part.filename) || 'upload';
  const hashing = digest.fileStream('file', fileName);
  const { chunks, waitingForBytesSince } = fileChunks(part, hashing, idleMs);
  return {
    fileName,
    stream: chunks,
    fields,
    complete() {
      if (part.file.truncated) throw new Refusal('FILE_TOO_LARGE', { maxBytes });
    },
    async record() {
      hashing.end();
      await request.recordIdempotentUpload(digest.done());
    },
    waitingForBytesSince,
  };
}

/** The bytes of a file part as they arrive, hashed for idempotent replays; refused once they stop coming for `idleMs`. */
function fileChunks(part: MultipartFile, hashing: { update(bytes: Uint8Array): void }, idleMs: number) {
  let waitingSince: number | undefined;
  async function* chunks() {
    const arriving = part.file[Symbol.asyncIterator]();
    for (;;) {
      waitingSince = performance.now();
      const next = await withinIdleTime(
        arriving.next().catch((error: unknown) => {
          throw multipartFailure(error);
        }),
        idleMs,
        () => part.file.destroy(),
      ).finally(() => (waitingSince = undefined));
      if (next.done) return;
      const bytes = next.value as Buffer;
      hashing.update(bytes);
      yield new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
  }
  return { chunks: chunks(), waitingForBytesSince: () => waitingSince };
}

/**
 * The client's next bytes, unless none come within `idleMs`: then the file is dropped (`abandon`) and the upload
 * refused, so that what it holds while it waits (a transaction, its entry's write lock) is given back.
 */
async function withinIdleTime<T>(next: Promise<T>, idleMs: number, abandon: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandon();
      reject(new Refusal('UPLOAD_STALLED', { idleSeconds: Math.round(idleMs / 1000) }));
    }, idleMs);
  });
  try {
    return await Promise.race([next, stalled]);
  } finally {
    clearTimeout(timer);
  }
}
