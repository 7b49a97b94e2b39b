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

/** The pages of a level shown so far, TREE_PARTS_SHOWN parts each, and the next one asked by "Show more". */
export function useLevelPages(total: number) {
  const [pages, setPages] = useState(1);
  return {
    offsets: Array.from({ length: pages }, (_, index) => index * TREE_PARTS_SHOWN),
    shown: Math.min(pages * TREE_PARTS_SHOWN, total),
    hasMore: pages * TREE_PARTS_SHOWN < total,
    showMore: () => setPages((count) => count + 1),
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
