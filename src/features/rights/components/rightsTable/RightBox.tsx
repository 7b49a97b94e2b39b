import { Lock } from 'lucide-react';
import type { EntryOutline } from '@/domain/applications/outline';
import type { Operation } from '@/domain/rights/operations';
import type { CheckState } from '@/domain/rights/rightsTable';
import { Checkbox } from '@/components/ui/checkbox';
import type { RightsTableModel } from '../../hooks/useRightsTable';

const asChecked = (state: CheckState) => (state === 1 ? true : state === -1 ? 'indeterminate' : false);

/**
 * One operation's box on an entry or a node. Boxes a dependency imposes are locked, boxes the granter does not
 * hold are disabled (each says why), and a node's boxes wait while the parts a change needs are read.
 */
export function RightBox({
  table,
  entry,
  operation,
  checked,
  locked,
  allowed,
  label,
  onToggle,
  waiting = false,
}: {
  table: RightsTableModel;
  entry: EntryOutline;
  operation: Operation;
  checked: CheckState;
  locked: boolean;
  allowed: boolean;
  label: string;
  onToggle(checked: boolean): void;
  waiting?: boolean;
}) {
  const note = locked ? table.lockedNote : allowed ? undefined : table.notGrantableNote;
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
