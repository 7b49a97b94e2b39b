import { useMemo, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, X } from 'lucide-react';
import type { ApplicationOutline } from '@/domain/applications/outline';
import { Rights } from '@/domain/rights/access';
import { grantsNothing, normalizeRules } from '@/domain/rights/authorization';
import { periodInputOf, readPeriodInput, type PeriodInput } from '@/domain/rights/periodInput';
import {
  REQUEST_COMMENT_MAX,
  REQUEST_COMMENT_MIN,
  requestCommentProblem,
  rulesOfEntries,
} from '@/domain/rights/rightsRequest';
import { requestFromState, stateFromRules, type RightsTableState } from '@/domain/rights/rightsTable';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { showToast } from '@/lib/toast';
import { toastOutcome } from '@/offline/changeToasts';
import { outbox } from '@/offline/outboxInstance';
import {
  periodOfEntries,
  rightsRequestSave,
  type RequestAction,
  type RequestOptions,
  type RightsRequestView,
} from '../requestsApi';
import { RequestRightsSection } from './RequestRightsSection';

/**
 * A manager's or user manager's treatment of an open request: the request opens as an authorization for its
 * requester, pre-filled with what was asked, to adjust (any operation, within what the treating person may give)
 * and grant in one step; or the request is closed without rights. Either needs a comment, sent to the requester.
 */
export function RightsRequestGrant({
  applicationName,
  model,
  options,
  request,
}: {
  applicationName: string;
  model: ApplicationOutline;
  options: RequestOptions;
  request: RightsRequestView;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState(
    () =>
      t`Rights request of ${request.userLogin} (${i18n.date(new Date(request.createDate), { dateStyle: 'short' })})`,
  );
  const [rights, setRights] = useState<RightsTableState>(() =>
    stateFromRules(model, rulesOfEntries(request.rightsRequest)),
  );
  const [period, setPeriod] = useState<PeriodInput>(() => {
    const bounds = periodOfEntries(request.rightsRequest);
    return periodInputOf(bounds.from, bounds.to);
  });
  const [comment, setComment] = useState('');
  const [closing, setClosing] = useState(false);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);

  const granter = useMemo(
    () => new Rights(options.authorizationsForUser.isAdministrator, options.authorizationsForUser.rules),
    [options],
  );
  const reading = readPeriodInput(period);
  const granted = reading.ok ? requestFromState(model, rights, { from: reading.from, to: reading.to }, false) : null;
  const normalized = granted ? normalizeRules(model, granted, false) : null;
  const grantsSomething = normalized?.ok === true && !grantsNothing(normalized.rules);
  const commentProblem = requestCommentProblem(comment);

  async function treat(action: Extract<RequestAction, 'grant' | 'close'>) {
    setTried(true);
    setClosing(false);
    if (comment.trim() === '')
      return showToast(
        'error',
        action === 'grant' ? t`Write a comment to grant the request.` : t`Write a comment to close the request.`,
      );
    if (commentProblem) return;
    if (action === 'grant' && (!grantsSomething || name.trim() === '')) return;
    setSaving(true);
    const body = {
      id: request.id,
      setted: true,
      comment: comment.trim(),
      rightsRequest: action === 'grant' ? { name: name.trim(), ...granted } : null,
    };
    const outcome = await outbox.submit(rightsRequestSave(applicationName, body, action, request.userLogin), {
      keepOnRefusal: true,
    });
    setSaving(false);
    toastOutcome(
      i18n,
      outcome,
      action === 'grant'
        ? t`The request of ${request.userLogin} has been granted.`
        : t`The request of ${request.userLogin} has been closed.`,
    );
    if (outcome.status === 'needs-attention') return;
    await navigate({ to: '/applications/$applicationName/authorizationsRequest', params: { applicationName } });
  }

  return (
    <form
      className="grid min-w-0 grid-cols-1 gap-5 [&>*]:min-w-0"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void treat('grant');
      }}
    >
      <FormField
        label={t`Name of the authorization`}
        error={tried && name.trim() === '' ? t`The name is required.` : undefined}
      >
        <Input value={name} maxLength={200} autoComplete="off" onChange={(event) => setName(event.target.value)} />
      </FormField>
      <RequestRightsSection
        application={applicationName}
        title={t`Rights to grant to ${request.userLogin}`}
        model={model}
        options={options}
        granter={granter}
        readingOnly={false}
        rights={rights}
        onRightsChange={setRights}
        period={period}
        reading={reading}
        onPeriodChange={setPeriod}
        tried={tried}
        problem={grantsSomething ? undefined : t`Check at least one right to grant, or close the request.`}
      />
      <FormField
        label={t`Answer to ${request.userLogin}`}
        error={
          tried && comment.trim() !== '' && commentProblem
            ? t`Write ${REQUEST_COMMENT_MIN} to ${REQUEST_COMMENT_MAX} characters.`
            : undefined
        }
        hint={t`Sent by e-mail with the decision. ${comment.trim().length} / ${REQUEST_COMMENT_MAX} characters`}
      >
        <Textarea
          value={comment}
          maxLength={REQUEST_COMMENT_MAX + 50}
          onChange={(event) => setComment(event.target.value)}
        />
      </FormField>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" disabled={saving} onClick={() => setClosing(true)}>
          <X aria-hidden />
          <Trans>Close without granting</Trans>
        </Button>
        <Button type="submit" disabled={saving}>
          <Check aria-hidden />
          <Trans>Grant the request</Trans>
        </Button>
      </div>

      <ConfirmDialog
        open={closing}
        onCancel={() => setClosing(false)}
        onConfirm={() => void treat('close')}
        title={<Trans>Close the request of {request.userLogin}?</Trans>}
        description={<Trans>No right is granted; the requester is told by e-mail with your answer.</Trans>}
        confirmLabel={<Trans>Close the request</Trans>}
      />
    </form>
  );
}
