import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { ScopeNodesPage, ScopeNodesQuery, ScopeTreeUse } from '../../src/contract/authorizations.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { requireFileReader } from './additionalFileRights.ts';
import { requireAuthorizationManager } from './authorizationManagers.ts';
import { requireSignedCharter } from './charter.ts';
import { readScopeNodes } from './scopeTrees.ts';

/** The read rule of the answer a page complements: whoever may read one may read the other. */
async function requireTreeReader(ctx: ServerContext, user: UserRow, application: ApplicationRow, use: ScopeTreeUse) {
  if (use === 'grant') await requireAuthorizationManager(ctx, user, application);
  else if (use === 'files') await requireFileReader(ctx, user, application);
  else await requireSignedCharter(ctx, user, application);
}

/**
 * A page or a search of a large scope tree, for a caller who may read the answer it complements. Only references
 * that scope some data entry's rights are read, as those answers read no other.
 */
export async function scopeNodes(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  referenceName: string,
  query: ScopeNodesQuery,
  locale: string,
): Promise<ScopeNodesPage> {
  await requireTreeReader(ctx, user, application, query.use);
  const model = application.model;
  const scoping = model.data.some((d) => d.authorization?.scopes.some((s) => s.reference === referenceName));
  const entry = model.data.find((d) => d.name === referenceName && d.kind === 'reference');
  if (!scoping || !entry) throw new Refusal('NO_SUCH_REFERENCE', { name: referenceName });
  return readScopeNodes(ctx, application, entry, query, locale);
}
