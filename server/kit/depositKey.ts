import { createHash } from 'node:crypto';
import type { DepositRequest } from './depositRequest.ts';

/**
 * The `Idempotency-Key` of a deposit, made from everything the request carries: sent again (a second run, a run
 * resumed after a failure), it gets the server's kept answer instead of a second version. Any change to the file
 * or its target makes another key, as it must: the server refuses a key reused with another payload.
 */
export function depositKey(request: DepositRequest): string {
  const hash = createHash('sha256');
  for (const part of [request.application, request.dataType, request.fileName, request.params])
    hash.update(part).update('\u0000');
  hash.update(request.content);
  return `terrain-kit-${hash.digest('hex')}`;
}
