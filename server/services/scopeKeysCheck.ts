import { sql, type Kysely } from 'kysely';
import type { ApplicationOutline } from '../../src/domain/applications/outline.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { AuthorizationRules } from '../../src/domain/rights/authorization.ts';
import type { Schema } from '../db/schema.ts';

/** Keys a refusal names; it counts them all. */
const UNKNOWN_KEYS_SHOWN = 20;

/**
 * Refuses rules naming a place no row of its scope reference holds or lies under (400 UNKNOWN_SCOPE_KEYS): such a right covers
 * nothing, silently — a key mistyped by a script, or one a change kept offline names since a reload moved its row.
 * Keys the rules already held before (`before`, an edited grant) pass: a grant naming a row deleted since stays
 * editable.
 */
export async function refuseUnknownScopeKeys(
  db: Kysely<Schema>,
  applicationId: string,
  model: ApplicationOutline,
  rules: AuthorizationRules,
  before?: AuthorizationRules,
): Promise<void> {
  const held = new Set(namedKeys(model, before).map(({ reference, key }) => `${reference}\u0000${key}`));
  const byReference = new Map<string, { dataName: string; keys: Set<string> }>();
  for (const { reference, key, dataName } of namedKeys(model, rules)) {
    if (held.has(`${reference}\u0000${key}`)) continue;
    const named = byReference.get(reference) ?? { dataName, keys: new Set<string>() };
    named.keys.add(key);
    byReference.set(reference, named);
  }
  for (const [reference, { dataName, keys }] of byReference) {
    // A key holding a NUL names nothing (and no text parameter may carry one).
    const nul = [...keys].filter((key) => key.includes('\u0000'));
    if (nul.length)
      throw new Refusal('UNKNOWN_SCOPE_KEYS', { dataName, keys: nul.slice(0, UNKNOWN_KEYS_SHOWN), count: nul.length });
    // A key is a place when a row of the reference holds it, or lies under it (a key naming a parent's part of the
    // path covers the sub-tree under it, as rights are matched).
    const missing = await sql<{ key: string }>`
      select k.key from unnest(${[...keys]}::text[]) as k(key)
      where not exists (
        select 1 from data_rows d
        where d.application_id = ${applicationId} and d.data_name = ${reference} and d.file_id is null
          and (d.hierarchical_key = k.key
               or (d.hierarchical_key ~>=~ (k.key || '.') and d.hierarchical_key ~<~ (k.key || '/'))))`.execute(db);
    const unknown = missing.rows.map((row) => row.key).sort();
    if (unknown.length)
      throw new Refusal('UNKNOWN_SCOPE_KEYS', {
        dataName,
        keys: unknown.slice(0, UNKNOWN_KEYS_SHOWN),
        count: unknown.length,
      });
  }
}

/** Each scope key the rules name, with the reference whose rows it names and the data it restricts. */
function namedKeys(model: ApplicationOutline, rules: AuthorizationRules | undefined) {
  const named: Array<{ reference: string; key: string; dataName: string }> = [];
  for (const [dataName, grants] of Object.entries(rules?.restricted ?? {})) {
    const scopes = model.data.find((entry) => entry.name === dataName)?.authorization?.scopes ?? [];
    for (const grant of grants)
      for (const [component, keys] of Object.entries(grant.scopes)) {
        const reference = scopes.find((scope) => scope.component === component)?.reference;
        if (reference) for (const key of keys) named.push({ reference, key, dataName });
      }
  }
  return named;
}
