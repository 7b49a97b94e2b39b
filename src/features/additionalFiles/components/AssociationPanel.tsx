import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight } from 'lucide-react';
import {
  attachedToWhole,
  nodeChosen,
  toggleScopeNode,
  toggleWholeData,
  type Associates,
} from '@/domain/additionalFiles/associates';
import { entryTitleOf, localized } from '@/domain/applications/summary';
import type { ApplicationModel } from '@/domain/configuration/model';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TREE_PARTS_SHOWN } from '@/lib/paging';
import type { FilesOverview, ScopeNode } from '../api';
import { LazyLevel, ScopeSearch, type LazyNode, type LazyTree } from './LazyScopeList';
import { useOpenSet } from '@/lib/useOpenSet';

interface PanelProps {
  /** The application's name, under which the parts of large scope trees are read. */
  applicationName: string;
  model: ApplicationModel;
  /** Scope trees per data entry; null while they load or when they cannot be read (offline). */
  referenceScopes: FilesOverview['referenceScopes'] | null;
  associates: Associates;
  disabled: boolean;
  onChange(next: Associates): void;
}

/**
 * The data a file is attached to: per data type an "associate" box for the whole of it, and the nodes of its
 * scope trees (a node stands for everything under it).
 */
export function AssociationPanel({
  applicationName,
  model,
  referenceScopes,
  associates,
  disabled,
  onChange,
}: PanelProps) {
  const { t, i18n } = useLingui();
  const text = (value: Record<string, string> | undefined, fallback: string) =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  // Trees are named in the language shown now, not in the one they were read (and kept) in.
  const referenceTitle = (reference: string) => entryTitleOf(model, reference, i18n.locale);
  const dataTypes = model.data.filter((entry) => entry.kind === 'dataType');
  if (dataTypes.length === 0)
    return <p className="text-muted-foreground">{t`This application has no data type to attach the file to.`}</p>;

  return (
    <ul className="grid gap-3" data-testid="association-panel">
      {dataTypes.map((entry) => {
        const title = text(entry.i18n.title, entry.name);
        const whole = attachedToWhole(associates, entry.name);
        const trees = referenceScopes?.[entry.name] ?? [];
        return (
          <li key={entry.name} className="rounded-md border border-border p-3">
            <label className="flex min-h-11 items-center gap-3 font-medium">
              <Checkbox
                checked={whole}
                disabled={disabled}
                onCheckedChange={() => onChange(toggleWholeData(associates, entry.name))}
              />
              {t`Associate with all of ${title}`}
            </label>
            {trees.map((tree) => (
              <div key={tree.id} className="mt-2">
                <p className="text-sm font-medium text-muted-foreground">{referenceTitle(tree.reference)}</p>
                {tree.rootCount === undefined ? (
                  <ScopeTree
                    nodes={tree.nodes}
                    depth={0}
                    isChosen={(key) => nodeChosen(associates, entry.name, tree.id, key)}
                    disabled={disabled}
                    onToggle={(key) => onChange(toggleScopeNode(associates, entry.name, tree.id, key))}
                  />
                ) : (
                  <LargeScopeTree
                    applicationName={applicationName}
                    reference={tree.reference}
                    label={referenceTitle(tree.reference)}
                    nodes={tree.nodes}
                    rootCount={tree.rootCount}
                    isChosen={(key) => nodeChosen(associates, entry.name, tree.id, key)}
                    disabled={disabled}
                    onToggle={(key) => onChange(toggleScopeNode(associates, entry.name, tree.id, key))}
                  />
                )}
              </div>
            ))}
          </li>
        );
      })}
    </ul>
  );
}

/** One node: its box, a button to open it when something lies under it, and that (`children`) when open. */
function NodeItem({
  node,
  isOpen,
  onOpen,
  chosen,
  disabled,
  onToggle,
  children,
}: {
  node: LazyNode;
  isOpen: boolean;
  onOpen(): void;
  chosen: ReturnType<typeof nodeChosen>;
  disabled: boolean;
  onToggle(key: string): void;
  children: ReactNode;
}) {
  const { t } = useLingui();
  const hasChildren = (node.childCount ?? node.children.length) > 0;
  return (
    <li>
      <div className="flex items-center gap-1">
        {hasChildren ? (
          <Button
            variant="ghost"
            size="icon"
            aria-expanded={isOpen}
            aria-label={isOpen ? t`Hide what is under ${node.label}` : t`Show what is under ${node.label}`}
            onClick={onOpen}
          >
            {isOpen ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          </Button>
        ) : (
          <span className="inline-block w-11" aria-hidden />
        )}
        <label className="flex min-h-11 items-center gap-3">
          <Checkbox
            checked={chosen !== null}
            disabled={disabled || chosen === 'whole' || chosen === 'ancestor'}
            onCheckedChange={() => onToggle(node.id)}
          />
          <span className="grid">
            <span>{node.label}</span>
            {node.path?.length ? <span className="text-xs text-muted-foreground">{node.path.join(' › ')}</span> : null}
          </span>
        </label>
      </div>
      {hasChildren && isOpen ? children : null}
    </li>
  );
}

/** A tree sent a level at a time: its search, then its first level, each part's children read when opened. */
function LargeScopeTree({
  applicationName,
  reference,
  label,
  nodes,
  rootCount,
  isChosen,
  disabled,
  onToggle,
}: {
  applicationName: string;
  reference: string;
  label: string;
  nodes: ScopeNode[];
  rootCount: number;
  isChosen(key: string): ReturnType<typeof nodeChosen>;
  disabled: boolean;
  onToggle(key: string): void;
}) {
  const open = useOpenSet();
  const tree: LazyTree = {
    application: applicationName,
    reference,
    renderNode: (node) => (
      <NodeItem
        key={node.id}
        node={node}
        isOpen={open.isOpen(node.id)}
        onOpen={() => open.toggle(node.id)}
        chosen={isChosen(node.id)}
        disabled={disabled}
        onToggle={onToggle}
      >
        <LazyLevel tree={tree} parent={node.id} total={node.childCount ?? 0} depth={1} />
      </NodeItem>
    ),
  };
  return (
    <>
      <ScopeSearch tree={tree} label={label} />
      <LazyLevel tree={tree} first={nodes} total={rootCount} depth={0} />
    </>
  );
}

function ScopeTree({
  nodes,
  depth,
  isChosen,
  disabled,
  onToggle,
}: {
  nodes: ScopeNode[];
  depth: number;
  isChosen(key: string): ReturnType<typeof nodeChosen>;
  disabled: boolean;
  onToggle(key: string): void;
}) {
  const { t, i18n } = useLingui();
  const open = useOpenSet();
  // TREE_PARTS_SHOWN more at a time: a scope reference of thousands of sites is not put in the page at once.
  const [limit, setLimit] = useState(TREE_PARTS_SHOWN);
  const shownCount = i18n.number(limit);
  const partCount = i18n.number(nodes.length);
  return (
    <ul className="grid" style={{ paddingLeft: depth ? '1rem' : 0 }}>
      {nodes.slice(0, limit).map((node) => (
        <NodeItem
          key={node.id}
          node={node}
          isOpen={open.isOpen(node.id)}
          onOpen={() => open.toggle(node.id)}
          chosen={isChosen(node.id)}
          disabled={disabled}
          onToggle={onToggle}
        >
          <ScopeTree
            nodes={node.children}
            depth={depth + 1}
            isChosen={isChosen}
            disabled={disabled}
            onToggle={onToggle}
          />
        </NodeItem>
      ))}
      {nodes.length > limit ? (
        <li>
          <Button
            type="button"
            variant="outline"
            // Wraps on a phone rather than widening the form.
            className="h-auto max-w-full whitespace-normal py-2 text-left"
            onClick={() => setLimit((current) => current + TREE_PARTS_SHOWN)}
            data-testid="more-nodes"
          >
            {t`Show more (${shownCount} of ${partCount} shown)`}
          </Button>
        </li>
      ) : null}
    </ul>
  );
}

/** Says why the panel is empty: the trees come from the server. */
export function AssociationUnavailable() {
  return (
    <p className="text-muted-foreground">
      <Trans>The data to attach the file to are read from the server: reconnect to change them.</Trans>
    </p>
  );
}
