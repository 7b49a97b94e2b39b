import { useLingui } from '@lingui/react/macro';
import { FileSearch, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface RowActionsProps {
  display: string;
  canDelete: boolean;
  onDetails(): void;
  onDelete(): void;
}

/** A row's details and deletion, named after the row, in the table and in the cards alike. */
export function RowActions({ display, canDelete, onDetails, onDelete }: RowActionsProps) {
  const { t } = useLingui();
  return (
    <>
      <Button variant="ghost" size="icon" aria-label={t`Details of ${display}`} onClick={onDetails}>
        <FileSearch aria-hidden />
      </Button>
      {canDelete ? (
        <Button variant="ghost" size="icon" aria-label={t`Delete ${display}`} onClick={onDelete}>
          <Trash2 aria-hidden />
        </Button>
      ) : null}
    </>
  );
}
