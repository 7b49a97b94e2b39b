import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { naturalPath } from '@/domain/deposits/scopeValues';
import type { KeptRow } from '@/domain/rows/filterRows';
import { FormField } from '@/components/ui/form-field';
import { SearchSelect } from '@/components/ui/search-select';
import { scopeChoices, scopeMatches, type ScopeChoice } from '../scopeMatches';

/** Where a row lies, then its code when its label is not the code already: `Alpes › Mont Blanc · aig`. */
const whereAndCode = (choice: ScopeChoice) =>
  [choice.parents.join(' › '), choice.code === choice.label ? '' : choice.code]
    .filter((part) => part !== '')
    .join(' · ');

/**
 * A scope reference too large to list, searched by label or code among the rows the device holds (online as
 * offline): a bounded list of matches, each with its code and the parents it lies under.
 */
export function ScopeSearch({
  label,
  rows,
  value,
  onChange,
  display,
  labelOf,
}: {
  label: string;
  rows: KeptRow[];
  value: string;
  onChange(hierarchicalKey: string): void;
  display(row: KeptRow): string;
  labelOf(hierarchicalKey: string): string | undefined;
}) {
  const { t, i18n } = useLingui();
  const [query, setQuery] = useState('');
  const choices = useMemo(() => scopeChoices(rows, display, labelOf), [rows, display, labelOf]);
  const { matches, total } = useMemo(() => scopeMatches(choices, query), [choices, query]);
  const selected = choices.find((choice) => choice.hierarchicalKey === value);
  const shownCount = i18n.number(matches.length);
  const matchCount = i18n.number(total);
  const note =
    total === 0
      ? t`No row of ${label} matches.`
      : total > matches.length
        ? query.trim() === ''
          ? t`${shownCount} of ${matchCount} shown: type part of a name or code.`
          : t`${shownCount} of ${matchCount} matching shown: type more of the name or code.`
        : undefined;
  return (
    // The row chosen is told apart from its namesakes under other parents below the field.
    <FormField label={label} hint={selected ? whereAndCode(selected) || undefined : undefined}>
      <SearchSelect
        // A dataset naming a row the device no longer holds (a refused deposit reopened) reads as its path of codes.
        selectedLabel={selected?.label ?? naturalPath(value)}
        options={matches.map((choice) => ({
          value: choice.hierarchicalKey,
          label: choice.label,
          detail: whereAndCode(choice),
        }))}
        onQueryChange={setQuery}
        onPick={onChange}
        listLabel={label}
        note={note}
        placeholder={t`Type a name or code`}
      />
    </FormField>
  );
}
