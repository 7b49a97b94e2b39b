import { useState } from 'react';
import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CircleCheck, LoaderCircle, Send } from 'lucide-react';
import type { DataInserted } from '@/contract/data';
import type { ReferenceLoaded, RowsMoved } from '@/contract/references';
import { entryTitleOf, localized } from '@/domain/applications/summary';
import { checkedAgainst } from '@/domain/configuration/checkedAgainst';
import type { DataEntry } from '@/domain/configuration/model';
import type { CsvReport, DeviceKnowledge, StoredRow } from '@/domain/csv';
import { CsvReportView } from '@/components/csv/CsvReportView';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { FileInput } from '@/components/ui/file-input';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { toastRefusal, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { referenceCopies } from '@/offline/referenceCopies';
import { refusedFileReport } from '@/offline/refusedFile';
import { dataUpload, referenceUpload } from '../api';
import { queuedReferenceRows } from '../queuedReferenceRows';
import type { EditedCsvUpload } from '../useEditedCsvUpload';
import { DeviceNotes } from '@/components/csv/DeviceNotes';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { useCsvWorker } from '@/workers/useCsvWorker';

type Phase = 'choose' | 'checking' | 'checked' | 'sending';

/**
 * Loading a CSV file into a reference: the file is first checked on this device against the configuration and
 * the references it points to (downloaded now, or kept from before when offline); a valid file is then sent
 * through the outbox, so it waits safely when the network is gone.
 */
export function CsvUploadDialog({
  application,
  entry,
  replaces,
  onClose,
}: {
  application: LoadedApplication;
  entry: DataEntry;
  /** A refused upload of this entry, replaced by the file sent now. */
  replaces?: EditedCsvUpload;
  onClose(stored: boolean): void;
}) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const worker = useCsvWorker();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>('choose');
  const [status, setStatus] = useState('');
  const [report, setReport] = useState<CsvReport | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const refusedName = replaces?.fileName;
  const title = localized(entry.i18n.title, i18n.locale, application.model.defaultLanguage, entry.name);
  const entryTitle = (name: string) => entryTitleOf(application.model, name, i18n.locale);
  const missingTitles = missing.map(entryTitle).join(', ');

  async function referencesFor(): Promise<{ rows: Record<string, StoredRow[]>; device: DeviceKnowledge }> {
    const names = checkedAgainst(entry);
    const copies = await referenceCopies(application.view.name, names, (name) =>
      setStatus(t`Downloading the reference ${name}…`),
    );
    const rows = copies.rows as Record<string, StoredRow[]>;
    setMissing(copies.missing);
    const queuedRows = await queuedReferenceRows(
      (bytes, check) => worker().validRows(bytes, check),
      application.view.name,
      application.model,
      names,
      rows,
    );
    return { rows, device: { withoutCopy: copies.missing, partCopies: copies.parts, queuedRows } };
  }

  async function check() {
    if (!file) return;
    setPhase('checking');
    setReport(null);
    try {
      const { rows: references, device } = await referencesFor();
      setStatus(t`Checking ${file.name}…`);
      const result = await worker().validateCsv(new Uint8Array(await file.arrayBuffer()), {
        model: application.model,
        dataName: entry.name,
        fileName: file.name,
        references,
        device,
      });
      setReport(result);
      setPhase('checked');
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
      setPhase('choose');
    }
  }

  /** Rows the file moved under another parent, and the grants, requests and files that now name their new keys. */
  function movedText(moved: RowsMoved) {
    const [rows, authorizations, requests, files] = [moved.rows, moved.authorizations, moved.rightsRequests, moved.additionalFiles].map((n) => i18n.number(n));
    return t`Lines moved under another parent: ${rows}. Authorizations following them to their new place: ${authorizations}; rights requests: ${requests}; additional files: ${files}.`;
  }

  /**
   * How many stored lines the file added and replaced (in lines, as the lines it says it loaded): keys are compared
   * without case or accents, so a file may replace lines its author thought new. Answers kept from before the server counted them say nothing.
   */
  function writtenText({ added, replaced }: ReferenceLoaded | DataInserted) {
    if (added === undefined || replaced === undefined) return undefined;
    return t`${plural(added, { one: '# line added', other: '# lines added' })}, ${plural(replaced, { one: '# replaced', other: '# replaced' })}.`;
  }

  async function send() {
    if (!file) return;
    setPhase('sending');
    const submission = entry.kind === 'reference' ? referenceUpload(application.view.name, entry.name, file) : dataUpload(application.view.name, entry.name, file);
    const outcome = await submitChange(submission, { replaces: replaces?.itemId });
    if (outcome.status === 'done') {
      const stored = outcome.result as ReferenceLoaded | DataInserted;
      const details = [writtenText(stored), stored.moved && movedText(stored.moved)].filter(Boolean).join(' ');
      showToast('success', t`${i18n.number(stored.lineCount)} lines loaded into ${title}.`, details || undefined);
      onClose(true);
    } else if (outcome.status === 'queued') {
      toastSavedOnDevice(i18n);
      onClose(false);
    } else if (outcome.error.lineErrors?.length) {
      setReport({ rowCount: 0, ...refusedFileReport(outcome.error)! });
      setPhase('checked');
    } else {
      toastRefusal(i18n, outcome.error);
      setPhase('checked');
    }
  }

  const valid = report !== null && report.errorCount === 0;
  return (
    <Dialog open onOpenChange={(open) => !open && phase !== 'sending' && onClose(false)}>
      <DialogContent closeLabel={t`Close`} className="max-w-3xl" data-testid="csv-upload">
        <DialogHeader>
          <DialogTitle>
            <Trans>Load a CSV file into {title}</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>The file is checked on this device first, then sent. Lines already stored stay; lines with the same key are replaced.</Trans>
          </DialogDescription>
        </DialogHeader>
        {refusedName ? (
          <Alert variant="warning" data-testid="csv-upload-replaces">
            <Trans>The server refused {refusedName}: the file sent now replaces it in the pending changes.</Trans>
          </Alert>
        ) : null}
        <FormField label={t`CSV file`} hint={t`Separator: ${entry.csv.separator}`}>
          <FileInput
            accept=".csv,text/csv"
            disabled={phase === 'checking' || phase === 'sending'}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setReport(null);
              setPhase('choose');
            }}
          />
        </FormField>
        {phase === 'checking' || phase === 'sending' ? (
          <p className="flex items-center gap-2" role="status">
            <LoaderCircle className="size-5 animate-spin" aria-hidden />
            {phase === 'sending' ? t`Sending…` : status}
          </p>
        ) : null}
        {missing.length > 0 ? (
          <Alert variant="warning">
            <Trans>No copy of {missingTitles} on this device: its values could not be checked here; the server will check them.</Trans>
          </Alert>
        ) : null}
        {report?.notes?.length ? <DeviceNotes
            notes={report.notes}
            count={report.noteCount ?? report.notes.length}
            capped={report.noteCountCapped}
            entryTitle={entryTitle}
          /> : null}
        {report && report.errorCount > 0 && file ? (
          <CsvReportView report={report} fileName={file.name} entryTitle={entryTitle} />
        ) : null}
        {valid ? (
          <Alert variant="success" className="flex items-center gap-2">
            <CircleCheck aria-hidden />
            <Plural value={report.rowCount} one="# line checked: the file is valid." other="# lines checked: the file is valid." />
          </Alert>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => void check()} disabled={!file || phase === 'checking' || phase === 'sending'}>
            <Trans>Check</Trans>
          </Button>
          <Button onClick={() => void send()} disabled={!valid || phase === 'sending'}>
            <Send aria-hidden />
            <Trans>Send</Trans>
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
