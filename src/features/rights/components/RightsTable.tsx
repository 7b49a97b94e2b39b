import { Fragment, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight, Lock } from 'lucide-react';
import type { ScopeTreeUse } from '@/contract/authorizations';
import { localized } from '@/domain/applications/summary';
import { isWithinScope } from '@/domain/deposits/scopeValues';
import type { ApplicationOutline, EntryOutline } from '@/domain/applications/outline';
import type { Rights } from '@/domain/rights/access';
import { OPERATIONS, type Operation, type OperationColumn } from '@/domain/rights/operations';
import {
  entryCheck,
  entryState,
  grantableOnEntry,
  grantableOnNode,
  lockedOperations,
  nodeCheck,
  toggleEntry,
  toggleNode,
  type CheckState,
  type RightsTableState,
} from '@/domain/rights/rightsTable';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TREE_PARTS_SHOWN } from '@/lib/paging';
import type { Grantable, ScopeNode } from '../api';
import { operationHelp, operationLabels } from '../operationLabels';
import { RightsLegend } from './RightsLegend';
import { useLazyNodeChange } from '../hooks/useLazyNodeChange';
import { LazyLevel, ScopeSearchRows, type LazyNode, type LazyTree } from './LazyScopeRows';

interface RightsTableProps {
  /** The application's name, under which the parts of large scope trees are read. */
  application: string;
  /** The answer the trees came with (the grant screen's or the request form's): its read rule applies to their parts. */
  use: Extract<ScopeTreeUse, 'grant' | 'request'>;
  model: ApplicationOutline;
  grantable: Grantable;
  granter: Rights;
  state: RightsTableState;
  onChange(state: RightsTableState): void;
  isPublic: boolean;
}

const asChecked = (state: CheckState) => (state === 1 ? true : state === -1 ? 'indeterminate' : false);

/**
 * Per data entry, the operations given on the whole entry and, for data with an authorization scope, on the
 * nodes of its scope trees (opened on demand). Boxes a dependency imposes are locked, boxes the granter
 * does not hold are disabled.
 */
export function RightsTable({
  application,
  use,
  model,
  grantable,
  granter,
  state,
  onChange,
  isPublic,
}: RightsTableProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const lazyChange = useLazyNodeChange(application, use, state, onChange);
  // Parts shown under each opened node or scope, TREE_PARTS_SHOWN more at a time.
  const [shown, setShown] = useState<Map<string, number>>(new Map());
  const showMore = (key: string) =>
    setShown((current) => new Map(current).set(key, (current.get(key) ?? TREE_PARTS_SHOWN) + TREE_PARTS_SHOWN));
  const toggleOpen = (key: string) =>
    setOpen((current) => new Set(current.has(key) ? [...current].filter((k) => k !== key) : [...current, key]));
  const operations = OPERATIONS.filter((op) => !isPublic || op === 'extraction');
  const title = (entry: EntryOutline) => localized(entry.i18n.title, i18n.locale, model.defaultLanguage, entry.name);
  const columnsOf = (entry: EntryOutline): Map<Operation, OperationColumn> =>
    new Map((grantable.columnsDescription[entry.name] ?? []).map((c) => [c.operation, c]));
  const lockedNote = t`induced by dependencies, cannot be modified directly`;
  const notGrantableNote = t`you may not give this right`;

  function box(
    entry: EntryOutline,
    operation: Operation,
    checked: CheckState,
    locked: boolean,
    allowed: boolean,
    label: string,
    onToggle: (checked: boolean) => void,
    waiting = false,
  ) {
    const note = locked ? lockedNote : allowed ? undefined : notGrantableNote;
    return (
      <span className="relative inline-flex items-center" title={note}>
        <Checkbox
          checked={asChecked(checked)}
          disabled={locked || waiting || !allowed}
          aria-label={note ? `${label} (${note})` : label}
          data-operation={operation}
          data-entry={entry.name}
          onCheckedChange={(value) => onToggle(value === true)}
        />
        {locked ? <Lock className="absolute -right-3 -top-1 size-3 text-muted-foreground" aria-hidden /> : null}
      </span>
    );
  }

  /**
   * One node's row, then, when it is open, what lies under it: `below` draws the children of a small tree (all
   * there), a large tree's (`lazy`: its reference) are read a page at a time. Unchecking a node of a large tree
   * whose right comes from a node above reads first the siblings that keep it (`useLazyNodeChange`).
   */
  function nodeRow(
    entry: EntryOutline,
    component: string,
    tree: ScopeNode[],
    node: LazyNode,
    depth: number,
    columns: Map<Operation, OperationColumn>,
    below: (key: string) => ReactNode,
    lazy?: string,
  ) {
    const entryRights = entryState(state, entry.name);
    const key = `${entry.name}/${component}/${node.id}`;
    const held = operations.filter(
      (op) => nodeCheck(state, entry.name, component, op, node.id) === 1 && !entryRights.all.includes(op),
    );
    const locked = lockedOperations(entry, held);
    const heldAbove = (op: Operation) =>
      (entryRights.nodes[component]?.[op] ?? []).some((k) => k !== node.id && isWithinScope(node.id, k));
    const hasChildren = (node.childCount ?? node.children.length) > 0;
    return (
      <Fragment key={key}>
        <TableRow data-testid="scope-node" data-node={node.naturalKey} className="bg-muted/30">
          <TableCell className="px-1 text-sm sm:px-3 sm:text-base" style={{ paddingLeft: `${0.25 + depth * 0.75}rem` }}>
            <div className="flex items-center gap-1">
              {hasChildren ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-expanded={open.has(key)}
                  aria-label={t`Show the parts of ${node.label}`}
                  onClick={() => toggleOpen(key)}
                >
                  {open.has(key) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
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
          {operations.map((op) => (
            <TableCell key={op} className="px-0 text-center sm:px-1">
              {columns.has(op)
                ? box(
                    entry,
                    op,
                    nodeCheck(state, entry.name, component, op, node.id),
                    locked.has(op),
                    !entryRights.all.includes(op) && grantableOnNode(granter, entry.name, op, component, node.id),
                    `${i18n._(operationLabels[op])} — ${title(entry)} — ${node.label}`,
                    (checked) =>
                      lazy === undefined
                        ? onChange(toggleNode(state, entry, component, tree, node.id, op, checked))
                        : checked
                          ? void lazyChange.check(entry, component, lazy, node.id, op)
                          : heldAbove(op)
                            ? void lazyChange.uncheck(entry, component, lazy, node.id, op)
                            : onChange(toggleNode(state, entry, component, tree, node.id, op, checked)),
                    lazyChange.waiting === node.id,
                  )
                : null}
            </TableCell>
          ))}
        </TableRow>
        {hasChildren && open.has(key) ? below(key) : null}
      </Fragment>
    );
  }

  function nodeRows(
    entry: EntryOutline,
    component: string,
    tree: ScopeNode[],
    nodes: ScopeNode[],
    depth: number,
    columns: Map<Operation, OperationColumn>,
    parentKey: string,
  ): ReactNode[] {
    const limit = shown.get(parentKey) ?? TREE_PARTS_SHOWN;
    const shownCount = i18n.number(limit);
    const partCount = i18n.number(nodes.length);
    const more =
      nodes.length > limit ? (
        <TableRow key={`${parentKey}/more`} className="bg-muted/30">
          <TableCell colSpan={operations.length + 1} className="p-0">
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
                onClick={() => showMore(parentKey)}
                data-testid="more-nodes"
              >
                {t`Show more (${shownCount} of ${partCount} shown)`}
              </Button>
            </div>
          </TableCell>
        </TableRow>
      ) : null;
    const rows = nodes
      .slice(0, limit)
      .map((node) =>
        nodeRow(entry, component, tree, node, depth, columns, (child) =>
          nodeRows(entry, component, tree, node.children, depth + 1, columns, child),
        ),
      );
    return [...rows, more];
  }

  /** A tree sent a level at a time: its search, then its first level, each part's children read when opened. */
  function largeTree(
    entry: EntryOutline,
    scope: Grantable['referenceScopes'][string][number],
    columns: Map<Operation, OperationColumn>,
  ) {
    const lazyTree: LazyTree = {
      application,
      reference: scope.reference,
      use,
      colSpan: operations.length + 1,
      renderNode: (node, depth) =>
        nodeRow(
          entry,
          scope.id,
          scope.nodes,
          node,
          depth,
          columns,
          (key) => (
            <LazyLevel
              key={`${key}/parts`}
              tree={lazyTree}
              parent={node.id}
              total={node.childCount ?? 0}
              depth={depth + 1}
            />
          ),
          scope.reference,
        ),
    };
    return (
      <>
        <ScopeSearchRows tree={lazyTree} label={scope.label} />
        <LazyLevel tree={lazyTree} first={scope.nodes} total={scope.rootCount ?? 0} depth={1} />
      </>
    );
  }

  function entryRows(entry: EntryOutline) {
    const columns = columnsOf(entry);
    const rights = entryState(state, entry.name);
    const locked = lockedOperations(entry, rights.all);
    const scopes = grantable.referenceScopes[entry.name] ?? [];
    return (
      <Fragment key={entry.name}>
        <TableRow data-testid="rights-entry" data-entry={entry.name}>
          <TableCell className="px-1 text-sm sm:px-3 sm:text-base">
            <div className="flex items-center gap-1">
              {scopes.length ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-expanded={open.has(entry.name)}
                  aria-label={t`Restrict ${title(entry)} to parts of its scope`}
                  onClick={() => toggleOpen(entry.name)}
                >
                  {open.has(entry.name) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                </Button>
              ) : (
                <span className="inline-block w-2 sm:w-11" aria-hidden />
              )}
              <span className="font-medium [overflow-wrap:anywhere]">{title(entry)}</span>
            </div>
          </TableCell>
          {operations.map((op) => (
            <TableCell key={op} className="px-0 text-center sm:px-1">
              {columns.has(op) ? (
                box(
                  entry,
                  op,
                  entryCheck(state, entry.name, op),
                  locked.has(op),
                  grantableOnEntry(granter, entry.name, op),
                  `${i18n._(operationLabels[op])} — ${title(entry)}`,
                  (checked) => onChange(toggleEntry(state, entry, op, checked)),
                )
              ) : (
                <span className="text-muted-foreground" aria-label={t`not applicable`}>
                  —
                </span>
              )}
            </TableCell>
          ))}
        </TableRow>
        {open.has(entry.name)
          ? scopes.map((scope) => (
              <Fragment key={scope.id}>
                <TableRow className="bg-muted/30">
                  <TableCell colSpan={operations.length + 1} className="pl-14 text-sm text-muted-foreground">
                    <Trans>By {scope.label}</Trans>
                    {scope.nodes.length === 0 ? (
                      <>
                        {' — '}
                        <Trans>no rows yet in this reference</Trans>
                      </>
                    ) : null}
                  </TableCell>
                </TableRow>
                {scope.rootCount === undefined
                  ? nodeRows(entry, scope.id, scope.nodes, scope.nodes, 1, columns, `${entry.name}/${scope.id}`)
                  : largeTree(entry, scope, columns)}
              </Fragment>
            ))
          : null}
      </Fragment>
    );
  }

  const references = model.data.filter((entry) => entry.kind === 'reference');
  const dataTypes = model.data.filter((entry) => entry.kind !== 'reference');
  const section = (label: string, entries: EntryOutline[]) =>
    entries.length ? (
      <>
        <TableRow>
          <TableCell
            colSpan={operations.length + 1}
            className="bg-muted/60 text-sm font-semibold uppercase tracking-wide"
          >
            {label}
          </TableCell>
        </TableRow>
        {entries.map(entryRows)}
      </>
    ) : null;

  return (
    // A size container: the rows of "Show more" measure the table's box by it.
    <div className="@container grid gap-2">
      <Table data-testid="rights-table" className="min-w-[22rem]">
        <TableHeader>
          <TableRow>
            <TableHead className="w-full px-2 sm:px-3">
              <Trans>Data</Trans>
            </TableHead>
            {operations.map((op) => (
              <TableHead
                key={op}
                className="w-11 min-w-11 px-0 text-center align-bottom text-xs sm:px-1 sm:text-sm"
                title={i18n._(operationHelp[op])}
              >
                {/* Upright on a phone, so that five columns of boxes fit beside the names. */}
                <span className="inline-block max-sm:rotate-180 max-sm:[writing-mode:vertical-rl]">
                  {i18n._(operationLabels[op])}
                </span>
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {section(t`Data types`, dataTypes)}
          {section(t`References`, references)}
        </TableBody>
      </Table>
      <RightsLegend
        operations={operations}
        lockedNote={lockedNote}
        notGrantableNote={granter.manager ? undefined : notGrantableNote}
      />
    </div>
  );
}
