import { useId } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert, Download } from 'lucide-react';
import type { CsvError, CsvErrorsReport } from '@/domain/csv';
import { reportToCsv } from '@/domain/csv';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { describeProblem } from '@/lib/i18n/problems';
import { saveFile } from '@/lib/saveFile';

const SHOWN = 50;

/**
 * The errors of a CSV file: the total, the first ones on screen, and all kept ones as a downloadable CSV. Found on the
 * device before sending, or by the server in a refused change (several may be on one page, hence the generated id).
 */
export function CsvReportView({
  report,
  fileName,
  entryTitle,
}: {
  report: CsvErrorsReport;
  fileName: string;
  /** Titles of the application's entries, when known: errors name references by them. */
  entryTitle?: (name: string) => string;
}) {
  const { t, i18n } = useLingui();
  const titleId = useId();
  const translate = (error: CsvError) => describeProblem(i18n, error, entryTitle);
  const download = () => {
    const text = reportToCsv(report, translate, {
      headers: { line: t`line`, column: t`column`, value: t`value`, message: t`message` },
      truncated: (hidden) => t`${hidden} more errors are not listed`,
      byteOrderMark: true,
    });
    saveFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), `${fileName.replace(/\.[^.]*$/, '')}-errors.csv`);
  };
  return (
    <section className="grid gap-3" aria-labelledby={titleId} data-testid="csv-report">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="flex min-w-0 items-center gap-2 font-semibold text-destructive wrap-anywhere">
          <CircleAlert className="size-5 shrink-0" aria-hidden />
          <Plural value={report.errorCount} one={`# error in ${fileName}`} other={`# errors in ${fileName}`} />
        </h3>
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden />
          <Trans>Download the report</Trans>
        </Button>
      </div>
      {report.errors.length > SHOWN || report.truncated ? (
        <p className="text-sm text-muted-foreground">
          <Trans>
            The first {Math.min(SHOWN, report.errors.length)} are shown; the report holds{' '}
            {i18n.number(report.errors.length)} of the {i18n.number(report.errorCount)}.
          </Trans>
        </p>
      ) : null}
      <Table>
        <TableHeader>
          <TableRow>
            {/* Short words: kept whole on a phone, where the problem column takes the width. */}
            <TableHead className="whitespace-nowrap">
              <Trans>Line</Trans>
            </TableHead>
            <TableHead className="whitespace-nowrap">
              <Trans>Column</Trans>
            </TableHead>
            <TableHead>
              <Trans>Problem</Trans>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {report.errors.slice(0, SHOWN).map((error, index) => (
            <TableRow key={index} data-code={error.code}>
              {/* A number kept whole; the words of "whole file" wrap, or they squeezed the problem out of a phone. */}
              <TableCell className={error.lineNumber >= 0 ? 'whitespace-nowrap' : undefined}>
                {error.lineNumber >= 0 ? error.lineNumber : t`whole file`}
              </TableCell>
              <TableCell>{error.column ?? ''}</TableCell>
              <TableCell>{translate(error)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
