import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { ServerContext } from '../context.ts';

/**
 * Bytes the database takes per byte of a CSV file once its rows are stored, unless UPLOAD_SPACE_FACTOR says
 * otherwise: the low ends of what the fault tests' data took (docs/deploy.md), higher on the embedded database,
 * whose log shares the disk and is kept until a checkpoint. Low on purpose: a file refused here could not have fit,
 * and one that passes but does not fit stops at the reserve.
 */
export const rowsFactor = (config: ServerConfig) => config.storage.uploadFactor ?? (config.databaseUrl ? 8 : 20);

/**
 * Refuses at once (507 STORAGE_FULL), before any of its body is read, an upload that cannot fit on the database's
 * disk: its declared size (Content-Length) would leave less than the reserve free (diskRoom.ts) once stored, as rows
 * (`rows`: times the factor above) or as a file kept as it is sent. A body sent without its size is refused here only
 * while the disk is already below the reserve; its rows then stop at the reserve as they are written
 * (bulkWriteGuard.ts).
 */
export async function requireRoomForUpload(
  ctx: ServerContext,
  request: FastifyRequest,
  stored: 'rows' | 'file',
): Promise<void> {
  const declared = Number(request.headers['content-length']);
  const bytes = Number.isSafeInteger(declared) && declared > 0 ? declared : 0;
  await ctx.room.require(stored === 'rows' ? bytes * rowsFactor(ctx.config) : bytes);
}
