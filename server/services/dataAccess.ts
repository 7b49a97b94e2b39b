import { filterStillCovers, type RowFilter, type Rights } from '../../src/domain/rights/access.ts';
import type { Operation } from '../../src/domain/rights/operations.ts';
import type { ServerContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { RefusalCode } from '../../src/domain/errors/refusalCodes.ts';
import { findApplication } from './applications.ts';
import { rightsOf } from './authorizations.ts';
import { requireSignedCharter } from './charter.ts';
import { readEntry } from './entryGate.ts';
import type { EntryContext } from './references.ts';

/**
 * The caller's rights on the data of an application. Every data, reference, file and export call goes through
 * here, so this is where a user who has not accepted the application's charter is stopped.
 */
async function rightsOnData(ctx: ServerContext, user: UserRow | null, data: EntryContext): Promise<Rights> {
  await requireSignedCharter(ctx, user, data.application);
  return rightsOf(ctx, user, data.application);
}

/**
 * The caller's rights on an application, and which rows of one entry they may read; refused when none. For what
 * tells about an entry without reading its rows (its versions, a version's file or publication state): those are
 * answered while a large write of the rows is under way, so that its progress can be followed.
 */
export async function readRights(
  ctx: ServerContext,
  user: UserRow | null,
  data: EntryContext,
): Promise<{ rights: Rights; filter: RowFilter }> {
  const rights = await rightsOnData(ctx, user, data);
  const filter = rights.rowFilter('extraction', data.entry.name);
  if (filter.kind === 'none') {
    if (!user) throw new Refusal('NOT_AUTHENTICATED');
    throw new Refusal('NO_RIGHT_FOR_USER_DATA_READER', { name: data.application.name, dataName: data.entry.name });
  }
  return { rights, filter };
}

/** `readRights`, once the entry's rows may be read: not while a write of them is half done (entryGate.ts). */
export async function readAccess(
  ctx: ServerContext,
  user: UserRow | null,
  data: EntryContext,
): Promise<{ rights: Rights; filter: RowFilter }> {
  const access = await readRights(ctx, user, data);
  await readEntry(data.application.id, data.entry.name);
  return access;
}

const refusals: Record<Operation, RefusalCode> = {
  depot: 'NO_RIGHT_FOR_USER_DATA_WRITER_FOR_DEPOSIT',
  publication: 'NO_RIGHT_FOR_USER_DATA_WRITER_FOR_PUBLISH',
  delete: 'NO_RIGHT_FOR_DELETE_RIGHTS_APPLICATION',
  extraction: 'NO_RIGHT_FOR_USER_DATA_READER',
  admin: 'NO_RIGHT_FOR_SET_RIGHTS_APPLICATION',
};

/** Refuses unless the caller may do the operation on part (`some`) or all of the entry. */
export async function requireOperation(
  ctx: ServerContext,
  user: UserRow,
  data: EntryContext,
  operation: Operation,
  extent: 'some' | 'all',
): Promise<Rights> {
  const rights = await rightsOnData(ctx, user, data);
  const allowed = extent === 'all' ? rights.all(operation, data.entry.name) : rights.any(operation, data.entry.name);
  if (!allowed) throw refusal(operation, data);
  return rights;
}

export function refusal(operation: Operation, data: EntryContext) {
  return new Refusal(refusals[operation], { name: data.application.name, dataName: data.entry.name, operation });
}

/**
 * What an export checks again while it runs (`sentWhileAllowed`): the reader is still signed in (or anonymous),
 * and may still read every row each of `filters` (by entry name) let through when it began. A right withdrawn or
 * narrowed, a charter to accept again, an account closed, a session ended: the rest is not sent.
 */
export function stillReading(
  ctx: ServerContext,
  callerNow: () => Promise<UserRow | null>,
  data: EntryContext,
  filters: Record<string, RowFilter>,
): () => Promise<void> {
  return async () => {
    // Read again: the rights kept for the application go by the version it had when the export began.
    const application = await findApplication(ctx, data.application.id);
    const rights = await rightsOnData(ctx, await callerNow(), { ...data, application });
    for (const [dataName, filter] of Object.entries(filters))
      if (!filterStillCovers(rights.rowFilter('extraction', dataName), filter))
        throw new Refusal('NO_RIGHT_FOR_USER_DATA_READER', { name: data.application.name, dataName });
  };
}
