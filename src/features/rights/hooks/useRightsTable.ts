import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ScopeTreeUse } from '@/contract/authorizations';
import { entryTitleOf, localized } from '@/domain/applications/summary';
import type { ApplicationOutline, EntryOutline } from '@/domain/applications/outline';
import type { Rights } from '@/domain/rights/access';
import { OPERATIONS, type Operation, type OperationColumn } from '@/domain/rights/operations';
import type { RightsTableState } from '@/domain/rights/rightsTable';
import { TREE_PARTS_SHOWN } from '@/lib/paging';
import type { Grantable } from '../api';
import { useLazyNodeChange } from './useLazyNodeChange';

export interface RightsTableProps {
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

/** What every part of the rights table reads: its props, the parts opened, the columns and how to name things. */
export type RightsTableModel = ReturnType<typeof useRightsTable>;

/**
 * The rights table's own state (the nodes and scopes opened, the parts shown under each) and what its parts derive
 * from the props: the operations shown (reading only for the public), each entry's title and columns, the notes
 * on boxes, and the changes of large trees' nodes (`useLazyNodeChange`).
 */
export function useRightsTable(props: RightsTableProps) {
  const { t, i18n } = useLingui();
  const { application, use, model, grantable, state, onChange, isPublic } = props;
  const [open, setOpen] = useState<Set<string>>(new Set());
  // Parts shown under each opened node or scope, TREE_PARTS_SHOWN more at a time.
  const [shown, setShown] = useState<Map<string, number>>(new Map());
  const lazyChange = useLazyNodeChange(application, use, state, onChange);
  return {
    ...props,
    lazyChange,
    isOpen: (key: string) => open.has(key),
    toggleOpen: (key: string) =>
      setOpen((current) => new Set(current.has(key) ? [...current].filter((k) => k !== key) : [...current, key])),
    shownUnder: (key: string) => shown.get(key) ?? TREE_PARTS_SHOWN,
    showMore: (key: string) =>
      setShown((current) => new Map(current).set(key, (current.get(key) ?? TREE_PARTS_SHOWN) + TREE_PARTS_SHOWN)),
    operations: OPERATIONS.filter((op) => !isPublic || op === 'extraction'),
    title: (entry: EntryOutline) => localized(entry.i18n.title, i18n.locale, model.defaultLanguage, entry.name),
    // The reference a scope tree is of, named in the language shown now: the trees' own labels are in the language
    // they were read in, which a device may have kept since.
    scopeTitle: (scope: { reference: string }) => entryTitleOf(model, scope.reference, i18n.locale),
    columnsOf: (entry: EntryOutline): Map<Operation, OperationColumn> =>
      new Map((grantable.columnsDescription[entry.name] ?? []).map((c) => [c.operation, c])),
    lockedNote: t`induced by dependencies, cannot be modified directly`,
    notGrantableNote: t`you may not give this right`,
  };
}
