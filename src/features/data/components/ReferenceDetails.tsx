import { Trans, useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import type { DataEntry } from '@/domain/configuration/model';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { LoadedApplication } from '@/offline/useApplicationModel';

/** A side panel describing a reference: its description, columns, key, what it depends on, its line count. */
export function ReferenceDetails({ entry, application, onClose }: { entry: DataEntry | null; application: LoadedApplication; onClose(): void }) {
  const { t, i18n } = useLingui();
  const { model, view } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  return (
    <Dialog open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t`Close`} className="sm:left-auto sm:right-0 sm:top-0 sm:h-dvh sm:max-h-dvh sm:translate-x-0 sm:translate-y-0 sm:rounded-none">
        {entry ? (
          <>
            <DialogHeader>
              <DialogTitle>{text(entry.i18n.title, entry.name)}</DialogTitle>
              <DialogDescription>{text(entry.i18n.description) || entry.name}</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2">
              {view.lineCounts?.[entry.name] !== undefined ? (
                <>
                  <dt className="text-muted-foreground">
                    <Trans>Lines</Trans>
                  </dt>
                  <dd>{i18n.number(view.lineCounts[entry.name])}</dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">
                <Trans>Natural key</Trans>
              </dt>
              <dd>{entry.naturalKey.join(' + ')}</dd>
              <dt className="text-muted-foreground">
                <Trans>Separator</Trans>
              </dt>
              <dd>
                <code>{entry.csv.separator}</code>
              </dd>
              {entry.dependsOn.length > 0 ? (
                <>
                  <dt className="text-muted-foreground">
                    <Trans>Needs</Trans>
                  </dt>
                  <dd>{entry.dependsOn.join(', ')}</dd>
                </>
              ) : null}
            </dl>
            <div>
              <h3 className="mb-2 font-semibold">
                <Trans>Columns</Trans>
              </h3>
              <ul className="divide-y divide-border rounded-md border border-border">
                {entry.components.map((component) => (
                  <li key={component.key} className="px-3 py-2">
                    <p className="font-medium">
                      {text(component.exportHeader.title, component.key)} <code className="text-sm text-muted-foreground">{component.key}</code>
                    </p>
                    <p className="text-sm text-muted-foreground">
                      {component.checker ? component.checker.kind : t`text`}
                      {component.required ? ` · ${t`required`}` : ''}
                      {component.tags.hidden ? ` · ${t`hidden`}` : ''}
                    </p>
                  </li>
                ))}
              </ul>
            </div>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
