import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { DataEntry } from '@/domain/configuration/model';
import type { CsvReport, DeviceKnowledge, StoredRow } from '@/domain/csv';
import { readFileName } from '@/domain/deposits/fileName';
import { findScopeRow } from '@/domain/deposits/scopeValues';
import type { KeptRow } from '@/domain/rows/filterRows';
import { showToast } from '@/lib/toast';
import { useCsvWorker } from '@/workers/useCsvWorker';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastOutcome } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { refusedFileReport } from '@/offline/refusedFile';
import { depositUpload } from '../api';
import type { EditedDeposit } from './useEditedDeposit';

export const MAX_COMMENT = 200;

export interface DepositFormOptions {
  application: LoadedApplication;
  entry: DataEntry;
  scope: Record<string, string>;
  /** The dataset a file's name gives, chosen in place of the one on screen. */
  onScopeRead: (scope: Record<string, string>) => void;
  scopeRows: Record<string, KeptRow[]>;
  /** What the device could not download: the values it cannot settle are noted for the server, not refused. */
  device: DeviceKnowledge;
  /** Every scope reference has a value. */
  complete: boolean;
  onDeposited: () => Promise<void>;
  /** A refused deposit being edited: the form opens with its file, period and comment, and depositing replaces it. */
  replaces?: EditedDeposit;
}

/** A file for the dataset on screen: its period and comment, checked on this device, then deposited through the outbox. */
export function useDepositForm({
  application,
  entry,
  scope,
  onScopeRead,
  scopeRows,
  device,
  complete,
  onDeposited,
  replaces,
}: DepositFormOptions) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const submission = entry.submission;
  const [file, setFile] = useState<File | null>(replaces?.file ?? null);
  const [from, setFrom] = useState(replaces?.dataset.from ?? '');
  const [to, setTo] = useState(replaces?.dataset.to ?? '');
  const [comment, setComment] = useState(replaces?.comment ?? '');
  // Once deposited again, the refused one is gone: the next deposit is a new one.
  const [replacing, setReplacing] = useState(replaces);
  const [report, setReport] = useState<CsvReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // A new key empties the file field once its file is deposited (or queued), so it no longer shows a file.
  const [fileField, setFileField] = useState(0);
  const worker = useCsvWorker();

  const needsPeriod = submission.timeScope !== null;
  const canCheck =
    Boolean(file) &&
    complete &&
    (!needsPeriod || (from !== '' && to !== '' && from <= to)) &&
    comment.length <= MAX_COMMENT;

  function chooseFile(chosen: File | null) {
    setFile(chosen);
    setReport(null);
    if (!chosen) return;
    const read = readFileName(submission, chosen.name);
    if (!read) return;
    // The name follows the configured pattern: it gives the dataset.
    const next = { ...scope };
    for (const reference of submission.referenceScopes) {
      const textValue = read.scope[reference.component];
      const row = textValue ? findScopeRow(scopeRows[reference.reference] ?? [], textValue) : undefined;
      if (row) next[reference.component] = row.hierarchicalKey;
    }
    onScopeRead(next);
    if (read.from) setFrom(read.from.slice(0, 10));
    if (read.to) setTo(read.to.slice(0, 10));
    showToast('info', t`The dataset was read from the file name.`);
  }

  async function check() {
    if (!file) return;
    setBusy(t`Checking ${file.name}…`);
    try {
      const references: Record<string, StoredRow[]> = Object.fromEntries(
        Object.entries(scopeRows).map(([name, rows]) => [name, rows as StoredRow[]]),
      );
      const result = await worker().validateCsv(new Uint8Array(await file.arrayBuffer()), {
        model,
        dataName: entry.name,
        fileName: file.name,
        references,
        deposit: { scope, ...(needsPeriod ? { from: `${from}T00:00:00`, to: `${to}T00:00:00` } : {}) },
        device,
      });
      setReport(result);
    } finally {
      setBusy(null);
    }
  }

  /** Once deposited (or queued), the file and its comment leave the form: the next file starts afresh. */
  function forgetFile() {
    setFile(null);
    setReport(null);
    setComment('');
    setFileField((key) => key + 1);
  }

  async function deposit() {
    if (!file) return;
    setBusy(t`Sending…`);
    const outcome = await submitChange(depositUpload(view.name, entry.name, file, { scope, from, to }, comment), {
      replaces: replacing?.itemId,
    });
    setBusy(null);
    setReplacing(undefined);
    const refused = outcome.status === 'needs-attention' ? refusedFileReport(outcome.error) : undefined;
    if (refused) {
      setReport({ rowCount: 0, ...refused });
      return;
    }
    toastOutcome(i18n, outcome, t`The file ${file.name} has been deposited.`);
    if (outcome.status === 'needs-attention') return;
    forgetFile();
    if (outcome.status === 'done') await onDeposited();
  }

  return {
    replacing,
    file,
    from,
    setFrom,
    to,
    setTo,
    comment,
    setComment,
    report,
    busy,
    fileField,
    needsPeriod,
    canCheck,
    chooseFile,
    check,
    deposit,
  };
}
