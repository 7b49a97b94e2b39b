import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './apiError.ts';
import { digestParts } from './idempotency.ts';

export interface Upload {
  fileName: string;
  bytes: Uint8Array;
  /** The other text fields of the form. */
  fields: Record<string, string>;
}

/**
 * Reads a multipart form holding one file (field `file`) and text fields, keeping at most `maxBytes` of file.
 * Refusals happen before any work starts: no file → MISSING_FILE, too large → 413 FILE_TOO_LARGE. With an
 * Idempotency-Key, the digest of the parts is recorded so a replay can be compared with them.
 */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) throw new ApiError(415, 'MULTIPART_REQUIRED');
  const fields: Record<string, string> = {};
  const digest = digestParts();
  let file: Upload | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      const bytes = await part.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, 'FILE_TOO_LARGE', { maxBytes });
        throw new ApiError(400, 'UNREADABLE_FILE');
      });
      file = { fileName: part.filename || 'upload', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), fields };
      digest.file(part.fieldname, file.fileName, file.bytes);
    } else {
      fields[part.fieldname] = String(part.value);
      digest.field(part.fieldname, fields[part.fieldname]);
    }
  }
  if (!file) throw new ApiError(400, 'MISSING_FILE');
  await request.recordIdempotentUpload(digest.done());
  return file;
}
