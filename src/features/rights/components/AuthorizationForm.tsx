import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Info, Save } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import { Rights } from '@/domain/rights/access';
import {
  grantsNothing,
  MAX_DESCRIPTION,
  normalizeRules,
  PUBLIC_USER,
  type AuthorizationRules,
} from '@/domain/rights/authorization';
import { periodInputOf, readPeriodInput, type PeriodInput } from '@/domain/rights/periodInput';
import { requestFromState, stateFromRules, type RightsTableState } from '@/domain/rights/rightsTable';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastOutcome } from '@/offline/changeToasts';
import { outbox } from '@/offline/outboxInstance';
import { useFreshKeptQuery } from '@/offline/useFreshKeptQuery';
import { authorizationSave, periodOfView, rulesOfView } from '../api';
import { authorizationInputOf } from '../edited';
import { useGrantableQuery } from '../hooks/useAuthorizations';
import { useEditedAuthorization, type EditedAuthorization } from '../hooks/useEditedAuthorization';
import { authorizationRead } from '../queries';
import { PeriodFieldset } from './PeriodFieldset';
import { RightsTable } from './RightsTable';
import { UserPicker } from '@/components/form/UserPicker';

/** Creation ('new') or edition of an authorization: name, comment, users (none when public), period and rights table. */
export function AuthorizationForm({
  application,
  authorizationId,
  isPublic,
  editedItem,
}: {
  application: LoadedApplication;
  authorizationId: string;
  isPublic: boolean;
  /** A refused save reopened from the pending changes (its outbox id): the form opens with it, saving replaces it. */
  editedItem?: number;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { view, model } = application;
  const isNew = authorizationId === 'new';
  const options = useGrantableQuery(view.name);
  const storedRead = authorizationRead(view.name, authorizationId);
  // The form starts from the authorization as the server has it now (or, offline, as kept).
  const saved = useFreshKeptQuery(storedRead.queryKey, storedRead.read, { enabled: !isNew });
  const grantable = options.data ?? null;
  const error = options.error ?? (isNew ? undefined : saved.error);
  const offlineSince = application.offlineSince ?? options.offlineSince ?? (isNew ? undefined : saved.offlineSince);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [users, setUsers] = useState<string[]>([]);
  const [period, setPeriod] = useState<PeriodInput>({ kind: 'always', from: '', to: '' });
  const [rights, setRights] = useState<RightsTableState>({});
  /** The rules saved before, which saving replaces. */
  const [stored, setStored] = useState<AuthorizationRules | null>(null);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const edited = useEditedAuthorization(editedItem, view.name, authorizationId);
  // Once saved again, the refused one is gone: the next save is a new one.
  const [replacing, setReplacing] = useState<EditedAuthorization>();
  /** The refused save that filled the form (once): the stored authorization, read after, leaves it be. */
  const filledFromEdited = useRef<number | null>(null);

  // The form starts from the authorization as first read; reading it again (a change applied) leaves the edits be.
  const filledFor = useRef<string | null>(null);
  const storedView = isNew ? undefined : saved.data;
  useEffect(() => {
    if (!storedView || filledFor.current === authorizationId) return;
    filledFor.current = authorizationId;
    setStored(rulesOfView(storedView));
    if (filledFromEdited.current !== null) return;
    setName(storedView.name);
    setDescription(storedView.description);
    setUsers(storedView.users.map((u) => u.id));
    const bounds = periodOfView(storedView);
    setPeriod(periodInputOf(bounds.from, bounds.to));
    setRights(stateFromRules(model, rulesOfView(storedView)));
  }, [storedView, authorizationId, model]);

  useEffect(() => {
    if (!edited || filledFromEdited.current === edited.itemId) return;
    filledFromEdited.current = edited.itemId;
    const input = authorizationInputOf(model, edited.request);
    setName(input.name);
    setDescription(input.description);
    setUsers(input.users);
    setPeriod(input.period);
    setRights(input.rights);
    setReplacing(edited);
  }, [edited, model]);

  const granter = useMemo(
    () =>
      new Rights(
        grantable?.authorizationsForUser.isAdministrator ?? false,
        grantable?.authorizationsForUser.rules ?? [],
      ),
    [grantable],
  );
  const timed = model.data.some((entry) => entry.authorization?.timeScope != null);
  const reading = readPeriodInput(period);
  const request = reading.ok ? requestFromState(model, rights, { from: reading.from, to: reading.to }, isPublic) : null;
  const normalized = request ? normalizeRules(model, request, isPublic) : null;
  // The server refuses an authorization that grants nothing (NOTHING_GRANTED): the same rule, before sending.
  const grantsSomething = normalized?.ok === true && !grantsNothing(normalized.rules);
  // Saving replaces the stored rules: the server refuses it (NO_RIGHT_FOR_AUTHORIZATION_CHANGE) unless the caller could give them all.
  const changeable = stored === null || granter.mayGrant(stored);
  const ready = changeable && name.trim() !== '' && description.trim() !== '';
  const problems = {
    users: !isPublic && users.length === 0 ? t`Choose at least one user.` : undefined,
    description: description.length > MAX_DESCRIPTION ? t`At most ${MAX_DESCRIPTION} characters.` : undefined,
    period: !reading.ok,
    rights: grantsSomething ? undefined : t`Check at least one right.`,
  };
  const valid = !Object.values(problems).some(Boolean);
  const refusedName = replacing?.request.name ?? '';
  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
  const listPath = `/applications/${view.name}/authorizations`;

  async function save() {
    setTried(true);
    if (!valid || !request) return;
    setSaving(true);
    const outcome = await outbox.submit(
      authorizationSave(view.name, {
        uuid: isNew ? null : authorizationId,
        name: name.trim(),
        description: description.trim(),
        usersId: isPublic ? [PUBLIC_USER] : users,
        ...request,
      }),
      { keepOnRefusal: true, replaces: replacing?.itemId },
    );
    setSaving(false);
    setReplacing(undefined);
    toastOutcome(i18n, outcome, t`The authorization ${name.trim()} has been saved.`);
    if (outcome.status === 'needs-attention') return;
    await navigate({ to: '/applications/$applicationName/authorizations', params: { applicationName: view.name } });
  }

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (!grantable || (!isNew && stored === null)) return null;

  const title = isPublic
    ? isNew
      ? t`New public authorization`
      : t`Public authorization ${name}`
    : isNew
      ? t`New authorization`
      : t`Authorization ${name}`;
  return (
    <form
      className="grid gap-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Data rights`, href: listPath },
          { label: title },
        ]}
      />
      <PageHeader
        title={title}
        description={
          isPublic ? (
            <Trans>A public authorization lets everyone, signed in or not, read the data it names.</Trans>
          ) : undefined
        }
        actions={
          ready ? (
            <Button type="submit" disabled={saving}>
              <Save aria-hidden />
              <Trans>Save</Trans>
            </Button>
          ) : null
        }
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {replacing ? (
        <Alert variant="warning" data-testid="authorization-replaces">
          <Trans>
            The server refused the authorization {refusedName}: correct it and save it to replace it in the pending
            changes.
          </Trans>
        </Alert>
      ) : null}
      {!changeable ? (
        <Alert variant="warning">
          <Info aria-hidden className="mr-2 inline size-4" />
          <Trans>
            This authorization gives rights you may not give yourself: only someone who may give all of them can change
            it.
          </Trans>
        </Alert>
      ) : !ready ? (
        <Alert>
          <Info aria-hidden className="mr-2 inline size-4" />
          <Trans>Give the authorization a name and a comment to save it.</Trans>
        </Alert>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <FormField label={t`Name`} error={tried && name.trim() === '' ? t`The name is required.` : undefined}>
          <Input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        </FormField>
        <FormField
          label={t`Comment`}
          error={problems.description ?? (tried && description.trim() === '' ? t`The comment is required.` : undefined)}
          hint={t`${description.length} / ${MAX_DESCRIPTION} characters`}
        >
          <Textarea value={description} onChange={(event) => setDescription(event.target.value)} className="min-h-11" />
        </FormField>
      </div>
      {!isPublic ? (
        <fieldset className="grid min-w-0 gap-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Users</Trans>
          </legend>
          <UserPicker
            users={grantable.users.filter((u) => u.id !== PUBLIC_USER)}
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
      ) : null}
      {timed ? <PeriodFieldset period={period} reading={reading} tried={tried} onChange={setPeriod} /> : null}
      <fieldset className="grid min-w-0 gap-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Rights</Trans>
        </legend>
        <RightsTable
          application={view.name}
          use="grant"
          model={model}
          grantable={grantable}
          granter={granter}
          state={rights}
          onChange={setRights}
          isPublic={isPublic}
        />
        {tried && problems.rights ? (
          <p role="alert" className="text-sm text-destructive">
            {problems.rights}
          </p>
        ) : null}
      </fieldset>
      {ready ? (
        <div className="flex justify-end">
          <Button type="submit" disabled={saving}>
            <Save aria-hidden />
            <Trans>Save</Trans>
          </Button>
        </div>
      ) : null}
    </form>
  );
}
