import { useId } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert, Info, TriangleAlert } from 'lucide-react';
import { problemsOf } from '@/domain/applications/compatibility';
import {
  dataLossSummary,
  itemsOf,
  type EntryImpact,
  type ImpactItem,
  type UpdateImpact,
} from '@/domain/applications/updateImpact';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { describeProblem } from '@/lib/i18n/problems';

/** An update that deletes stored data: saving it waits for the confirmation. */
export const losesData = (impact: UpdateImpact) => itemsOf(impact, 'dataLoss').length > 0;

/** An application without stored rows changes freely: its update has nothing to report. */
export const holdsRows = (impact: UpdateImpact) => impact.entries.some((entry) => entry.rows > 0);

export const isForbidden = (impact: UpdateImpact) => itemsOf(impact, 'forbidden').length > 0;

/** The confirmation's words: what is deleted, named. */
function DeletionText({ impact }: { impact: UpdateImpact }) {
  const { i18n } = useLingui();
  const summary = dataLossSummary(impact);
  const { entries, components } = summary;
  const rows = i18n.number(summary.rows);
  const values = i18n.number(summary.values);
  const list = (names: string[]) => new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(names);
  const removedEntries = list(entries);
  const clearedComponents = list(components);
  if (entries.length > 0 && components.length > 0)
    return (
      <Trans>
        I understand that the {rows} rows of {removedEntries} and the values of {clearedComponents} in {values} rows
        will be deleted.
      </Trans>
    );
  if (entries.length > 0)
    return (
      <Trans>
        I understand that the {rows} rows of {removedEntries} will be deleted.
      </Trans>
    );
  return (
    <Trans>
      I understand that the values of {clearedComponents} in {values} rows will be deleted.
    </Trans>
  );
}

function ItemText({ item }: { item: ImpactItem }) {
  const { i18n } = useLingui();
  const component = item.component ?? '';
  const count = item.rows ?? 0;
  const rows = i18n.number(count);
  switch (item.change) {
    case 'entryRemoved':
      return count > 0 ? (
        <Trans>The entry and its {rows} rows will be deleted.</Trans>
      ) : (
        <Trans>The entry is removed (it holds no rows).</Trans>
      );
    case 'componentRemoved':
      return count > 0 ? (
        <Trans>
          The values of {component} will be deleted from {rows} rows.
        </Trans>
      ) : (
        <Trans>The component {component} is removed.</Trans>
      );
    case 'componentAdded':
      return item.required ? (
        <Trans>New required component {component}.</Trans>
      ) : (
        <Trans>New component {component}.</Trans>
      );
    case 'checkerChanged':
      return (item.tightened?.length ?? 0) > 0 ? (
        <Trans>The checking of {component} becomes stricter.</Trans>
      ) : (
        <Trans>The checking of {component} changes without becoming stricter.</Trans>
      );
    case 'entryAdded':
      return <Trans>New entry.</Trans>;
    case 'validationsChanged':
      return <Trans>The line validations change.</Trans>;
    case 'naturalKeyChanged':
      return <Trans>The natural key changes.</Trans>;
    case 'kindChanged':
      return <Trans>The entry changes between reference and data type.</Trans>;
    case 'scopeRemoved':
      return <Trans>The authorization scope {component} is removed.</Trans>;
    case 'timeScopeChanged':
      return <Trans>The time scope changes.</Trans>;
  }
}

function EntryReport({ entry }: { entry: EntryImpact }) {
  const { i18n } = useLingui();
  const forbidden = problemsOf({ entries: [entry] }, ['forbidden']);
  const others = entry.items.filter((item) => item.severity !== 'forbidden');
  const revalidation = entry.revalidation;
  return (
    <li className="grid gap-2 px-4 py-3" data-entry={entry.dataName}>
      <p className="font-medium">
        {entry.dataName}{' '}
        <span className="text-sm font-normal text-muted-foreground">
          <Plural value={entry.rows} one="(# stored row)" other="(# stored rows)" />
        </span>
      </p>
      <ul className="grid gap-1">
        {forbidden.map((problem, index) => (
          <li
            key={`f${index}`}
            className="flex gap-2 text-destructive"
            data-severity="forbidden"
            data-code={problem.code}
          >
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>{describeProblem(i18n, problem)}</span>
          </li>
        ))}
        {others.map((item, index) => (
          <li
            key={index}
            className={item.severity === 'dataLoss' ? 'flex gap-2 font-medium' : 'flex gap-2'}
            data-severity={item.severity}
          >
            {item.severity === 'dataLoss' ? (
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
            ) : (
              <Info className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            )}
            <span>
              <ItemText item={item} />
            </span>
          </li>
        ))}
        {revalidation ? (
          <li className="flex gap-2" data-severity="revalidation" data-failing-rows={revalidation.failingRows}>
            <TriangleAlert
              className={`mt-0.5 size-4 shrink-0 ${revalidation.failingRows > 0 ? 'text-warning' : 'text-muted-foreground'}`}
              aria-hidden
            />
            <span className="grid gap-1">
              <span>
                {revalidation.failingRows > 0 ? (
                  <Trans>
                    {i18n.number(revalidation.failingRows)} of the {i18n.number(revalidation.checkedRows)} stored rows
                    checked would no longer load with this configuration: they stay stored as they are.
                  </Trans>
                ) : (
                  <Trans>
                    The {i18n.number(revalidation.checkedRows)} stored rows checked still load with this configuration.
                  </Trans>
                )}
                {revalidation.complete ? null : (
                  <>
                    {' '}
                    <Trans>Only the first {i18n.number(revalidation.checkedRows)} rows were checked.</Trans>
                  </>
                )}
              </span>
              {revalidation.examples.length > 0 ? (
                <span className="text-sm text-muted-foreground">
                  {revalidation.examples.map((example, index) => (
                    <span key={index} className="mr-3 inline-block">
                      {example.naturalKey} · <code className="rounded bg-muted px-1">{example.code}</code>
                      {example.column ? ` · ${example.column}` : ''}
                    </span>
                  ))}
                </span>
              ) : null}
            </span>
          </li>
        ) : null}
      </ul>
    </li>
  );
}

/**
 * What a tested update does to the data already stored, entry by entry: what forbids it, what it deletes, and the
 * stored rows it would no longer accept. When it deletes data, saving waits for the confirmation box.
 */
export function UpdateImpactReport({
  impact,
  confirmed,
  onConfirmedChange,
}: {
  impact: UpdateImpact;
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
}) {
  const confirmId = useId();
  const shown = impact.entries.filter((entry) => entry.items.length > 0 || entry.revalidation);
  return (
    <section aria-labelledby="update-impact" className="grid gap-4" data-testid="update-impact">
      <h2 id="update-impact" className="text-xl font-semibold">
        <Trans>What this update does to the stored data</Trans>
      </h2>
      {shown.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No entry changes.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-border rounded-lg border bg-card">
          {shown.map((entry) => (
            <EntryReport key={entry.dataName} entry={entry} />
          ))}
        </ul>
      )}
      {losesData(impact) && !isForbidden(impact) ? (
        <div className="flex items-center gap-3">
          <Checkbox
            id={confirmId}
            checked={confirmed}
            onCheckedChange={(value) => onConfirmedChange(value === true)}
            data-testid="confirm-data-loss"
          />
          <Label htmlFor={confirmId}>
            <DeletionText impact={impact} />
          </Label>
        </div>
      ) : null}
    </section>
  );
}
