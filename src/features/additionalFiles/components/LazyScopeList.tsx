import { useId, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { TREE_PARTS_SHOWN } from '@/lib/paging';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { isUnreachable } from '@/offline/queryCache';
import { scopeNodesRead } from '@/offline/scopeNodesRead';
import { useKeptQuery } from '@/offline/useKeptQuery';
import type { ScopeNode } from '../api';

/** A node of a large tree as the server sends it: its children are asked when it is opened. */
export type LazyNode = ScopeNode & { path?: string[] };

/** Where a large tree's parts are read from, and how the panel draws one node (with what lies under it when open). */
export interface LazyTree {
  application: string;
  reference: string;
  renderNode(node: LazyNode): ReactNode;
}

function Unread({ error }: { error: unknown }) {
  const { t } = useLingui();
  return (
    <li className="py-2 text-sm text-muted-foreground">
      <span role="status" data-testid="scope-part-unread">
        {isUnreachable(error)
          ? t`This part was not read on this device and cannot be read offline: reconnect to see it.`
          : t`This part could not be read.`}
      </span>
    </li>
  );
}

function LazyPage({ tree, parent, offset }: { tree: LazyTree; parent?: string; offset: number }) {
  const { t } = useLingui();
  const read = scopeNodesRead(tree.application, tree.reference, 'files', { parent, offset });
  const page = useKeptQuery(read.queryKey, read.read);
  if (page.error) return <Unread error={page.error} />;
  if (!page.data)
    return (
      <li className="py-2 text-sm text-muted-foreground">
        <span role="status">{t`Loading…`}</span>
      </li>
    );
  return <>{page.data.nodes.map((node) => tree.renderNode(node))}</>;
}

/**
 * One level of a large tree, TREE_PARTS_SHOWN parts at a time as in a small one, each further page read when
 * "Show more" is pressed. The first level's first page came with the tree.
 */
export function LazyLevel({
  tree,
  parent,
  first,
  total,
  depth,
}: {
  tree: LazyTree;
  parent?: string;
  first?: LazyNode[];
  total: number;
  depth: number;
}) {
  const { t, i18n } = useLingui();
  const [pages, setPages] = useState(1);
  const offsets = Array.from({ length: pages }, (_, i) => i * TREE_PARTS_SHOWN);
  const shownCount = i18n.number(Math.min(pages * TREE_PARTS_SHOWN, total));
  const partCount = i18n.number(total);
  return (
    <ul className="grid" style={{ paddingLeft: depth ? '1rem' : 0 }}>
      {offsets.map((offset) =>
        offset === 0 && first ? (
          first.map((node) => tree.renderNode(node))
        ) : (
          <LazyPage key={offset} tree={tree} parent={parent} offset={offset} />
        ),
      )}
      {pages * TREE_PARTS_SHOWN < total ? (
        <li>
          <Button
            type="button"
            variant="outline"
            className="h-auto min-h-11 max-w-full whitespace-normal py-2 text-left"
            onClick={() => setPages((n) => n + 1)}
            data-testid="more-nodes"
          >
            {t`Show more (${shownCount} of ${partCount} shown)`}
          </Button>
        </li>
      ) : null}
    </ul>
  );
}

/** The search of a large tree: a field, then the nodes found with the labels above them. */
export function ScopeSearch({ tree, label }: { tree: LazyTree; label: string }) {
  const { t } = useLingui();
  const id = useId();
  const [text, setText] = useState('');
  const settled = useDebouncedValue(text.trim(), 250);
  const read = scopeNodesRead(tree.application, tree.reference, 'files', { q: settled });
  const found = useKeptQuery(read.queryKey, read.read, { enabled: settled !== '' });
  return (
    // Set apart from the tree below it: what was found is not the tree's first parts.
    <div className="mb-1 grid gap-1 border-b border-border pb-2 pt-1">
      <label htmlFor={id} className="text-sm">
        {t`Find in ${label} by name or code`}
      </label>
      <Input
        id={id}
        type="search"
        value={text}
        autoComplete="off"
        className="min-h-11 max-w-sm"
        onChange={(event) => setText(event.target.value)}
        data-testid="scope-search"
      />
      {settled === '' ? null : found.error ? (
        <ul className="grid">
          <Unread error={found.error} />
        </ul>
      ) : (
        <>
          <p role="status" className="py-1 text-sm text-muted-foreground">
            {!found.data
              ? t`Searching…`
              : found.data.nodes.length === 0
                ? t`Nothing found.`
                : found.data.more
                  ? t`The first ${found.data.nodes.length} found: type more to narrow them.`
                  : t`Found:`}
          </p>
          {found.data?.nodes.length ? (
            <ul className="grid">{found.data.nodes.map((node) => tree.renderNode(node))}</ul>
          ) : null}
        </>
      )}
    </div>
  );
}
