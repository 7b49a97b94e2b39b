import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { EntryOutline } from '@/domain/applications/outline';
import type { Operation, OperationColumn } from '@/domain/rights/operations';
import { entryState, grantableOnNode, lockedOperations, nodeCheck, toggleNode } from '@/domain/rights/rightsTable';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import type { Grantable, ScopeNode } from '../../api';
import { operationLabels } from '../../operationLabels';
import { holderAbove } from '../../hooks/useLazyNodeChange';
import type { RightsTableModel } from '../../hooks/useRightsTable';
import { LazyLevel, ScopeSearchRows, type LazyNode, type LazyTree } from '../LazyScopeRows';
import { RightBox } from './RightBox';

type Scope = Grantable['referenceScopes'][string][number];

/** Where a node lies: its entry, the scope component and tree it belongs to, and the entry's columns. */
interface NodePlace {
  table: RightsTableModel;
  entry: EntryOutline;
  component: string;
  tree: ScopeNode[];
  columns: Map<Operation, OperationColumn>;
}

const nodeKey = (place: NodePlace, node: LazyNode) => `${place.entry.name}/${place.component}/${node.id}`;

/**
 * One node's row, then, when it is open, what lies under it: `below` draws the children of a small tree (all
 * there), a large tree's (`lazy`: its reference) are read a page at a time. Unchecking a node of a large tree
 * whose right comes from a node above reads first the siblings that keep it (`useLazyNodeChange`).
 */
function ScopeNodeRow({
  place,
  node,
  depth,
  below,
  lazy,
}: {
  place: NodePlace;
  node: LazyNode;
  depth: number;
  below: (key: string) => ReactNode;
  lazy?: string;
}) {
  const { t, i18n } = useLingui();
  const { table, entry, component, tree, columns } = place;
  const { state, onChange, lazyChange } = table;
  const entryRights = entryState(state, entry.name);
  const key = nodeKey(place, node);
  const held = table.operations.filter(
    (op) => nodeCheck(state, entry.name, component, op, node.id) === 1 && !entryRights.all.includes(op),
  );
  const locked = lockedOperations(entry, held);
  // A right reaching the node from a node above, on any operation: unchecking may take it from there too (an
  // operation that depends on the one unchecked).
  const heldAbove = holderAbove(state, entry.name, component, node.id) !== undefined;
  const hasChildren = (node.childCount ?? node.children.length) > 0;
  const open = table.isOpen(key);
  return (
    <>
      <TableRow data-testid="scope-node" data-node={node.naturalKey} className="bg-muted/30">
        <TableCell className="px-1 text-sm sm:px-3 sm:text-base" style={{ paddingLeft: `${0.25 + depth * 0.75}rem` }}>
          <div className="flex items-center gap-1">
            {hasChildren ? (
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-expanded={open}
                aria-label={t`Show the parts of ${node.label}`}
                onClick={() => table.toggleOpen(key)}
              >
                {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
              </Button>
            ) : (
              <span className="inline-block w-2 sm:w-11" aria-hidden />
            )}
            <span className="grid [overflow-wrap:anywhere]">
              <span>{node.label}</span>
              {node.path?.length ? (
                <span className="text-xs text-muted-foreground">{node.path.join(' › ')}</span>
              ) : null}
            </span>
          </div>
        </TableCell>
        {table.operations.map((op) => (
          <TableCell key={op} className="px-0 text-center sm:px-1">
            {columns.has(op) ? (
              <RightBox
                table={table}
                entry={entry}
                operation={op}
                checked={nodeCheck(state, entry.name, component, op, node.id)}
                locked={locked.has(op)}
                allowed={
                  !entryRights.all.includes(op) && grantableOnNode(table.granter, entry.name, op, component, node.id)
                }
                label={`${i18n._(operationLabels[op])} — ${table.title(entry)} — ${node.label}`}
                onToggle={(checked) =>
                  lazy === undefined
                    ? onChange(toggleNode(state, entry, component, tree, node.id, op, checked))
                    : checked
                      ? void lazyChange.check(entry, component, lazy, node.id, op)
                      : heldAbove
                        ? void lazyChange.uncheck(entry, component, lazy, node.id, op)
                        : onChange(toggleNode(state, entry, component, tree, node.id, op, checked))
                }
                waiting={lazyChange.waiting === node.id}
              />
            ) : null}
          </TableCell>
        ))}
      </TableRow>
      {hasChildren && open ? below(key) : null}
    </>
  );
}

/** Nodes of a small tree (all on the device) under `parentKey`, TREE_PARTS_SHOWN more at each "Show more". */
export function SmallTreeLevel({
  place,
  nodes,
  depth,
  parentKey,
}: {
  place: NodePlace;
  nodes: ScopeNode[];
  depth: number;
  parentKey: string;
}) {
  const { t, i18n } = useLingui();
  const { table } = place;
  const limit = table.shownUnder(parentKey);
  const shownCount = i18n.number(limit);
  const partCount = i18n.number(nodes.length);
  return (
    <>
      {nodes.slice(0, limit).map((node) => (
        <ScopeNodeRow
          key={nodeKey(place, node)}
          place={place}
          node={node}
          depth={depth}
          below={(child) => <SmallTreeLevel place={place} nodes={node.children} depth={depth + 1} parentKey={child} />}
        />
      ))}
      {nodes.length > limit ? (
        <TableRow className="bg-muted/30">
          <TableCell colSpan={table.operations.length + 1} className="p-0">
            {/* The row spans the whole table, which may be wider than its box on a phone: the button stays within
                the box's visible width (the container's, less its borders) and at its left edge when the table is
                scrolled sideways, so it is reached without scrolling. */}
            <div
              className="sticky left-0 max-w-[calc(100cqw-2px)] py-2 pr-3"
              style={{ paddingLeft: `${0.25 + depth * 0.75}rem` }}
            >
              <Button
                type="button"
                variant="outline"
                className="h-auto min-h-11 max-w-full whitespace-normal py-2 text-left"
                onClick={() => table.showMore(parentKey)}
                data-testid="more-nodes"
              >
                {t`Show more (${shownCount} of ${partCount} shown)`}
              </Button>
            </div>
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

/** A tree sent a level at a time: its search, then its first level, each part's children read when opened. */
export function LargeTree({ place, scope }: { place: NodePlace; scope: Scope }) {
  const { table } = place;
  const lazyTree: LazyTree = {
    application: table.application,
    reference: scope.reference,
    use: table.use,
    colSpan: table.operations.length + 1,
    renderNode: (node, depth) => (
      <ScopeNodeRow
        key={nodeKey(place, node)}
        place={place}
        node={node}
        depth={depth}
        lazy={scope.reference}
        below={(key) => (
          <LazyLevel
            key={`${key}/parts`}
            tree={lazyTree}
            parent={node.id}
            total={node.childCount ?? 0}
            depth={depth + 1}
          />
        )}
      />
    ),
  };
  return (
    <>
      <ScopeSearchRows tree={lazyTree} label={table.scopeTitle(scope)} />
      <LazyLevel tree={lazyTree} first={scope.nodes} total={scope.rootCount ?? 0} depth={1} />
    </>
  );
}
