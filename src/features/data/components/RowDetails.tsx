import { Trans, useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import { naturalPath } from '@/domain/deposits/scopeValues';
import { withoutLeadingNullParts } from '@/domain/keys';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { RowView } from '@/contract/rows';
import { useEntryRows } from '../hooks/useEntryRows';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { RowValue } from './RowValue';

interface RowDetailsProps {
  application: LoadedApplication;
  target: { reference: string; naturalKey: string } | null;
  onClose(): void;
  onOpenReference(reference: string, naturalKey: string): void;
}

/**
 * What the row is, in words: where it lies in its tree (`plateforme › oir`) for a row with parents, else its display
 * when it says more than its key. Never the stored hierarchical key (`type_de_sitesKplateforme.sitesKoir`).
 */
function describedRow(row: RowView, locale: string): string {
  const path = naturalPath(row.hierarchicalKey).split('.').map(withoutLeadingNullParts);
  if (path.length > 1) return path.join(' › ');
  const display = row[`__display_${locale}`] ?? row.__display_default;
  return display !== row.naturalKey ? display : '';
}

/** Every value of one row in two columns; values pointing to other rows open those rows in turn. */
export function RowDetails({ application, target, onClose, onOpenReference }: RowDetailsProps) {
  const { t, i18n } = useLingui();
  const { model, view } = application;
  const entry = target ? model.data.find((d) => d.name === target.reference) : undefined;
  const { page, error } = useEntryRows(view.name, entry, { naturalKeys: [target?.naturalKey ?? ''], limit: 1 });
  const row: RowView | null | undefined = page ? (page.referenceValues[0] ?? null) : undefined;

  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t`Close`} className="max-w-2xl" data-testid="row-details">
        <DialogHeader>
          <DialogTitle>{target ? `${text(entry?.i18n.title, target.reference)} — ${withoutLeadingNullParts(target.naturalKey)}` : ''}</DialogTitle>
          <DialogDescription>{row ? describedRow(row, i18n.locale) : null}</DialogDescription>
        </DialogHeader>
        {error ? <p className="text-destructive">{translateServerError(i18n, error)}</p> : null}
        {row === null ? (
          <p>
            <Trans>This line no longer exists.</Trans>
          </p>
        ) : null}
        {row && entry ? (
          <table className="w-full text-left">
            <tbody className="divide-y divide-border">
              {entry.components.map((component) => (
                <tr key={component.key}>
                  <th scope="row" className="w-2/5 py-2 pr-3 align-top font-medium text-muted-foreground">
                    {text(component.exportHeader.title, component.key)}
                  </th>
                  <td className="py-2 [overflow-wrap:anywhere]">
                    <RowValue component={component} value={row.values[component.key]} vertical onOpenReference={onOpenReference} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
