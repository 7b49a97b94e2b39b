import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Save, X } from 'lucide-react';
import {
  FILE_OPERATIONS,
  inducedFileOperations,
  rightsByType,
  rightsOfTypes,
  type FileOperation,
} from '@/domain/additionalFiles/authorization';
import { localized } from '@/domain/applications/summary';
import { UserPicker } from '@/components/form/UserPicker';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastOutcome } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { useFreshKeptQuery } from '@/offline/useFreshKeptQuery';
import { fileAuthorizationSave, fileAuthorizationsRead } from '../api';
import { useOperationLabels } from '../operationLabels';

/** Creation ('new') or edition of an additional-file authorization: users, a name, and per file type its rights. */
export function FileAuthorizationForm({
  application,
  authorizationId,
}: {
  application: LoadedApplication;
  authorizationId: string;
}) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const labels = useOperationLabels();
  const { view, model } = application;
  const isNew = authorizationId === 'new';
  const read = fileAuthorizationsRead(view.name, isNew ? undefined : authorizationId);
  // The form starts from the authorization as the server has it now (or, offline, as kept).
  const { data, error, offlineSince } = useFreshKeptQuery(read.queryKey, read.read);
  const loaded = data ?? null;
  const offlineFrom = application.offlineSince ?? offlineSince;
  const [name, setName] = useState('');
  const [users, setUsers] = useState<string[]>([]);
  const [byType, setByType] = useState<Record<string, FileOperation[]>>({});
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const appTitle = text(view.title, view.name);

  // The form starts from the authorization as first read; reading it again (a change applied) leaves the edits be.
  const [filledFor, setFilledFor] = useState<string | null>(null);
  const existing = isNew ? undefined : loaded?.authorizationResults[0];
  useEffect(() => {
    if (!existing || filledFor === authorizationId) return;
    setFilledFor(authorizationId);
    setName(existing.name);
    setUsers(existing.users.map((u) => u.id));
    setByType(rightsByType(existing.additionalFiles));
  }, [existing, authorizationId, filledFor]);

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (!loaded || (existing && filledFor !== authorizationId)) return null;

  const adminTypes = new Set(loaded.authorizationsForUser.adminTypes);
  const types = model.additionalFiles.filter(
    (type) => loaded.authorizationsForUser.isAdministrator || adminTypes.has(type.name),
  );
  const problems = {
    users: users.length === 0 ? t`Choose at least one user.` : undefined,
    name: name.trim() === '' ? t`Give the authorization a name.` : undefined,
    rights: Object.values(byType).some((operations) => operations.length > 0)
      ? undefined
      : t`Check at least one right.`,
  };
  const valid = !Object.values(problems).some(Boolean);

  function toggle(type: string, operation: FileOperation) {
    setByType((current) => {
      const chosen = new Set(current[type] ?? []);
      if (chosen.has(operation)) chosen.delete(operation);
      else chosen.add(operation);
      return { ...current, [type]: FILE_OPERATIONS.filter((op) => chosen.has(op)) };
    });
  }

  async function save() {
    setTried(true);
    if (!valid) return;
    setSending(true);
    const outcome = await submitChange(
      fileAuthorizationSave(view.name, {
        uuid: isNew ? null : authorizationId,
        name: name.trim(),
        usersId: users,
        additionalFiles: rightsOfTypes(byType),
      }),
    );
    setSending(false);
    toastOutcome(i18n, outcome, t`The authorization ${name.trim()} has been saved.`);
    if (outcome.status === 'needs-attention') return;
    await navigate({
      to: '/applications/$applicationName/additionalFiles/authorizations',
      params: { applicationName: view.name },
    });
  }

  return (
    <div className="grid grid-cols-1 gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Additional files`, href: `/applications/${view.name}/additionalFiles` },
          { label: t`Rights`, href: `/applications/${view.name}/additionalFiles/authorizations` },
          { label: isNew ? t`New authorization` : name },
        ]}
      />
      <PageHeader
        title={isNew ? <Trans>New authorization on additional files</Trans> : <Trans>Authorization {name}</Trans>}
      />
      {offlineFrom ? <OfflineNotice fetchedAt={offlineFrom} /> : null}
      <form
        className="grid grid-cols-1 gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <fieldset className="grid min-w-0 gap-2">
          <legend className="mb-1 text-sm font-medium">{`${t`Users`} *`}</legend>
          <UserPicker
            users={loaded.users}
            chosen={users}
            onChange={setUsers}
            label={t`Add a user`}
            invalid={tried && Boolean(problems.users)}
          />
          {tried && problems.users ? (
            <p role="alert" className="text-sm text-destructive">
              {problems.users}
            </p>
          ) : null}
        </fieldset>
        <FormField label={`${t`Name`} *`} error={tried ? problems.name : undefined}>
          <Input value={name} onChange={(event) => setName(event.target.value)} />
        </FormField>
        <Table data-testid="file-rights-table">
          <TableHeader>
            <TableRow>
              <TableHead className="sticky left-0 z-10 bg-muted max-md:shadow-[6px_0_6px_-6px_rgb(0_0_0/0.25)]">
                <Trans>File type</Trans>
              </TableHead>
              {FILE_OPERATIONS.map((operation) => (
                <TableHead key={operation} className="px-1 text-center sm:px-3">
                  {labels[operation]}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {types.map((type) => {
              const chosen = new Set(byType[type.name] ?? []);
              const induced = inducedFileOperations(chosen);
              const title = text(type.i18n.title, type.name);
              return (
                <TableRow key={type.name} data-testid="file-rights-row" data-name={type.name}>
                  {/* The type stays in sight while the columns scroll sideways on a phone. */}
                  <TableCell className="sticky left-0 z-10 max-w-32 break-words bg-card font-medium max-md:shadow-[6px_0_6px_-6px_rgb(0_0_0/0.25)]">
                    {title}
                  </TableCell>
                  {FILE_OPERATIONS.map((operation) => (
                    // Relative: the checkbox's hidden form input is placed against its cell, inside the scrolling table.
                    <TableCell key={operation} className="relative px-1 text-center sm:px-3">
                      <Checkbox
                        aria-label={`${labels[operation]} — ${title}`}
                        title={
                          induced.has(operation) ? t`Induced by dependencies, cannot be modified directly.` : undefined
                        }
                        checked={chosen.has(operation) || induced.has(operation)}
                        disabled={induced.has(operation)}
                        onCheckedChange={() => toggle(type.name, operation)}
                      />
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        <p className="text-sm text-muted-foreground">
          <Trans>
            Deletion brings deposit and download with it. Administration lets the user give these rights to others.
          </Trans>
        </p>
        {tried && problems.rights ? (
          <p role="alert" className="text-sm text-destructive">
            {problems.rights}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link
              to="/applications/$applicationName/additionalFiles/authorizations"
              params={{ applicationName: view.name }}
            >
              <X aria-hidden />
              <Trans>Cancel</Trans>
            </Link>
          </Button>
          <Button type="submit" disabled={sending}>
            <Save aria-hidden />
            {isNew ? <Trans>Create</Trans> : <Trans>Modify</Trans>}
          </Button>
        </div>
      </form>
    </div>
  );
}
