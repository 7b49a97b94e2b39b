import { Trans, useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import type { ApplicationOutline } from '@/domain/applications/outline';
import { rulesOfEntries, type RequestStatus } from '@/domain/rights/rightsRequest';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import type { AuthorizationView } from '../api';
import type { RequestOptions, RightsRequestView } from '../requestsApi';
import { PrivilegeSummary } from './PrivilegeSummary';

/** The status of a request as a coloured dot (spec §2: green once treated, red while open) with its word. */
export function RequestStatusLabel({ status }: { status: RequestStatus }) {
  const { t } = useLingui();
  const text =
    status === 'open'
      ? t({ id: 'rightsRequest.status.open', message: 'Open' })
      : status === 'granted'
        ? t`Granted`
        : t`Closed`;
  return (
    <span
      className="inline-flex items-center gap-2 whitespace-nowrap"
      data-testid="request-status"
      data-status={status}
    >
      <span
        aria-hidden
        className={cn('inline-block size-3 rounded-full', status === 'open' ? 'bg-red-600' : 'bg-green-600')}
      />
      {text}
    </span>
  );
}

/** The rights a request asks for, shaped as an authorization for its summary. */
export function askedAsAuthorization(request: Pick<RightsRequestView, 'rightsRequest'>): AuthorizationView {
  const rules = rulesOfEntries(request.rightsRequest);
  return {
    uuid: '',
    name: '',
    description: '',
    isPublic: false,
    users: [],
    authorizationForAll: rules.forAll,
    authorizationsWithRestriction: Object.fromEntries(
      Object.entries(rules.restricted).map(([name, grants]) => [
        name,
        grants.map((g) => ({
          operationTypes: g.operations,
          requiredAuthorizations: g.scopes,
          fromDay: g.from,
          toDay: g.to,
        })),
      ]),
    ),
    createdAt: '',
    updatedAt: '',
  };
}

/** Who asked, when, what they wrote in the form and the comment, what they ask for, and how it was treated. */
export function RequestDetails({
  request,
  model,
  options,
  valueLabels,
  scopeLabels,
}: {
  request: RightsRequestView;
  model: ApplicationOutline;
  options: RequestOptions;
  /** The labels of the request's reference values, for references too large to be offered as choices. */
  valueLabels?: Record<string, Array<{ naturalKey: string; label: string }>>;
  scopeLabels: ReadonlyMap<string, string>;
}) {
  const { i18n } = useLingui();
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
  const fields = model.rightsRequest?.fields ?? [];
  // The value as stored first (a code typed in another case still names its row), then the form's choices.
  const shown = (name: string, value: string) =>
    valueLabels?.[name]?.find((c) => c.naturalKey === value)?.label ??
    options.fieldChoices[name]?.find((c) => c.naturalKey === value)?.label ??
    value;
  return (
    <Card data-testid="request-details">
      <CardHeader>
        <CardTitle className="text-lg">
          <Trans>The request</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-muted-foreground">
            <Trans>Requester</Trans>
          </dt>
          <dd className="break-words">
            {request.userLogin} ·{' '}
            <a href={`mailto:${request.userEmail}`} className="underline underline-offset-2">
              {request.userEmail}
            </a>
          </dd>
          <dt className="font-medium text-muted-foreground">
            <Trans>Status</Trans>
          </dt>
          <dd>
            <RequestStatusLabel status={request.status} />
          </dd>
          <dt className="font-medium text-muted-foreground">
            <Trans>Created</Trans>
          </dt>
          <dd>{date(request.createDate)}</dd>
          <dt className="font-medium text-muted-foreground">
            <Trans>Updated</Trans>
          </dt>
          <dd>{date(request.updateDate)}</dd>
          {fields.map((field) => (
            <div key={field.name} className="contents">
              <dt className="font-medium text-muted-foreground">
                {localized(field.i18n.title, i18n.locale, model.defaultLanguage, field.name)}
              </dt>
              <dd className="break-words" data-field={field.name}>
                {shown(field.name, request.rightsRequestForm[field.name] ?? '')}
              </dd>
            </div>
          ))}
          <dt className="font-medium text-muted-foreground">
            <Trans>Comment</Trans>
          </dt>
          <dd className="whitespace-pre-wrap break-words">{request.comment}</dd>
          {request.status !== 'open' ? (
            <>
              <dt className="font-medium text-muted-foreground">
                <Trans>Treated by</Trans>
              </dt>
              <dd>{request.treatedByLogin ?? '—'}</dd>
              <dt className="font-medium text-muted-foreground">
                <Trans>Answer</Trans>
              </dt>
              <dd className="whitespace-pre-wrap break-words" data-testid="treatment-comment">
                {request.treatmentComment}
              </dd>
            </>
          ) : null}
        </dl>
        <div>
          <h3 className="mb-1 font-medium">
            <Trans>Rights asked for</Trans>
          </h3>
          <PrivilegeSummary authorization={askedAsAuthorization(request)} model={model} scopeLabels={scopeLabels} />
        </div>
      </CardContent>
    </Card>
  );
}
