import { useLingui } from '@lingui/react/macro';
import type { KeptRow } from '@/domain/rows/filterRows';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { SCOPE_LIST_MAX } from '../scopeMatches';
import { ScopeSearch } from './ScopeSearch';

interface ScopeSelectProps {
  label: string;
  rows: KeptRow[];
  value: string;
  onChange(hierarchicalKey: string): void;
  display(row: KeptRow): string;
  /** A parent row's label, by its hierarchical key (for the search of a large reference). */
  labelOf(hierarchicalKey: string): string | undefined;
}

/** One scope reference: listed while it is small, searched by label or code beyond {@link SCOPE_LIST_MAX} rows. */
export function ScopeSelect(props: ScopeSelectProps) {
  return props.rows.length > SCOPE_LIST_MAX ? <ScopeSearch {...props} /> : <ScopeList {...props} />;
}

/**
 * A small scope reference as a tree in a list: rows sorted by natural key under their parents, indented by depth
 * (a native list, which a tablet shows as its own picker).
 */
function ScopeList({ label, rows, value, onChange, display }: ScopeSelectProps) {
  const { t } = useLingui();
  const ordered = [...rows].sort((a, b) => a.hierarchicalKey.localeCompare(b.hierarchicalKey));
  return (
    <FormField label={label}>
      <NativeSelect value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t`Choose…`}</option>
        {ordered.map((row) => {
          const depth = row.hierarchicalKey.split('.').length - 1;
          return (
            <option key={row.id} value={row.hierarchicalKey}>
              {`${'\u00a0\u00a0'.repeat(depth)}${display(row)}`}
            </option>
          );
        })}
      </NativeSelect>
    </FormField>
  );
}
