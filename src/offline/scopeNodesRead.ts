import type { ScopeNodesPage, ScopeTreeUse } from '@/contract/authorizations';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import type { CachedRead } from './queryCache';

/**
 * What one read of a large scope tree asks: a page of a level (`parent` absent: the first level), beginning after
 * the node `after` (absent: at the level's beginning), or a search.
 */
export type ScopeNodesAsked = { parent?: string; after?: string } | { q: string };

/**
 * A page or a search of a large scope tree (`/scopeNodes`), through the one read cache: a part opened once opens
 * again offline. The language is in the key, as the labels are in it.
 */
export function scopeNodesRead(
  application: string,
  reference: string,
  use: ScopeTreeUse,
  asked: ScopeNodesAsked,
): CachedRead<ScopeNodesPage> {
  const language = currentLanguage();
  const query = new URLSearchParams({ use });
  if ('q' in asked) query.set('q', asked.q);
  else {
    if (asked.parent !== undefined) query.set('parent', asked.parent);
    if (asked.after !== undefined) query.set('after', asked.after);
  }
  return {
    queryKey: ['application', application, 'scopeNodes', reference, use, language, asked],
    read: (signal) =>
      callApi<ScopeNodesPage>(
        `/applications/${encodeURIComponent(application)}/scopeNodes/${encodeURIComponent(reference)}?${query}`,
        { signal },
      ),
  };
}
