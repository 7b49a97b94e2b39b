import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Info } from 'lucide-react';
import type { CsvNote } from '@/domain/csv';
import { Alert } from '@/components/ui/alert';

const SHOWN = 10;

interface Group {
  code: CsvNote['code'];
  /** The reference the values point into, or the column a decimal comma was met in. */
  subject: string;
  values: string[];
}

function groupsOf(notes: CsvNote[]): Group[] {
  const groups = new Map<string, Group>();
  for (const note of notes) {
    const subject = note.refType ?? note.column ?? note.component;
    const key = `${note.code}/${subject}`;
    const group = groups.get(key) ?? { code: note.code, subject, values: [] };
    if (!group.values.includes(note.value)) group.values.push(note.value);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * What the check on this device could not settle, per reference: values it has no copy to check (the server will),
 * values outside the part of a reference its user may read (the server checks them against the whole), and values
 * it knows only from uploads still waiting on the device. And, per column, lists of numbers whose commas may have
 * been meant as decimal commas. None stops the file from being sent.
 */
export function DeviceNotes({
  notes,
  count,
  capped,
  entryTitle = (name) => name,
}: {
  notes: CsvNote[];
  count: number;
  capped?: boolean;
  /** Titles of the application's entries: references are named by them, as the pages name them. */
  entryTitle?: (name: string) => string;
}) {
  const { i18n, t } = useLingui();
  // The values past the first few are counted, never left out unsaid.
  const list = (values: string[]) =>
    new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(
      values.length > SHOWN
        ? [...values.slice(0, SHOWN), plural(values.length - SHOWN, { one: '# other', other: '# others' })]
        : values,
    );
  return (
    <Alert variant="info" className="grid gap-1 text-sm" data-testid="device-notes">
      {groupsOf(notes).map((group) => {
        // Values holding commas are quoted, or the list's own commas would run into theirs.
        const values = list(
          group.code === 'decimalCommaInList' ? group.values.map((value) => t`“${value}”`) : group.values,
        );
        const refType = entryTitle(group.subject);
        const column = group.subject;
        return (
          <p key={`${group.code}/${group.subject}`} className="flex items-start gap-2" data-code={group.code}>
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              {group.code === 'decimalCommaInList' ? (
                <Trans>
                  In {column}, commas separate the numbers of a list, so each of these is read as several numbers:{' '}
                  {values}. Write a decimal point (1.5) for a number with decimals.
                </Trans>
              ) : group.code === 'referenceKnownFromQueuedUpload' ? (
                <Trans>
                  Known from your uploads into {refType} still waiting to be sent: {values}.
                </Trans>
              ) : group.code === 'referenceOutsideReadPart' ? (
                <Trans>
                  Not among the rows of {refType} you may read, so checked by the server only: {values}.
                </Trans>
              ) : (
                <Trans>
                  Not checked on this device ({refType}): {values}.
                </Trans>
              )}
            </span>
          </p>
        );
      })}
      {capped || count > notes.length ? (
        <p className="text-muted-foreground">
          {capped ? (
            <Plural
              value={count - notes.length}
              one="At least # more value is not listed."
              other="At least # more values are not listed."
            />
          ) : (
            <Plural
              value={count - notes.length}
              one="# more value is not listed."
              other="# more values are not listed."
            />
          )}
        </p>
      ) : null}
    </Alert>
  );
}
