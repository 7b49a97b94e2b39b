import { Fragment, useId, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ScopeTreeUse } from '@/contract/authorizations';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { TableCell, TableRow } from '@/components/ui/table';
import {
  useLazyTreeWords,
  useLevelPages,
  useScopeNodes,
  useScopeSearch,
  type LazyNode,
} from '@/components/scope/lazyScopeTree';

export type { LazyNode };

/** Where a large tree's parts are read from, and how the table draws one node (with what lies under it when open). */
export interface LazyTree {
  application: string;
  reference: string;
  use: ScopeTreeUse;
  colSpan: number;
  renderNode(node: LazyNode, depth: number): ReactNode;
}

/** A row spanning the table, indented as the level it speaks of; within the box's width on a phone. */
function NoteRow({ tree, depth, children }: { tree: LazyTree; depth: number; children: ReactNode }) {
  return (
    <TableRow className="bg-muted/30">
      <TableCell colSpan={tree.colSpan} className="p-0">
        <div
          className="sticky left-0 max-w-[calc(100cqw-2px)] py-2 pr-3 text-sm text-muted-foreground"
          style={{ paddingLeft: `${0.25 + depth * 0.75}rem` }}
        >
          {children}
        </div>
      </TableCell>
    </TableRow>
  );
}

function ShowMore({
  tree,
  depth,
  shown,
  total,
  onMore,
}: {
  tree: LazyTree;
  depth: number;
  shown: number;
  total: number;
  onMore(): void;
}) {
  const { t, i18n } = useLingui();
  const shownCount = i18n.number(Math.min(shown, total));
  const partCount = i18n.number(total);
  return (
    <NoteRow tree={tree} depth={depth}>
      <Button
        type="button"
        variant="outline"
        className="h-auto min-h-11 max-w-full whitespace-normal py-2 text-left text-foreground"
        onClick={onMore}
        data-testid="more-nodes"
      >
        {t`Show more (${shownCount} of ${partCount} shown)`}
      </Button>
    </NoteRow>
  );
}

/** Says why a part is missing: offline and never read on this device, or refused. */
function Unread({ tree, depth, error }: { tree: LazyTree; depth: number; error: unknown }) {
  const words = useLazyTreeWords();
  return (
    <NoteRow tree={tree} depth={depth}>
      <span role="status" data-testid="scope-part-unread">
        {words.unread(error)}
      </span>
    </NoteRow>
  );
}

function LazyPage({ tree, parent, after, depth }: { tree: LazyTree; parent?: string; after?: string; depth: number }) {
  const { t } = useLingui();
  const page = useScopeNodes(tree, { parent, after });
  if (page.error) return <Unread tree={tree} depth={depth} error={page.error} />;
  if (!page.data)
    return (
      <NoteRow tree={tree} depth={depth}>
        <span role="status">{t`Loading…`}</span>
      </NoteRow>
    );
  return <>{page.data.nodes.map((node) => tree.renderNode(node, depth))}</>;
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
  const { afters, shown, hasMore, showMore } = useLevelPages(tree, parent, total, first);
  return (
    <>
      {afters.map((after) =>
        after === undefined && first ? (
          <Fragment key="first">{first.map((node) => tree.renderNode(node, depth))}</Fragment>
        ) : (
          <LazyPage key={after ?? 'first'} tree={tree} parent={parent} after={after} depth={depth} />
        ),
      )}
      {hasMore ? <ShowMore tree={tree} depth={depth} shown={shown} total={total} onMore={showMore} /> : null}
    </>
  );
}

/** The search of a large tree: a field, then the nodes found with the labels above them. */
export function ScopeSearchRows({ tree, label }: { tree: LazyTree; label: string }) {
  const { t } = useLingui();
  const words = useLazyTreeWords();
  const id = useId();
  const { text, setText, settled, found } = useScopeSearch(tree);
  return (
    <>
      <NoteRow tree={tree} depth={1}>
        <label htmlFor={id} className="mb-1 block">
          {t`Find in ${label} by name or code`}
        </label>
        <Input
          id={id}
          type="search"
          value={text}
          autoComplete="off"
          className="min-h-11 max-w-sm text-foreground"
          onChange={(event) => setText(event.target.value)}
          data-testid="scope-search"
        />
      </NoteRow>
      {settled === '' ? null : found.error ? (
        <Unread tree={tree} depth={1} error={found.error} />
      ) : !found.data ? (
        <NoteRow tree={tree} depth={1}>
          <span role="status">{words.searchStatus(found.data)}</span>
        </NoteRow>
      ) : (
        <>
          <NoteRow tree={tree} depth={1}>
            <span role="status">{words.searchStatus(found.data)}</span>
          </NoteRow>
          {found.data.nodes.map((node) => tree.renderNode(node, 1))}
          {/* What was found is not the tree's first parts, which follow. */}
          <NoteRow tree={tree} depth={1}>
            {t`Every part of ${label}:`}
          </NoteRow>
        </>
      )}
    </>
  );
}
