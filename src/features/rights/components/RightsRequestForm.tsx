import { useMemo, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Send } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { StoredRow } from '@/domain/csv/types';
import { Rights } from '@/domain/rights/access';
import { grantsNothing, normalizeRules } from '@/domain/rights/authorization';
import { periodInputOf, readPeriodInput, type PeriodInput } from '@/domain/rights/periodInput';
import {
  checkRequestFields,
  REQUEST_COMMENT_MAX,
  REQUEST_COMMENT_MIN,
  requestCommentProblem,
  rulesOfEntries,
} from '@/domain/rights/rightsRequest';
import { requestFromState, stateFromRules, type RightsTableState } from '@/domain/rights/rightsTable';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { getCurrentUser } from '@/offline/currentUser';
import { toastOutcome } from '@/offline/changeToasts';
import { outbox } from '@/offline/outboxInstance';
import { rightsRequestInputOf } from '../edited';
import type { EditedRightsRequest } from '../hooks/useEditedRightsRequest';
import { periodOfEntries, rightsRequestSave, type RequestOptions, type RightsRequestView } from '../requestsApi';
import { RequestFormFields } from './RequestFormFields';
import { RequestRightsSection } from './RequestRightsSection';

/** The rows a reference field may name, as the checkers read them: the device checks what the server will. */
function referencesOf(
  model: ApplicationOutline,
  choices: RequestOptions['fieldChoices'],
): (name: string) => StoredRow[] | undefined {
  const rows = new Map<string, StoredRow[]>();
  for (const field of model.rightsRequest?.fields ?? []) {
    if (field.checker?.kind !== 'reference' || !choices[field.name]) continue;
    rows.set(
      field.checker.reference,
      choices[field.name].map((c) => ({ naturalKey: c.naturalKey, hierarchicalKey: c.naturalKey, values: {} })),
    );
  }
  return (name) => rows.get(name);
}

/** A whole-scope, any-time grant for anyone: whoever asks may ask for any reading. */
const ASKER = new Rights(true, []);

/**
 * A user's request (new, or their open one): the application's form fields, a comment of 3 to 255 characters
 * (asked in a prompt when left empty), and the rights asked for (reading, where and when). Everything is checked
 * on the device by the domain code the server runs; the save goes through the outbox, queued when offline.
 */
export function RightsRequestForm({
  applicationName,
  model,
  options,
  request,
  replaces,
}: {
  applicationName: string;
  model: ApplicationOutline;
  options: RequestOptions;
  request: RightsRequestView | null;
  /** A refused request being edited: the form opens with it, and sending replaces it. */
  replaces?: EditedRightsRequest;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const isNew = request === null;
  // A refused request being edited starts from what was sent, otherwise from the request as stored.
  const [refused] = useState(() => (replaces ? rightsRequestInputOf(model, replaces.body) : null));
  const [fields, setFields] = useState<Record<string, string>>(refused?.fields ?? request?.rightsRequestForm ?? {});
  const [comment, setComment] = useState(refused?.comment ?? request?.comment ?? '');
  const [rights, setRights] = useState<RightsTableState>(
    () => refused?.rights ?? (request ? stateFromRules(model, rulesOfEntries(request.rightsRequest)) : {}),
  );
  const [period, setPeriod] = useState<PeriodInput>(() => {
    if (refused) return refused.period;
    const bounds = request ? periodOfEntries(request.rightsRequest) : { from: null, to: null };
    return periodInputOf(bounds.from, bounds.to);
  });
  // Once sent again, the refused one is gone: the next send is a new one.
  const [replacing, setReplacing] = useState(replaces);
  const [prompt, setPrompt] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);

  const references = useMemo(() => referencesOf(model, options.fieldChoices), [model, options.fieldChoices]);
  const fieldCheck = checkRequestFields(model.rightsRequest, fields, references);
  const commentProblem = requestCommentProblem(comment);
  const reading = readPeriodInput(period);
  const asked = reading.ok ? requestFromState(model, rights, { from: reading.from, to: reading.to }, true) : null;
  const normalized = asked ? normalizeRules(model, asked, false) : null;
  const asksSomething = normalized !== null && normalized.ok && !grantsNothing(normalized.rules);
  const valid = fieldCheck.ok && asksSomething;

  async function save(text: string) {
    setTried(true);
    if (!valid || !asked || requestCommentProblem(text)) return;
    setSaving(true);
    const body = {
      id: request?.id ?? null,
      fields: fieldCheck.ok ? fieldCheck.values : {},
      rightsRequest: asked,
      setted: false,
      comment: text.trim(),
    };
    const outcome = await outbox.submit(
      rightsRequestSave(
        applicationName,
        body,
        isNew ? 'ask' : 'modify',
        request?.userLogin ?? getCurrentUser()?.login ?? '',
      ),
      { keepOnRefusal: true, replaces: replacing?.itemId },
    );
    setSaving(false);
    setReplacing(undefined);
    toastOutcome(i18n, outcome, isNew ? t`Your request has been sent.` : t`Your request has been modified.`);
    if (outcome.status === 'needs-attention') return;
    await navigate({ to: '/applications/$applicationName/authorizationsRequest', params: { applicationName } });
  }

  function submit() {
    // An empty comment is asked for in a prompt (spec §2) rather than refused.
    if (comment.trim() === '' && valid) {
      setPrompt('');
      return;
    }
    void save(comment);
  }

  const formTitle = localized(model.rightsRequest?.i18n.title, i18n.locale, model.defaultLanguage);
  const formDescription = localized(model.rightsRequest?.i18n.description, i18n.locale, model.defaultLanguage);
  const commentError =
    tried && comment.trim() !== '' && commentProblem
      ? t`Write ${REQUEST_COMMENT_MIN} to ${REQUEST_COMMENT_MAX} characters.`
      : undefined;
  return (
    <form
      className="grid gap-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {replacing ? (
        <Alert variant="warning" data-testid="rights-request-replaces">
          <Trans>
            The server refused this request: correct it and send it again to replace it in the pending changes.
          </Trans>
        </Alert>
      ) : null}
      {formTitle || formDescription ? (
        <div className="grid gap-1">
          {formTitle ? <h2 className="text-lg font-semibold">{formTitle}</h2> : null}
          {formDescription ? <p className="text-muted-foreground">{formDescription}</p> : null}
        </div>
      ) : null}
      {model.rightsRequest?.fields.length ? (
        <RequestFormFields
          fields={model.rightsRequest.fields}
          model={model}
          values={fields}
          choices={options.fieldChoices}
          problems={fieldCheck.ok ? [] : fieldCheck.problems}
          tried={tried}
          onChange={setFields}
        />
      ) : null}
      <FormField
        label={t`Comment`}
        error={commentError}
        hint={t`${comment.trim().length} / ${REQUEST_COMMENT_MAX} characters`}
      >
        <Textarea
          value={comment}
          maxLength={REQUEST_COMMENT_MAX + 50}
          onChange={(event) => setComment(event.target.value)}
        />
      </FormField>
      <RequestRightsSection
        application={applicationName}
        title={t`Rights asked for`}
        model={model}
        options={options}
        granter={ASKER}
        readingOnly
        rights={rights}
        onRightsChange={setRights}
        period={period}
        reading={reading}
        onPeriodChange={setPeriod}
        tried={tried}
        problem={asksSomething ? undefined : t`Check at least one right to ask for.`}
      />
      {tried && !fieldCheck.ok ? (
        <p role="alert" className="text-sm text-destructive">
          <Trans>Some fields are missing or not valid.</Trans>
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          <Send aria-hidden />
          {isNew ? <Trans>Send the request</Trans> : <Trans>Modify the request</Trans>}
        </Button>
      </div>

      <ConfirmDialog
        open={prompt !== null}
        onCancel={() => setPrompt(null)}
        onConfirm={() => {
          const text = prompt ?? '';
          setComment(text);
          setPrompt(null);
          void save(text);
        }}
        title={<Trans>A comment for the managers</Trans>}
        description={
          <Trans>
            Say in {REQUEST_COMMENT_MIN} to {REQUEST_COMMENT_MAX} characters why you ask for these rights.
          </Trans>
        }
        confirmLabel={
          <>
            <Send aria-hidden />
            {isNew ? <Trans>Send the request</Trans> : <Trans>Modify the request</Trans>}
          </>
        }
        variant="default"
        confirmDisabled={requestCommentProblem(prompt ?? '') !== null}
      >
        <FormField label={t`Comment`} hint={t`${(prompt ?? '').trim().length} / ${REQUEST_COMMENT_MAX} characters`}>
          <Textarea
            value={prompt ?? ''}
            maxLength={REQUEST_COMMENT_MAX + 50}
            onChange={(event) => setPrompt(event.target.value)}
          />
        </FormField>
      </ConfirmDialog>
    </form>
  );
}
