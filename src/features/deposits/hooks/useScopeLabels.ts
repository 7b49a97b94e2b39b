import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ApplicationModel } from '@/domain/configuration/model';
import type { KeptRow } from '@/domain/rows/filterRows';
import { rowDisplay } from '@/domain/rows/rowDisplay';

const byNaturalKey = (row: KeptRow) => row.naturalKey;

/**
 * How the scope pickers name rows: each reference's display pattern in the interface's language, and any row the
 * device holds by its hierarchical key (a site's project). Stable while the rows and the language are, so that a
 * search over thousands of rows labels them once, not at each keystroke.
 */
export function useScopeLabels(model: ApplicationModel, scopeRows: Record<string, KeptRow[]>) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const displayOf = useMemo(() => {
    const displays = new Map<string, (row: KeptRow) => string>();
    for (const target of model.data)
      displays.set(target.name, (row) => rowDisplay(target, row.values, row.naturalKey, locale, model.defaultLanguage));
    return (reference: string) => displays.get(reference) ?? byNaturalKey;
  }, [model, locale]);
  // Indexed at the first question only: small scopes, listed natively, never ask.
  const labelOf = useMemo(() => {
    let rowsByKey: Map<string, { reference: string; row: KeptRow }> | undefined;
    return (hierarchicalKey: string) => {
      if (!rowsByKey) {
        rowsByKey = new Map();
        for (const [reference, rows] of Object.entries(scopeRows))
          for (const row of rows) rowsByKey.set(row.hierarchicalKey, { reference, row });
      }
      const found = rowsByKey.get(hierarchicalKey);
      return found ? displayOf(found.reference)(found.row) : undefined;
    };
  }, [scopeRows, displayOf]);
  return { displayOf, labelOf };
}
