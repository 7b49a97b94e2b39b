import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { CircleHelp, FlaskConical, LoaderCircle } from 'lucide-react';
import {
  APPLICATION_NAME_ENTRY_LIMIT,
  checkApplicationName,
  type ApplicationNameProblem,
} from '@/domain/applications/applicationName';
import type { ApplicationModel } from '@/domain/configuration/model';
import type { StreamEvent } from '@/domain/streaming/events';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { FileInput } from '@/components/ui/file-input';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api/apiError';
import { isServerReachable } from '@/lib/connectivity';
import { useCurrentUser } from '@/offline/currentUser';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { CodedProblem } from '@/lib/i18n/problems';
import { showToast } from '@/lib/toast';
import { toastOutcome, toastRefusal } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { dataLossSummary, type UpdateImpact } from '@/domain/applications/updateImpact';
import { dryRunUpdate, streamApplications, validateOnServer } from '../api';
import { configurationUpload, type ConfigurationUploadInput } from '../outboxRequests';
import { useConfigurationWorker } from '@/workers/useConfigurationWorker';
import { ConfigurationProblems } from './ConfigurationProblems';
import { ConfigurationWarnings } from './ConfigurationWarnings';
import { UpdateImpactReport, holdsRows, isForbidden, losesData } from './UpdateImpactReport';

const MAX_COMMENT = 200;

interface ApplicationCreationPageProps {
  /** Present when updating: the application and the version it is at. */
  current?: { name: string; version: string };
  /** A queued upload reopened from the pending changes to be edited; saving replaces it. */
  edit?: { itemId: number; input: ConfigurationUploadInput };
}

type Phase = 'idle' | 'testing' | 'tested' | 'saving';

export function ApplicationCreationPage({ current, edit }: ApplicationCreationPageProps) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const router = useRouter();
  const user = useCurrentUser();
  const validateInWorker = useConfigurationWorker();
  const editedItem = edit?.itemId;
  const [file, setFile] = useState<File | null>(edit?.input.file ?? null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState(1);
  const [problems, setProblems] = useState<CodedProblem[]>([]);
  const [warnings, setWarnings] = useState<CodedProblem[]>([]);
  const [model, setModel] = useState<ApplicationModel | null>(null);
  const [checkedOnServer, setCheckedOnServer] = useState(false);
  const [name, setName] = useState(edit?.input.name ?? current?.name ?? '');
  const [comment, setComment] = useState(edit?.input.comment ?? '');
  const [existingNames, setExistingNames] = useState<string[]>([]);
  const [impact, setImpact] = useState<UpdateImpact | null>(null);
  const [confirmDataLoss, setConfirmDataLoss] = useState(edit?.input.confirmDataLoss ?? false);

  useEffect(() => {
    if (current) return;
    const abort = new AbortController();
    const names: string[] = [];
    streamApplications((event) => event.type === 'result' && names.push(event.result.name), abort.signal)
      .then(() => setExistingNames(names))
      .catch(() => undefined);
    return () => abort.abort();
  }, [current]);

  const nameProblem: ApplicationNameProblem | undefined = user
    ? checkApplicationName(name, { isPlatformAdmin: user.terrainAdmin, patterns: user.authorizations })
    : undefined;
  const nameTaken = !current && existingNames.includes(name.trim());
  const sameVersion = Boolean(current && model && model.version === current.version && name.trim() === current.name);
  const nameMismatch = Boolean(current && name.trim() !== current.name);
  const commentTooLong = comment.length > MAX_COMMENT;
  const impactAllows = impact === null || (!isForbidden(impact) && (!losesData(impact) || confirmDataLoss));
  const canSave =
    impactAllows &&
    phase === 'tested' &&
    model !== null &&
    name.trim() !== '' &&
    !nameProblem &&
    !nameTaken &&
    !sameVersion &&
    !nameMismatch &&
    !commentTooLong;

  const nameMessages: Record<ApplicationNameProblem, string> = useMemo(
    () => ({
      invalidLengthName: t`The name must have 2 to 40 characters.`,
      invalidName: t`The name starts with a lowercase letter, followed by lowercase letters, digits or _ only.`,
      badNameWithRight: t`You may not create or update an application with this name.`,
    }),
    [t],
  );

  async function test(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    setPhase('testing');
    setProgress(0);
    setProblems([]);
    setWarnings([]);
    setModel(null);
    setImpact(null);
    setConfirmDataLoss(false);
    setCheckedOnServer(false);
    const bytes = new Uint8Array(await file.arrayBuffer());
    // The check on this device comes first: immediate, and available offline.
    const local = await validateInWorker().validateConfiguration(bytes, file.name);
    setProgress(isServerReachable() ? 0.5 : 1);
    let found: CodedProblem[] = local.ok ? [] : local.errors;
    let remarks: CodedProblem[] = local.warnings;
    let validated: ApplicationModel | null = local.ok ? local.value : null;
    if (isServerReachable()) {
      try {
        const outcome = await validateOnServer(file, (e: StreamEvent<ApplicationModel | null>) => {
          if (e.type === 'progress') setProgress(0.5 + e.result / (current ? 4 : 2));
        });
        found = outcome.problems;
        remarks = outcome.warnings;
        validated = outcome.problems.length === 0 && outcome.result ? outcome.result : null;
        setCheckedOnServer(true);
        if (current && validated && validated.version !== current.version) {
          // What the update does to the stored data: only the server knows its rows.
          const dryRun = await dryRunUpdate(current.name, file, (e) => {
            if (e.type === 'progress') setProgress(0.75 + e.result / 4);
          });
          if (dryRun.result && 'dryRun' in dryRun.result) setImpact(dryRun.result.impact);
        }
      } catch (error) {
        if (!(error instanceof ApiError && error.isNetworkError)) showToast('error', translateServerError(i18n, error));
      }
    }
    setProgress(1);
    setProblems(found);
    setWarnings(remarks);
    setModel(validated);
    setPhase(validated ? 'tested' : 'idle');
    if (validated) {
      if (!current && !edit) setName(validated.name.toLowerCase().slice(0, APPLICATION_NAME_ENTRY_LIMIT));
      if (!edit) setComment(validated.comment === 'no comment' ? '' : validated.comment.slice(0, MAX_COMMENT));
      showToast('success', t`The configuration is valid.`);
    }
  }

  async function save() {
    if (!file || !canSave) return;
    setPhase('saving');
    setProgress(0);
    const submission = configurationUpload({
      name: name.trim(),
      comment,
      file,
      currentVersion: current?.version,
      ...(current && confirmDataLoss
        ? { confirmDataLoss: true, ...(impact ? { confirmedLoss: dataLossSummary(impact) } : {}) }
        : {}),
    });
    // An edited pending change is replaced as the new one enters the outbox, so it does not hold the new one back.
    const outcome = await submitChange(submission, {
      onEvent: (e) => e.type === 'progress' && setProgress(e.result),
      replaces: editedItem,
    });
    setProgress(1);
    if (outcome.status === 'needs-attention') {
      const reported = outcome.error.problems;
      setProblems(reported && reported.length > 0 ? reported : []);
      if (!reported?.length) toastRefusal(i18n, outcome.error);
      setPhase('tested');
      return;
    }
    toastOutcome(
      i18n,
      outcome,
      current ? t`The application ${name} has been updated.` : t`The application ${name} has been created.`,
    );
    await router.navigate({ to: '/applications' });
  }

  const busy = phase === 'testing' || phase === 'saving';

  return (
    <div className="grid gap-6">
      <PageHeader
        title={current ? <Trans>Update the application {current.name}</Trans> : <Trans>Create an application</Trans>}
        description={<Trans>Choose a configuration file (.yaml, or .zip of YAML files), test it, then save it.</Trans>}
        actions={
          <Button asChild variant="outline">
            <a href="/help" target="_blank" rel="noopener">
              <CircleHelp aria-hidden />
              <Trans>Help</Trans>
            </a>
          </Button>
        }
      />
      <Card>
        <CardContent className="grid gap-4 pt-5">
          <form onSubmit={test} className="grid gap-4">
            <FormField
              label={t`Configuration file`}
              hint={
                edit && file === edit.input.file
                  ? t`Kept from the pending change: ${file.name}`
                  : t`A .yaml file, or a .zip of YAML files.`
              }
            >
              <FileInput
                accept=".yaml,.yml,.zip,application/yaml,application/zip"
                required={!file}
                disabled={busy}
                fileName={file?.name}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setPhase('idle');
                  setModel(null);
                  setProblems([]);
                  setWarnings([]);
                  setImpact(null);
                  setConfirmDataLoss(false);
                }}
              />
            </FormField>
            {busy ? (
              <div className="flex items-center gap-3" role="status">
                <LoaderCircle className="size-5 animate-spin text-primary" aria-hidden />
                <Progress
                  value={progress}
                  label={phase === 'testing' ? t`Testing the configuration` : t`Saving the application`}
                />
              </div>
            ) : (
              <Button type="submit" disabled={!file} variant="secondary" className="justify-self-start">
                <FlaskConical aria-hidden />
                <Trans>Test</Trans>
              </Button>
            )}
          </form>
        </CardContent>
      </Card>

      {problems.length > 0 ? <ConfigurationProblems problems={problems} /> : null}
      {warnings.length > 0 ? <ConfigurationWarnings warnings={warnings} /> : null}
      {impact && phase !== 'idle' && holdsRows(impact) ? (
        <UpdateImpactReport impact={impact} confirmed={confirmDataLoss} onConfirmedChange={setConfirmDataLoss} />
      ) : null}

      {model && phase !== 'idle' ? (
        <Card>
          <CardContent className="grid gap-4 pt-5">
            {!checkedOnServer ? (
              <Alert variant="warning">
                <Trans>Checked on this device only: the server will check the file again when it is saved.</Trans>
              </Alert>
            ) : null}
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">
                <Trans>Version</Trans>
              </span>
              <Badge
                variant={current && model.version !== current.version ? 'warning' : 'secondary'}
                data-testid="version-tag"
              >
                {current && model.version !== current.version
                  ? t`${current.version} → ${model.version}`
                  : model.version}
              </Badge>
            </div>
            <FormField
              label={t`Application name`}
              error={
                nameProblem
                  ? nameMessages[nameProblem]
                  : nameTaken
                    ? t`An application named ${name} already exists.`
                    : nameMismatch
                      ? t`An update keeps the name ${current?.name}.`
                      : undefined
              }
            >
              <Input
                value={name}
                maxLength={APPLICATION_NAME_ENTRY_LIMIT}
                onChange={(event) => setName(event.target.value.toLowerCase())}
                disabled={busy}
              />
            </FormField>
            {sameVersion ? (
              <Alert variant="destructive">
                <Trans>
                  The application {current?.name} already exists in version {model.version}.
                </Trans>
              </Alert>
            ) : null}
            <FormField
              label={t`Comment`}
              error={commentTooLong ? t`At most ${MAX_COMMENT} characters.` : undefined}
              hint={t`${comment.length} / ${MAX_COMMENT}`}
            >
              <Textarea
                value={comment}
                onChange={(event) => setComment(event.target.value)}
                disabled={busy || sameVersion}
              />
            </FormField>
            <Button
              type="button"
              size="lg"
              onClick={() => void save()}
              disabled={!canSave}
              className="justify-self-start"
            >
              {current ? <Trans>Change</Trans> : <Trans>Create</Trans>}
            </Button>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
