import { refuseUnknownScopeKeys } from './scopeKeysCheck.ts';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { localized } from '../../src/domain/applications/summary.ts';
import { grantsNothing, normalizeRules, type AuthorizationRules } from '../../src/domain/rights/authorization.ts';
import { operationColumns } from '../../src/domain/rights/operations.ts';
import { answeredProblems, budgetProblem } from '../../src/domain/forms/checkFormFields.ts';
import {
  checkRequestFields,
  entriesOfRules,
  requestCommentProblem,
  unrequestableOperations,
  type RequestStatus,
} from '../../src/domain/rights/rightsRequest.ts';
import {
  RightsRequestQuerySchema,
  type RequestOptions,
  type RightsRequestBody,
  type RightsRequestList,
  type RightsRequestQuery,
} from '../../src/contract/rightsRequests.ts';
import { readJsonParameter } from '../../src/contract/jsonParameter.ts';
import { regexBudget } from '../../src/domain/regex/searchBudget.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { referenceChoices, referenceLabels } from './fieldChoices.ts';
import { formReferenceRows } from './formReferenceRows.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { asMailLanguage, rightsRequestMail } from '../mail/rightsRequestMails.ts';
import type { MailLanguage } from '../mail/templates.ts';
import { administers, rolesOf } from './applicationAccess.ts';
import {
  prepareAuthorization,
  rightsOf,
  rulesFor,
  writeAuthorization,
  type PreparedAuthorization,
} from './authorizations.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { requireSignedCharter } from './charter.ts';
import { referenceScopesOf } from './scopeTrees.ts';
import { enforceRateLimit, hitRateLimit } from './rateLimits.ts';
import { filtered, newestFirst, regexSearches, searchedPage, type RequestSelect } from './rightsRequestSelection.ts';
import { applying } from '../db/appliedWork.ts';

/** The window rights requests are counted over (`rightsRequestsPerHour`). */
export const RIGHTS_REQUESTS_WINDOW_SECONDS = 3600;

/** Managers and user managers see every request and treat them; anyone else sees and edits their own. */
export async function treatsRequests(ctx: ServerContext, user: UserRow, application: ApplicationRow): Promise<boolean> {
  const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
  return administers(user, application, roles) || roles.includes('userManager');
}

/**
 * What the request form needs, for any signed-in user: the scope trees of the data (to ask for parts of them),
 * the columns per data, the choices of the form's reference fields (natural key and label), and the caller's
 * own rights (what a manager or user manager may give when granting). Trees and choices are rows of references:
 * like every reference read, they wait for the charter's acceptance.
 */
export async function requestOptions(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  locale: string,
): Promise<RequestOptions> {
  await requireSignedCharter(ctx, caller, application);
  const reader = await rightsOf(ctx, caller, application);
  const model = application.model;
  const fieldChoices: Record<string, Array<{ naturalKey: string; label: string }>> = {};
  for (const field of model.rightsRequest?.fields ?? []) {
    const checker = field.checker;
    if (checker?.kind !== 'reference') continue;
    const target = model.data.find((d) => d.name === checker.reference);
    if (!target) continue;
    // A large reference is not offered as a list: the field then takes a row's code.
    const { choices } = await referenceChoices(ctx, application, target, locale, reader);
    if (choices) fieldChoices[field.name] = choices;
  }
  const roles = (await rolesOf(ctx.db, caller.id)).get(application.id) ?? [];
  const isAdministrator = administers(caller, application, roles);
  const treats = isAdministrator || roles.includes('userManager');
  return {
    referenceScopes: await referenceScopesOf(ctx, application, locale),
    columnsDescription: Object.fromEntries(model.data.map((entry) => [entry.name, operationColumns(entry)])),
    fieldChoices,
    authorizationsForUser: {
      isAdministrator,
      treatsRequests: treats,
      rules: isAdministrator ? [] : ((await rulesFor(ctx, [application.id], caller.id)).get(application.id) ?? []),
    },
  };
}

/** The requests `select` keeps with what the list shows of them, in the list's order. */
export const detailedRequests = (select: RequestSelect) =>
  newestFirst(
    select
      .leftJoin('users as t', 't.id', 'r.treated_by')
      .select([
        'r.id',
        'r.user_id',
        'u.login',
        'u.email',
        'r.comment',
        'r.fields',
        'r.rules',
        'r.setted',
        'r.decision',
        'r.treatment_comment',
        'r.treated_by',
        't.login as treated_by_login',
        'r.authorization_id',
        'r.created_at',
        'r.updated_at',
      ]),
  );

export type DetailedRequest = Awaited<ReturnType<ReturnType<typeof detailedRequests>['execute']>>[number];

/** A request as the list shows it. */
export function requestView(
  application: ApplicationRow,
  r: DetailedRequest,
): RightsRequestList['rightsRequests'][number] {
  const status: RequestStatus = r.decision ?? 'open';
  return {
    id: r.id,
    application: application.name,
    user: r.user_id,
    userLogin: r.login,
    userEmail: r.email,
    createDate: r.created_at.toISOString(),
    updateDate: r.updated_at.toISOString(),
    comment: r.comment,
    rightsRequestForm: r.fields,
    rightsRequest: entriesOfRules(r.rules),
    setted: r.setted,
    status,
    treatedBy: r.treated_by,
    treatedByLogin: r.treated_by_login,
    treatmentDecision: status === 'granted' ? 'APPROVED' : status === 'closed' ? 'REJECTED' : null,
    treatmentComment: r.treatment_comment,
    linkedAuthorizationIds: r.authorization_id ? [r.authorization_id] : [],
  };
}

/** Requests as api.md §13.2 shows them (GetRightsRequestResult), newest first, with the count of all that match. */
export async function listRightsRequests(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  query: RightsRequestQuery,
  locale: string,
): Promise<RightsRequestList> {
  const seesAll = await treatsRequests(ctx, caller, application);
  const base = ctx.db
    .selectFrom('rights_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .where('r.application_id', '=', application.id) as RequestSelect;
  const matching = filtered(base, caller, seesAll, query);
  const budget = regexBudget();
  const searches = regexSearches(query, budget);
  let rows: DetailedRequest[];
  let total: number;
  if (searches.length) {
    const found = await searchedPage(matching, searches, budget, {
      offset: query.offset ?? 0,
      limit: query.limit ?? null,
    });
    rows = found.ids.length
      ? await detailedRequests(matching.where(sql<boolean>`r.id = any(${found.ids}::uuid[])`)).execute()
      : [];
    total = found.total;
  } else {
    let page = detailedRequests(matching);
    if (query.offset) page = page.offset(query.offset);
    // A limit of 0 is an empty page (the total alone), as for additional files; no limit is every request.
    if (query.limit !== undefined && query.limit !== null) page = page.limit(query.limit);
    else if (query.offset) page = page.limit(sql<number>`all`);
    rows = await page.execute();
    const counted = await matching.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirst();
    total = Number(counted?.total ?? 0);
  }
  const users = [...new Map(rows.map((r) => [r.user_id, { id: r.user_id, label: r.login }])).values()];
  return {
    users,
    valueLabels: await requestValueLabels(ctx, application, locale, rows, await rightsOf(ctx, caller, application)),
    total,
    rightsRequests: rows.map((r) => requestView(application, r)),
    description: application.model.rightsRequest,
  };
}

/**
 * The labels of the reference values the requests hold, per form field: the choices of the request form stop at
 * `MAX_FIELD_CHOICES` rows, and a request naming an institute of a larger reference showed its code to the manager
 * granting it.
 */
export async function requestValueLabels(
  ctx: ServerContext,
  application: ApplicationRow,
  locale: string,
  requests: ReadonlyArray<{ fields: Record<string, string> }>,
  reader: Rights,
): Promise<Record<string, Array<{ naturalKey: string; label: string }>>> {
  const labels: Record<string, Array<{ naturalKey: string; label: string }>> = {};
  const model = application.model;
  for (const field of model.rightsRequest?.fields ?? []) {
    const checker = field.checker;
    if (checker?.kind !== 'reference') continue;
    const target = model.data.find((d) => d.name === checker.reference);
    const values = requests.map((r) => r.fields[field.name]).filter((v): v is string => typeof v === 'string');
    if (target && values.length)
      labels[field.name] = await referenceLabels(ctx, application, target, locale, reader, values);
  }
  return labels;
}

/** The rights a request asks for, checked: known data and scopes, valid periods, reading only. */
function requestedRules(application: ApplicationRow, input: RightsRequestBody): AuthorizationRules {
  const normalized = normalizeRules(application.model, input.rightsRequest ?? {}, false);
  if (!normalized.ok) throw new InvalidInput(normalized.problems[0], { problems: normalized.problems });
  const refused = unrequestableOperations(application.model, normalized.rules);
  if (refused.length) throw new Refusal('RIGHTS_REQUEST_OPERATION_NOT_ALLOWED', { ...refused[0], refused });
  if (grantsNothing(normalized.rules)) throw new Refusal('NOTHING_REQUESTED');
  return normalized.rules;
}

/** The form's values, checked like CSV cells of the same checkers; refusals name the field and its problem. */
async function checkedFields(
  ctx: ServerContext,
  application: ApplicationRow,
  input: Record<string, unknown>,
  reader: Rights,
): Promise<Record<string, string>> {
  const fields = checkRequestFields(
    application.model.rightsRequest,
    input,
    await formReferenceRows(ctx, application, application.model.rightsRequest?.fields ?? [], input, reader),
  );
  if (fields.ok) return fields.values;
  const spent = budgetProblem(fields.problems);
  if (spent) throw new Refusal('FORM_CHECK_BUDGET_EXCEEDED', { field: spent.field, ...spent.params });
  const answered = answeredProblems(fields.problems);
  const unknown = fields.problems.find((p) => p.code === 'unknownFormField');
  if (unknown) throw new Refusal('UNKNOWN_RIGHTS_REQUEST_FIELD', { field: unknown.field, ...answered });
  const [first] = fields.problems;
  throw new Refusal('INVALID_RIGHTS_REQUEST_FIELD', {
    field: first.field,
    problem: first.code,
    problemParams: first.params,
    ...answered,
  });
}

const authorizationNames: Record<MailLanguage, (login: string, day: string) => string> = {
  fr: (login, day) => `Demande de droits de ${login} (${day})`,
  en: (login, day) => `Rights request of ${login} (${day})`,
};

export interface SavedRightsRequest {
  id: string;
  created: boolean;
  status: RequestStatus;
  authorizationId: string | null;
}

/**
 * Creates (no id) or updates an open request. A manager or user manager saving with `setted` treats it: with
 * rights, an authorization for the requester is created in the same transaction as the request is marked granted
 * (refused when it gives more than the treating person may give); with none, the request is closed. When treating,
 * `comment` is the treatment's comment and what was asked stays as it was. Mails leave after the commit.
 */
export async function saveRightsRequest(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  input: RightsRequestBody,
  language: MailLanguage,
): Promise<SavedRightsRequest> {
  const comment = (input.comment ?? '').trim();
  const commentProblem = requestCommentProblem(comment);
  if (commentProblem) throw new InvalidInput(commentProblem);
  const treats = await treatsRequests(ctx, caller, application);
  const treating = input.setted === true;
  if (treating && !treats) throw new Refusal('NO_RIGHT_FOR_RIGHTS_REQUEST_TREATMENT', { name: application.name });
  // Any signed-in user may ask, and every request is checked and mailed to the managers: a few an hour each.
  if (!treating)
    await enforceRateLimit(
      ctx.db,
      `rightsrequest:${caller.id}`,
      ctx.config.rightsRequestsPerHour,
      RIGHTS_REQUESTS_WINDOW_SECONDS,
    );

  const existing =
    input.id && isUuid(input.id)
      ? await ctx.db
          .selectFrom('rights_requests as r')
          .innerJoin('users as u', 'u.id', 'r.user_id')
          .select([
            'r.id',
            'r.user_id',
            'r.setted',
            'r.language',
            'r.fields',
            'r.rules',
            'r.comment',
            'u.login',
            'u.email',
          ])
          .where('r.id', '=', input.id)
          .where('r.application_id', '=', application.id)
          .executeTakeFirst()
      : undefined;
  if (input.id && !existing) throw new Refusal('NO_SUCH_RIGHTS_REQUEST', { id: input.id });
  if (existing && existing.user_id !== caller.id && !treats)
    throw new Refusal('NO_RIGHT_FOR_RIGHTS_REQUEST', { id: existing.id });
  if (existing?.setted) throw new Refusal('RIGHTS_REQUEST_ALREADY_TREATED', { id: existing.id });

  // Treating an existing request leaves what was asked as it was, unless the form's values are sent again.
  const keepsAsked = treating && existing !== undefined;
  const fields =
    keepsAsked && input.fields === undefined
      ? existing.fields
      : await checkedFields(ctx, application, input.fields ?? {}, await rightsOf(ctx, caller, application));
  const rules = keepsAsked ? existing.rules : requestedRules(application, input);
  // A request for a place no row holds asks for nothing: refused as a grant of it would be, the asked keys of an
  // edited request excepted.
  if (!keepsAsked) await refuseUnknownScopeKeys(ctx.db, application.id, application.model, rules, existing?.rules);

  const requester = existing
    ? { id: existing.user_id, login: existing.login, email: existing.email }
    : { id: caller.id, login: caller.login, email: caller.email };
  // The requester's own saves keep the language they write in; a manager's leave it as it was.
  const requestLanguage = requester.id === caller.id ? language : asMailLanguage(existing?.language);
  const granted =
    treating && input.rightsRequest ? normalizeRules(application.model, input.rightsRequest, false) : null;
  let authorization: PreparedAuthorization | undefined;
  // Granting nothing closes the request: no authorization is made, so none that grants nothing.
  if (granted && (!granted.ok || !grantsNothing(granted.rules))) {
    authorization = await prepareAuthorization(ctx, caller, application, {
      uuid: null,
      name:
        input.rightsRequest?.name?.trim() ||
        authorizationNames[language](requester.login, new Date().toISOString().slice(0, 10)),
      description: comment,
      usersId: [requester.id],
      authorizationForAll: input.rightsRequest?.authorizationForAll,
      authorizationsWithRestriction: input.rightsRequest?.authorizationsWithRestriction,
    });
  }
  const status: RequestStatus = !treating ? 'open' : authorization ? 'granted' : 'closed';

  const id = existing?.id ?? randomUUID();
  const values = {
    comment: keepsAsked ? existing.comment : comment,
    fields: JSON.stringify(fields),
    rules: JSON.stringify(rules),
    setted: treating,
    decision: status === 'open' ? null : status,
    treatment_comment: treating ? comment : null,
    treated_by: treating ? caller.id : null,
    authorization_id: authorization?.id ?? null,
    language: requestLanguage,
  };
  const stamp = ctx.clock.now();
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      if (authorization) await writeAuthorization(trx, caller, application, authorization);
      if (!existing) {
        await trx
          .insertInto('rights_requests')
          .values({
            id,
            application_id: application.id,
            user_id: requester.id,
            ...values,
            created_at: stamp,
            updated_at: stamp,
          })
          .execute();
        return;
      }
      // Only an open request changes: two managers treating it at once cannot both grant it.
      const updated = await trx
        .updateTable('rights_requests')
        .set({ ...values, updated_at: stamp })
        .where('id', '=', id)
        .where('setted', '=', false)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new Refusal('RIGHTS_REQUEST_ALREADY_TREATED', { id });
    }),
  );

  if (status !== 'open') {
    const title = localized(
      application.model.i18n.title,
      requestLanguage,
      application.model.defaultLanguage,
      application.name,
    );
    const page =
      status === 'granted'
        ? `/applications/${application.name}`
        : `/applications/${application.name}/authorizationsRequest/${id}`;
    await mail(
      ctx,
      requester.email,
      rightsRequestMail(status, requestLanguage, {
        login: requester.login,
        application: title,
        comment,
        url: `${ctx.config.publicUrl}${page}`,
      }),
    );
  } else if (!existing) {
    await notifyManagers(ctx, caller, application, id, comment);
  }
  return { id, created: !existing, status, authorizationId: authorization?.id ?? null };
}

/** A mail that cannot leave is logged: the request itself is saved and must not be refused for it. */
async function mail(ctx: ServerContext, to: string, message: { subject: string; text: string }) {
  try {
    await ctx.mailer.send({ to, ...message });
  } catch (error) {
    ctx.log(`mail to ${to} failed: ${(error as Error).message}`);
  }
}

/**
 * Tells those who can treat a new request: the application's managers and user managers and its creator, or the
 * platform administrators when there is none. In the application's default language (nobody's language is
 * stored); a few per requester and window, so that requests cannot flood their inboxes.
 */
async function notifyManagers(
  ctx: ServerContext,
  requester: UserRow,
  application: ApplicationRow,
  id: string,
  comment: string,
) {
  const { perLogin, windowSeconds } = ctx.config.loginRateLimit;
  if (!(await hitRateLimit(ctx.db, `rightsrequestmail:${requester.id}`, perLogin, windowSeconds)).allowed) return;
  const roleHolders = await ctx.db
    .selectFrom('users as u')
    .select(['u.id', 'u.email'])
    .where('u.state', '=', 'active')
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('application_roles as r')
            .select('r.user_id')
            .whereRef('r.user_id', '=', 'u.id')
            .where('r.application_id', '=', application.id),
        ),
        ...(application.creator_id ? [eb('u.id', '=', application.creator_id)] : []),
      ]),
    )
    .execute();
  let recipients = roleHolders.filter((u) => u.id !== requester.id);
  if (recipients.length === 0) {
    recipients = (
      await ctx.db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('terrain_admin', '=', true)
        .where('state', '=', 'active')
        .execute()
    ).filter((u) => u.id !== requester.id);
  }
  const language = asMailLanguage(application.model.defaultLanguage);
  const title = localized(application.model.i18n.title, language, application.model.defaultLanguage, application.name);
  const message = rightsRequestMail('created', language, {
    login: requester.login,
    application: title,
    comment,
    url: `${ctx.config.publicUrl}/applications/${application.name}/authorizationsRequest/${id}`,
  });
  for (const recipient of recipients) await mail(ctx, recipient.email, message);
}

/**
 * The `params` JSON of the list (absent or the text `undefined` = everything); a malformed one is a 400. The
 * original filters a request field by an interval (`intervalValues`); the list does not, and answered every request
 * as if none were asked: such a filter is refused.
 */
export function readRequestQuery(text: string | undefined): RightsRequestQuery {
  const reading = readJsonParameter(RightsRequestQuerySchema, text);
  if (!reading.ok) throw new Refusal('BAD_REQUEST', { parameter: 'params' });
  const query = reading.value ?? {};
  for (const filter of query.fieldFilters ?? []) {
    const interval = (filter as { intervalValues?: unknown }).intervalValues;
    if (interval !== undefined && interval !== null)
      throw new Refusal('UNSUPPORTED_PARAMETER', { parameter: 'fieldFilters[].intervalValues' });
  }
  return query;
}
