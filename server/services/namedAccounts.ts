import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/** Unknown names a refusal spells out; it counts the others. */
const UNKNOWN_NAMES_SHOWN = 20;

export interface NamedAccount {
  id: string;
  login: string;
}

/**
 * The accounts a grant names, by login (case ignored) or id, each once. Refused (400 UNKNOWN_USERS) when a name
 * matches nobody. The names travel as two array parameters: one parameter per name stopped at the statement's
 * limit, and matching each name against every account found was quadratic in the list.
 */
export async function namedAccounts(
  db: Kysely<Schema>,
  names: readonly string[],
  { activeOnly }: { activeOnly: boolean },
): Promise<NamedAccount[]> {
  if (names.length === 0) return [];
  let select = db
    .selectFrom('users')
    .select(['id', 'login'])
    .where(
      sql<boolean>`(lower(login) = any(${names.map((name) => name.toLowerCase())}::text[]) or id::text = any(${names}::text[]))`,
    );
  if (activeOnly) select = select.where('state', '=', 'active');
  const accounts = await select.execute();
  const known = new Set(accounts.flatMap((account) => [account.id, account.login.toLowerCase()]));
  const unknown = [...new Set(names.filter((name) => !known.has(name) && !known.has(name.toLowerCase())))];
  if (unknown.length)
    throw new Refusal('UNKNOWN_USERS', { users: unknown.slice(0, UNKNOWN_NAMES_SHOWN), count: unknown.length });
  return accounts;
}
