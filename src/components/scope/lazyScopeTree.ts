import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ScopeNode, ScopeNodesPage, ScopeTreeUse } from '@/contract/authorizations';
import { TREE_PARTS_SHOWN } from '@/lib/paging';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { isUnreachable } from '@/offline/queryCache';
import { scopeNodesRead, type ScopeNodesAsked } from '@/offline/scopeNodesRead';
import { useKeptQuery } from '@/offline/useKeptQuery';

/** A node of a large tree as the server sends it: its children are asked when it is opened. */
export type LazyNode = ScopeNode & { path?: string[] };

/** Where a large tree's parts are read from. */
export interface LazyTreeSource {
  application: string;
  reference: string;
  use: ScopeTreeUse;
}

/** One read of a large tree (a page of a level, or a search) through the one read cache. */
export function useScopeNodes(source: LazyTreeSource, asked: ScopeNodesAsked, enabled = true) {
  const read = scopeNodesRead(source.application, source.reference, source.use, asked);
  return useKeptQuery<ScopeNodesPage>(read.queryKey, read.read, { enabled });
}

/**
 * The pages of a level shown so far, TREE_PARTS_SHOWN parts each: each begins after the last node of the one
 * before (`after`; the first at the level's beginning), so the server enters its index there whatever the depth.
 * "Show more" asks the page after the last node shown, which it knows once the last page is read (`first`: the
 * level's first page, when it came with the tree).
 */
export function useLevelPages(source: LazyTreeSource, parent: string | undefined, total: number, first?: LazyNode[]) {
  const [afters, setAfters] = useState<Array<string | undefined>>([undefined]);
  const lastAfter = afters[afters.length - 1];
  const firstOnly = afters.length === 1 && first !== undefined;
  // The same read as the last page's own: answered from the one read cache, not asked twice.
  const lastPage = useScopeNodes(source, { parent, after: lastAfter }, !firstOnly);
  const last = (firstOnly ? first : lastPage.data?.nodes)?.at(-1)?.id;
  return {
    afters,
    shown: Math.min(afters.length * TREE_PARTS_SHOWN, total),
    hasMore: afters.length * TREE_PARTS_SHOWN < total && last !== undefined,
    showMore: () => {
      if (last !== undefined) setAfters((list) => (list.includes(last) ? list : [...list, last]));
    },
  };
}

/** The search of a large tree: the text typed, and what the server found once the typing settles. */
export function useScopeSearch(source: LazyTreeSource) {
  const [text, setText] = useState('');
  const settled = useDebouncedValue(text.trim(), 250);
  const found = useScopeNodes(source, { q: settled }, settled !== '');
  return { text, setText, settled, found };
}

/** The words of a large tree's parts: why one is missing, and what a search found. */
export function useLazyTreeWords() {
  const { t } = useLingui();
  return {
    unread: (error: unknown) =>
      isUnreachable(error)
        ? t`This part was not read on this device and cannot be read offline: reconnect to see it.`
        : t`This part could not be read.`,
    searchStatus: (found: ScopeNodesPage | undefined) =>
      !found
        ? t`Searching…`
        : found.nodes.length === 0
          ? t`Nothing found.`
          : found.more
            ? t`The first ${found.nodes.length} found: type more to narrow them.`
            : t`Found:`,
  };
}
