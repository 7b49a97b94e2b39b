import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, Download } from 'lucide-react';
import type { DataEntry } from '@/domain/configuration/model';
import type { RowQuery } from '@/domain/rows/rowQuery';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { exportPath, type ExportForm, type ExportFormat } from '../api';

interface ExportMenuProps {
  application: string;
  entry: Pick<DataEntry, 'name' | 'kind'>;
  /** The consultation's query: its filters and order apply, its paging does not. */
  query: RowQuery;
  filtered: boolean;
  total: number;
  /** Why no download can work now (no right, no server): said in the menu instead of links that would fail unseen. */
  unavailable?: ReactNode;
  /** Starts a download the page follows; `expectedLines` when the table counted them. */
  onDownload(path: string, fileName: string, expectedLines?: number): void;
}

/**
 * The downloads of the rows: CSV, zip (with the references they point to) or JSON, of every line matching the filters
 * or of every line. A CSV file comes in two forms: to read (column titles in the reader's language, safe for
 * spreadsheets unless the user asks for the exact values) or to load again (the columns of an upload, exact values).
 */
export function ExportMenu({ application, entry, query, filtered, total, unavailable, onDownload }: ExportMenuProps) {
  const { i18n } = useLingui();
  const [form, setForm] = useState<ExportForm>('titles');
  const [spreadsheetSafe, setSpreadsheetSafe] = useState(true);
  const [everything, setEverything] = useState(false);
  const toLoad = form === 'upload';
  const download = (format: ExportFormat) => {
    const all = filtered && everything;
    const chosen = all ? { ...query, componentFilters: undefined } : query;
    const options = { form, spreadsheetSafe: spreadsheetSafe && !toLoad };
    // A file to load again may have lines above its header: its lines are not the table's.
    const expected = all || (toLoad && format !== 'json') ? undefined : total;
    onDownload(exportPath(application, entry, format, chosen, options), `${entry.name}.${format}`, expected);
  };
  const formats: Array<{ format: ExportFormat; label: ReactNode }> = [
    { format: 'csv', label: <Trans>CSV file</Trans> },
    { format: 'zip', label: entry.kind === 'dataType' ? <Trans>Zip: CSV and the references it points to</Trans> : <Trans>Zip of the CSV file</Trans> },
    { format: 'json', label: <Trans>JSON file</Trans> },
  ];
  // Not modal: a modal menu hides the page from assistive technologies while its links stay focusable.
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button data-testid="export-menu">
          <Download aria-hidden />
          <Trans>Export</Trans>
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-w-[min(22rem,calc(100vw-1rem))]">
        {unavailable ? (
          <DropdownMenuLabel className="font-normal" data-testid="export-unavailable">
            {unavailable}
          </DropdownMenuLabel>
        ) : filtered ? (
          <DropdownMenuRadioGroup value={everything ? 'all' : 'filtered'} onValueChange={(value) => setEverything(value === 'all')}>
            <DropdownMenuRadioItem value="filtered" onSelect={(event) => event.preventDefault()} data-testid="export-filtered">
              <Trans>The {i18n.number(total)} lines matching the filters</Trans>
            </DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="all" onSelect={(event) => event.preventDefault()} data-testid="export-all">
              <Trans>Every line, without the filters</Trans>
            </DropdownMenuRadioItem>
          </DropdownMenuRadioGroup>
        ) : (
          <DropdownMenuLabel>
            <Trans>All {i18n.number(total)} lines</Trans>
          </DropdownMenuLabel>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuLabel>
          <Trans>CSV file and zip</Trans>
        </DropdownMenuLabel>
        <DropdownMenuRadioGroup value={form} onValueChange={(value) => setForm(value as ExportForm)}>
          <DropdownMenuRadioItem value="titles" onSelect={(event) => event.preventDefault()} data-testid="export-form-titles">
            <span className="flex flex-col">
              <Trans>To read: column titles</Trans>
              <span className="text-sm text-muted-foreground">
                <Trans>One column per field, under its title in your language.</Trans>
              </span>
            </span>
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="upload" onSelect={(event) => event.preventDefault()} data-testid="export-form-upload">
            <span className="flex flex-col">
              <Trans>To load again: as uploaded</Trans>
              <span className="text-sm text-muted-foreground">
                <Trans>The columns and values of an upload file, to change and load again.</Trans>
              </span>
            </span>
          </DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
        <DropdownMenuCheckboxItem
          checked={spreadsheetSafe && !toLoad}
          disabled={toLoad}
          onCheckedChange={(checked) => setSpreadsheetSafe(checked === true)}
          onSelect={(event) => event.preventDefault()}
          data-testid="export-spreadsheet-safe"
        >
          <span className="flex flex-col">
            <Trans>Safe for spreadsheets</Trans>
            <span className="text-sm text-muted-foreground">
              {toLoad ? (
                <Trans>Not for a file to load again: it keeps the exact values.</Trans>
              ) : (
                <Trans>Cells that a spreadsheet would run as a formula start with an apostrophe. Untick to get the exact values.</Trans>
              )}
            </span>
          </span>
        </DropdownMenuCheckboxItem>
        <DropdownMenuSeparator />
        {formats.map(({ format, label }) =>
          unavailable ? (
            <DropdownMenuItem key={format} disabled data-testid={`export-${format}`}>
              {label}
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem key={format} onSelect={() => download(format)} data-testid={`export-${format}`}>
              {label}
            </DropdownMenuItem>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
