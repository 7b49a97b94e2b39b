import { useId, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import {
  useLazyTreeWords,
  useLevelPages,
  useScopeNodes,
  useScopeSearch,
  type LazyNode,
} from '@/components/scope/lazyScopeTree';

export type { LazyNode };

/** Where a large tree's parts are read from, and how the panel draws one node (with what lies under it when open). */
export interface LazyTree {
  application: string;
  reference: string;
  renderNode(node: LazyNode): ReactNode;
}

function Unread({ error }: { error: unknown }) {
  const words = useLazyTreeWords();
  return (
    <li className="py-2 text-sm text-muted-foreground">
      <span role="status" data-testid="scope-part-unread">
        {words.unread(error)}
      </span>
    </li>
  );
}

const FILES = 'files' as const;

function LazyPage({ tree, parent, after }: { tree: LazyTree; parent?: string; after?: string }) {
  const { t } = useLingui();
  const page = useScopeNodes({ ...tree, use: FILES }, { parent, after });
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
  const { afters, shown, hasMore, showMore } = useLevelPages({ ...tree, use: FILES }, parent, total, first);
  const shownCount = i18n.number(shown);
  const partCount = i18n.number(total);
  return (
    <ul className="grid" style={{ paddingLeft: depth ? '1rem' : 0 }}>
      {afters.map((after) =>
        after === undefined && first ? (
          first.map((node) => tree.renderNode(node))
        ) : (
          <LazyPage key={after ?? 'first'} tree={tree} parent={parent} after={after} />
        ),
      )}
      {hasMore ? (
        <li>
          <Button
            type="button"
            variant="outline"
            className="h-auto min-h-11 max-w-full whitespace-normal py-2 text-left"
            onClick={showMore}
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
  const words = useLazyTreeWords();
  const id = useId();
  const { text, setText, settled, found } = useScopeSearch({ ...tree, use: FILES });
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
            {words.searchStatus(found.data)}
          </p>
          {found.data?.nodes.length ? (
            <ul className="grid">{found.data.nodes.map((node) => tree.renderNode(node))}</ul>
          ) : null}
        </>
      )}
    </div>
  );
}
