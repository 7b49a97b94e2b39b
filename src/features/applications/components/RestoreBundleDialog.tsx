import { useState, type FormEvent } from 'react';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArchiveRestore, LoaderCircle } from 'lucide-react';
import { APPLICATION_NAME_ENTRY_LIMIT, checkApplicationName } from '@/domain/applications/applicationName';
import type { StreamEvent } from '@/domain/streaming/events';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { FileInput } from '@/components/ui/file-input';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { useCurrentUser } from '@/offline/currentUser';
import { describeProblem, type CodedProblem } from '@/lib/i18n/problems';
import { showToast } from '@/lib/toast';
import { toastRefusal, toastSavedOnDevice } from '@/offline/changeToasts';
import { outbox } from '@/offline/outboxInstance';
import { bundleRestore } from '../outboxRequests';

/** Line errors of a refused CSV file travel in the problem's parameters. */
const lineErrorsOf = (problem: CodedProblem): CodedProblem[] =>
  Array.isArray(problem.params?.errors) ? (problem.params.errors as CodedProblem[]) : [];

/**
 * Restores a backup (made by the "backup" card action, on this instance or another) as a new application: the
 * creator names it, chooses the zip, and follows the server's steps until the application is there.
 */
export function RestoreBundleDialog({ existingNames }: { existingNames: readonly string[] }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [step, setStep] = useState('');
  const [problems, setProblems] = useState<CodedProblem[]>([]);

  const nameProblem =
    user && name !== ''
      ? checkApplicationName(name, { isPlatformAdmin: user.terrainAdmin, patterns: user.authorizations })
      : undefined;
  const nameTaken = existingNames.includes(name.trim());
  const busy = progress !== null;
  const nameMessages = {
    invalidLengthName: t`The name must have 2 to 40 characters.`,
    invalidName: t`The name starts with a lowercase letter, followed by lowercase letters, digits or _ only.`,
    badNameWithRight: t`You may not create or update an application with this name.`,
  };

  const stepOf = (event: Extract<StreamEvent, { type: 'info' }>) => {
    const { dataName, file: fileName, fileType } = event.params;
    switch (event.result) {
      case 'bundle.restore.manifest':
        return t`Reading the backup`;
      case 'bundle.restore.data':
        return t`Loading the rows of ${dataName}`;
      case 'bundle.restore.deposit':
        return t`Loading the version ${fileName} of ${dataName}`;
      case 'bundle.restore.additionalFile':
        return t`Loading the file ${fileName} (${fileType})`;
      default:
        return step;
    }
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file || name.trim() === '' || nameProblem || nameTaken) return;
    setProblems([]);
    setProgress(0);
    setStep(t`Sending the backup`);
    const outcome = await outbox.submit(bundleRestore({ name: name.trim(), file }), {
      keepOnRefusal: true,
      onEvent: (e) => {
        if (e.type === 'progress') setProgress(e.result);
        if (e.type === 'info') setStep(stepOf(e));
      },
    });
    setProgress(null);
    if (outcome.status === 'needs-attention') {
      const reported = outcome.error.problems;
      if (reported?.length) setProblems(reported);
      else toastRefusal(i18n, outcome.error);
      return;
    }
    setOpen(false);
    if (outcome.status === 'queued') {
      toastSavedOnDevice(i18n);
      return;
    }
    showToast('success', t`The application ${name} has been restored.`);
    await router.navigate({ to: '/applications/$applicationName', params: { applicationName: name.trim() } });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <ArchiveRestore aria-hidden />
          <Trans>Restore a backup</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Restore a backup</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              A backup zip (the "Backup" action of an application card, here or on another Terrain) becomes a new
              application: configuration, rows, versions and their publication, additional files. Everything is
              restored, or nothing.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" id="restore-bundle">
          <FormField
            label={t`Application name`}
            error={
              nameProblem
                ? nameMessages[nameProblem]
                : nameTaken
                  ? t`An application named ${name} already exists.`
                  : undefined
            }
          >
            <Input
              value={name}
              maxLength={APPLICATION_NAME_ENTRY_LIMIT}
              onChange={(event) => setName(event.target.value.toLowerCase())}
              disabled={busy}
              required
            />
          </FormField>
          <FormField label={t`Backup file`} hint={t`A .zip downloaded with the "Backup" action.`}>
            <FileInput
              accept=".zip,application/zip"
              required
              disabled={busy}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setProblems([]);
              }}
            />
          </FormField>
          {busy ? (
            <div className="grid gap-2" role="status">
              <div className="flex items-center gap-3">
                <LoaderCircle className="size-5 shrink-0 animate-spin text-primary" aria-hidden />
                <Progress value={progress} label={t`Restoring the backup`} />
              </div>
              <p className="text-sm text-muted-foreground">{step}</p>
            </div>
          ) : null}
          {problems.length > 0 ? (
            <Alert variant="destructive" data-testid="restore-problems">
              <ul className="grid gap-1">
                {problems.map((problem, index) => (
                  <li key={index}>
                    {describeProblem(i18n, problem)}
                    {lineErrorsOf(problem).length > 0 ? (
                      <ul className="ml-4 list-disc">
                        {lineErrorsOf(problem).map((lineError, lineIndex) => (
                          <li key={lineIndex}>{describeProblem(i18n, lineError)}</li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
        </form>
        <DialogFooter>
          <Button
            type="submit"
            form="restore-bundle"
            disabled={busy || !file || name.trim() === '' || Boolean(nameProblem) || nameTaken}
          >
            <ArchiveRestore aria-hidden />
            <Trans>Restore</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
