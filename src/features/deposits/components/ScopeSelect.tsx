import { useLingui } from '@lingui/react/macro';
import type { KeptRow } from '@/domain/rows/filterRows';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * One scope reference as a tree in a list: rows sorted by natural key under their parents, indented by depth
 * (a native list, which a tablet shows as its own picker).
 */
export function ScopeSelect({
  label,
  rows,
  value,
  onChange,
  display,
}: {
  label: string;
  rows: KeptRow[];
  value: string;
  onChange(hierarchicalKey: string): void;
  display(row: KeptRow): string;
}) {
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
