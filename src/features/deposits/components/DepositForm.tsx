import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CircleCheck, LoaderCircle, Send } from 'lucide-react';
import { CsvReportView } from '@/components/csv/CsvReportView';
import { DeviceNotes } from '@/components/csv/DeviceNotes';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FileInput } from '@/components/ui/file-input';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { fileNameHint } from './fileNameHint';
import { MAX_COMMENT, useDepositForm, type DepositFormOptions } from '../hooks/useDepositForm';
import { entryTitleOf } from '@/domain/applications/summary';

/** The card where a file is chosen for the dataset, given its period and comment, checked, then deposited. */
export function DepositForm(options: DepositFormOptions) {
  const { t, i18n } = useLingui();
  const form = useDepositForm(options);
  const entryTitle = (name: string) => entryTitleOf(options.application.model, name, i18n.locale);
  const { file, from, to, comment, report, busy } = form;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">
          <Trans>Deposit a file</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {form.replacing ? (
          <Alert variant="warning" data-testid="deposit-replaces">
            <Trans>
              The server refused {form.replacing.file.name}: correct the file or the dataset, check it, and deposit it
              again to replace it in the pending changes.
            </Trans>
          </Alert>
        ) : null}
        <FormField label={t`CSV file`} hint={fileNameHint(i18n, options.application.model, options.entry)}>
          <FileInput
            key={form.fileField}
            accept=".csv,text/csv"
            fileName={form.replacing?.file.name}
            onChange={(event) => form.chooseFile(event.target.files?.[0] ?? null)}
          />
        </FormField>
        {form.needsPeriod ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label={t`Start date`}>
              <Input type="date" value={from} onChange={(event) => form.setFrom(event.target.value)} />
            </FormField>
            <FormField
              label={t`End date`}
              error={from && to && from > to ? t`The end comes before the start.` : undefined}
            >
              <Input type="date" value={to} onChange={(event) => form.setTo(event.target.value)} />
            </FormField>
          </div>
        ) : null}
        <FormField
          label={t`Comment`}
          error={comment.length > MAX_COMMENT ? t`At most ${MAX_COMMENT} characters.` : undefined}
          hint={t`${comment.length} / ${MAX_COMMENT}`}
        >
          <Textarea value={comment} onChange={(event) => form.setComment(event.target.value)} />
        </FormField>
        {busy ? (
          <p role="status" className="flex items-center gap-2">
            <LoaderCircle className="size-5 animate-spin" aria-hidden />
            {busy}
          </p>
        ) : null}
        {report?.notes?.length ? (
          <DeviceNotes
            notes={report.notes}
            count={report.noteCount ?? report.notes.length}
            capped={report.noteCountCapped}
            entryTitle={entryTitle}
          />
        ) : null}
        {report && report.errorCount > 0 && file ? (
          <CsvReportView report={report} fileName={file.name} entryTitle={entryTitle} />
        ) : null}
        {report && report.errorCount === 0 ? (
          <Alert variant="success" className="flex items-center gap-2">
            <CircleCheck aria-hidden />
            <Plural
              value={report.rowCount}
              one="# line checked: the file is valid."
              other="# lines checked: the file is valid."
            />
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={!form.canCheck || busy !== null} onClick={() => void form.check()}>
            <Trans>Check</Trans>
          </Button>
          <Button
            disabled={!form.canCheck || !report || report.errorCount > 0 || busy !== null}
            onClick={() => void form.deposit()}
          >
            <Send aria-hidden />
            <Trans>Deposit</Trans>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
