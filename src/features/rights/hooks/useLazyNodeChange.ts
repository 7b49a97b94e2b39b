import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ScopeTreeUse } from '@/contract/authorizations';
import { isWithinScope } from '@/domain/deposits/scopeValues';
import type { EntryOutline } from '@/domain/applications/outline';
import type { Operation } from '@/domain/rights/operations';
import { entryState, toggleNode, type RightsTableState } from '@/domain/rights/rightsTable';
import { LevelTooLarge, levelSize, parentInTree, partBetween } from '@/components/scope/lazyPath';
import { useLazyTreeWords } from '@/components/scope/lazyScopeTree';
import { showToast } from '@/lib/toast';

/** The highest checked node above `node` in a component, on any operation: where the right it holds comes from. */
export function holderAbove(state: RightsTableState, entry: string, component: string, node: string) {
  const held = Object.values(entryState(state, entry).nodes[component] ?? {}).flat();
  return held
    .filter((key) => key !== node && isWithinScope(node, key))
    .sort((a, b) => a.length - b.length)
    .at(0);
}

/**
 * Changing a node of a large tree as in a small one. Unchecking a node whose right comes from a checked node above
 * it: the node above gives way to the siblings along the way down, whose levels are read first (`partBetween`: they
 * are not all on the device). Meanwhile the node's boxes wait (`waiting`); the change applies to the table as it is
 * once they are read. A level that cannot be read (offline and never read, or too large) says so and changes
 * nothing.
 */
export function useLazyNodeChange(
  application: string,
  use: ScopeTreeUse,
  state: RightsTableState,
  onChange: (state: RightsTableState) => void,
) {
  const { t, i18n } = useLingui();
  const words = useLazyTreeWords();
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);
  const [waiting, setWaiting] = useState<string>();
  const uncheck = async (
    entry: EntryOutline,
    component: string,
    reference: string,
    node: string,
    operation: Operation,
  ) => {
    const holder = holderAbove(latest.current, entry.name, component, node);
    if (!holder) return;
    setWaiting(node);
    try {
      const tree = await partBetween({ application, reference, use }, holder, node);
      onChange(toggleNode(latest.current, entry, component, tree, node, operation, false));
    } catch (error) {
      if (error instanceof LevelTooLarge) {
        const count = i18n.number(error.total);
        showToast('error', t`A part above holds ${count} parts, too many to give each one the right: change it there.`);
      } else showToast('error', words.unread(error));
    } finally {
      setWaiting(undefined);
    }
  };
  /**
   * Checking a node of a large tree, as a small tree does: the node is checked at once, then a node above whose
   * every child now holds the right holds it instead, and so on up (told by the size of its level, read from the
   * cache: the node was shown under it). A level that cannot be read leaves the children checked, the same right.
   */
  const check = async (
    entry: EntryOutline,
    component: string,
    reference: string,
    node: string,
    operation: Operation,
  ) => {
    const checked = toggleNode(latest.current, entry, component, [], node, operation, true);
    latest.current = checked;
    onChange(checked);
    let child = node;
    for (
      let parent = parentInTree(reference, child);
      parent;
      child = parent, parent = parentInTree(reference, parent)
    ) {
      const above = parent;
      const size = await levelSize({ application, reference, use }, above).catch(() => Infinity);
      // The table as it is now: another box may have changed while the size was read.
      const keys = entryState(latest.current, entry.name).nodes[component]?.[operation] ?? [];
      const children = keys.filter((key) => parentInTree(reference, key) === above);
      if (children.length < size) return;
      const level = [
        {
          id: above,
          naturalKey: '',
          label: '',
          children: children.map((id) => ({ id, naturalKey: '', label: '', children: [] })),
        },
      ];
      const next = toggleNode(latest.current, entry, component, level, child, operation, true);
      latest.current = next;
      onChange(next);
    }
  };
  return { waiting, uncheck, check };
}
