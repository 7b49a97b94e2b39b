import { useLingui } from '@lingui/react/macro';
import type { Checker, Component } from '@/domain/configuration/model';
import { cellText, naturalKeyInReference } from '@/domain/rows/cellText';
import { withoutLeadingNullParts } from '@/domain/keys';
import { Button } from '@/components/ui/button';

export interface PatternGroup {
  header: string;
  value: unknown;
  qualifiers?: Record<string, unknown>;
  adjacents?: Record<string, unknown>;
}

const isPatternGroups = (value: unknown): value is PatternGroup[] =>
  Array.isArray(value) && value.every((v) => v !== null && typeof v === 'object' && 'header' in (v as object));

interface RowValueProps {
  component: Component;
  value: unknown;
  /** Opens the row a reference value points to. */
  onOpenReference?(reference: string, naturalKey: string): void;
  /** Opens a table of values too wide for a cell (pattern groups, dynamic maps). */
  onOpenTable?(title: string, rows: Array<Record<string, string>>): void;
  vertical?: boolean;
  /**
   * In a card as wide as a phone, a long key may break anywhere; in a table it keeps its words whole, so that a column
   * is as wide as its longest word rather than a letter.
   */
  narrow?: boolean;
}

/** One stored value as a cell: text, links to referenced rows, or a button opening a table of grouped values. */
export function RowValue({ component, value, onOpenReference, onOpenTable, vertical, narrow }: RowValueProps) {
  const { t } = useLingui();
  const checker: Checker | null = component.checker;
  if (checker?.kind === 'reference' && value !== null && value !== undefined && value !== '') {
    // Answers give natural keys; a value read from an older answer kept on the device may still be a hierarchical key.
    const keys = (Array.isArray(value) ? value : [value])
      .map((v) => naturalKeyInReference(String(v), checker.reference))
      .filter((v) => v !== '');
    return (
      <span className="flex min-w-0 flex-wrap gap-x-3">
        {keys.map((key) => (
          <Button key={key} variant="link" className={`h-auto min-h-11 justify-start px-0 text-left whitespace-normal ${narrow ? 'text-sm wrap-anywhere' : 'break-words'}`} onClick={() => onOpenReference?.(checker.reference, key)}>
            {withoutLeadingNullParts(key)}
          </Button>
        ))}
      </span>
    );
  }
  if (component.kind === 'pattern' && isPatternGroups(value)) {
    const rows = value.map((group) => ({
      [t`Column`]: group.header,
      [t`Value`]: cellText(group.value, checker),
      ...Object.fromEntries(Object.entries(group.qualifiers ?? {}).map(([k, v]) => [k, cellText(v, null)])),
      ...Object.fromEntries(Object.entries(group.adjacents ?? {}).map(([k, v]) => [k, cellText(v, null)])),
    }));
    if (vertical) {
      return (
        <ul className="text-sm">
          {rows.map((row, index) => (
            <li key={index}>{Object.values(row).join(' · ')}</li>
          ))}
        </ul>
      );
    }
    return (
      <Button variant="outline" size="sm" onClick={() => onOpenTable?.(component.key, rows)}>
        {t`${rows.length} values`}
      </Button>
    );
  }
  if (component.kind === 'dynamic' && value && typeof value === 'object' && !Array.isArray(value)) {
    const rows = Object.entries(value as Record<string, unknown>).map(([key, cell]) => ({ [t`Column`]: naturalKeyInReference(key, component.reference), [t`Value`]: cellText(cell, checker) }));
    return (
      <Button variant="outline" size="sm" onClick={() => onOpenTable?.(component.key, rows)}>
        {t`${rows.length} values`}
      </Button>
    );
  }
  return <span>{cellText(value, checker)}</span>;
}
