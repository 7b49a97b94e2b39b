import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, Columns3 } from 'lucide-react';
import type { Component } from '@/domain/configuration/model';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { HiddenColumns } from '../hooks/useColumnVisibility';

interface ColumnsMenuProps {
  /** Every column the table may show, in their order. */
  columns: Array<{ component: Component; title: string }>;
  hidden: HiddenColumns;
  onChange(hidden: HiddenColumns): void;
  /** The table's own rule (useColumnVisibility): a column shows unless switched off or its tag is. */
  isShown(component: Component): boolean;
  isTagHidden(component: Component): boolean;
}

/**
 * One tick per column, to keep a wide table to what one reads. A column whose tag is switched off stays hidden
 * whatever its tick: the tag's button above the table shows it again.
 */
export function ColumnsMenu({ columns, hidden, onChange, isShown, isTagHidden }: ColumnsMenuProps) {
  const { i18n } = useLingui();
  const switchedOff = columns.filter(({ component }) => !isShown(component)).length;
  const toggle = (key: string, shown: boolean) =>
    onChange({ ...hidden, columns: shown ? hidden.columns.filter((column) => column !== key) : [...hidden.columns, key] });
  // Not modal, as the export menu: the table stays readable to assistive technologies while columns come and go.
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" data-testid="columns-menu">
          <Columns3 aria-hidden />
          <Trans>Columns</Trans>
          {switchedOff ? ` (${i18n.number(columns.length - switchedOff)}/${i18n.number(columns.length)})` : ''}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" tabIndex={0} className="max-h-[min(70dvh,32rem)] max-w-[min(22rem,calc(100vw-1rem))] overflow-y-auto">
        <DropdownMenuLabel>
          <Trans>Columns shown</Trans>
        </DropdownMenuLabel>
        {columns.map(({ component, title }) => {
          return (
            <DropdownMenuCheckboxItem
              key={component.key}
              checked={isShown(component)}
              disabled={isTagHidden(component)}
              onCheckedChange={(checked) => toggle(component.key, checked === true)}
              onSelect={(event) => event.preventDefault()}
              data-testid={`column-${component.key}`}
            >
              {title}
            </DropdownMenuCheckboxItem>
          );
        })}
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={switchedOff === 0} onSelect={() => onChange({ tags: [], columns: [] })}>
          <Trans>Show every column</Trans>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
