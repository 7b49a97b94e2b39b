import { Type, type Static } from 'typebox';
import type { RequestedEntry, RequestStatus } from '../domain/rights/rightsRequest.ts';
import {
  OperationColumnSchema,
  OperationSchema,
  ReferenceScopesSchema,
  RestrictionSchema,
  AuthorizationRulesSchema,
} from './authorizations.ts';
import { RightsRequestFormSchema } from './forms.ts';

/** Payloads of the rights-request routes. */
export const RightsRequestListQuerySchema = Type.Object({
  params: Type.Optional(
    Type.String({
      maxLength: 20_000,
      description:
        'JSON: {uuids: [id], setted: null|true|false, fieldFilters: [{field, filter, isRegExp}], search, offset, limit}. A field filter by interval (the original’s intervalValues) is refused: 400 UNSUPPORTED_PARAMETER.',
    }),
  ),
});

const Absent = Type.Null();
const Count = Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Absent]);

/**
 * The JSON of `params` in the list's query (api.md §13.2 RightsRequestInfos, plus `search`): checked by the server
 * against this schema, since the route's query schema sees only a string. null, like absent, means no filter.
 */
export const RightsRequestQuerySchema = Type.Object({
  uuids: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 }), Absent])),
  setted: Type.Optional(Type.Union([Type.Boolean(), Absent])),
  fieldFilters: Type.Optional(
    Type.Union([
      Type.Array(
        Type.Object({
          field: Type.String({ maxLength: 256 }),
          filter: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Absent])),
          isRegExp: Type.Optional(Type.Union([Type.Boolean(), Absent])),
        }),
        { maxItems: 100 },
      ),
      Absent,
    ]),
  ),
  search: Type.Optional(
    Type.Union([
      Type.String({ maxLength: 2000, description: "Part of the requester's login or e-mail, or of the comment." }),
      Absent,
    ]),
  ),
  offset: Type.Optional(Count),
  limit: Type.Optional(Count),
});
export type RightsRequestQuery = Static<typeof RightsRequestQuerySchema>;

export const RightsRequestBodySchema = Type.Object(
  {
    id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    fields: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 256 }),
        Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean(), Type.Null()]),
      ),
    ),
    rightsRequest: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object({
          name: Type.Optional(Type.String({ maxLength: 200 })),
          authorizationForAll: Type.Optional(
            Type.Record(Type.String(), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
          ),
          authorizationsWithRestriction: Type.Optional(
            Type.Record(
              Type.String(),
              Type.Union([RestrictionSchema, Type.Array(RestrictionSchema, { maxItems: 1000 })]),
            ),
          ),
        }),
      ]),
    ),
    setted: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    comment: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  },
  {
    description:
      'id null creates a request for the caller, an id updates an open one (its requester, or a manager). fields: values of OA_rightsRequest’s form; ' +
      'rightsRequest: the rights asked for, as an authorization (reading only); comment: 3 to 255 characters. A manager or user manager ' +
      'sending setted: true treats it: with rights (and optionally the authorization’s name), an authorization is created for the requester ' +
      'within what the manager may give; with none, the request is closed. comment is then the treatment’s comment.',
  },
);
export type RightsRequestBody = Static<typeof RightsRequestBodySchema>;

export const RequestStatusSchema = Type.Union([Type.Literal('open'), Type.Literal('granted'), Type.Literal('closed')]);

export const RightsRequestSavedSchema = Type.Object(
  { id: Type.String(), status: RequestStatusSchema, authorizationId: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

const RequestedEntrySchema = Type.Object(
  {
    operationTypes: Type.Array(OperationSchema),
    requiredAuthorizations: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'scope component → hierarchical keys; empty for the whole entry',
    }),
    fromDay: Type.Union([Type.String(), Type.Null()]),
    toDay: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

/** One rights request as the list gives it (the original's RightsRequestResult). */
export const RightsRequestViewSchema = Type.Object(
  {
    id: Type.String(),
    application: Type.String(),
    user: Type.String(),
    userLogin: Type.String(),
    userEmail: Type.String(),
    createDate: Type.String({ format: 'date-time' }),
    updateDate: Type.String({ format: 'date-time' }),
    comment: Type.String(),
    rightsRequestForm: Type.Record(Type.String(), Type.String(), { description: 'form field → value' }),
    rightsRequest: Type.Record(Type.String(), Type.Array(RequestedEntrySchema), {
      description: 'data → rights asked for',
    }),
    setted: Type.Boolean(),
    status: RequestStatusSchema,
    treatedBy: Type.Union([Type.String(), Type.Null()]),
    treatedByLogin: Type.Union([Type.String(), Type.Null()]),
    treatmentDecision: Type.Union([Type.Literal('APPROVED'), Type.Literal('REJECTED'), Type.Null()]),
    treatmentComment: Type.Union([Type.String(), Type.Null()]),
    linkedAuthorizationIds: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type RightsRequestView = Static<typeof RightsRequestViewSchema>;

export const RightsRequestListSchema = Type.Object(
  {
    users: Type.Array(Type.Object({ id: Type.String(), label: Type.String() }, { additionalProperties: false }), {
      description: 'the requesters of the page',
    }),
    total: Type.Integer(),
    rightsRequests: Type.Array(RightsRequestViewSchema),
    description: Type.Union([RightsRequestFormSchema, Type.Null()], {
      description: 'the application’s OA_rightsRequest form',
    }),
    valueLabels: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(Type.Object({ naturalKey: Type.String(), label: Type.String() }, { additionalProperties: false })),
        {
          description:
            'form field checked against a reference → the values the page’s requests hold (as stored) with the label of the row each designates, whatever the reference’s size (Terrain’s addition)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RightsRequestList = Static<typeof RightsRequestListSchema>;

/** What the request and grant screens need: scope trees, columns, choices of reference fields, the caller's rights. */
export const RequestOptionsSchema = Type.Object(
  {
    referenceScopes: ReferenceScopesSchema,
    columnsDescription: Type.Record(Type.String(), Type.Array(OperationColumnSchema)),
    fieldChoices: Type.Record(
      Type.String(),
      Type.Array(Type.Object({ naturalKey: Type.String(), label: Type.String() }, { additionalProperties: false })),
      {
        description:
          'form field checked against a reference → its rows, when the reference has at most 1,000 (MAX_FIELD_CHOICES); beyond, the field is absent and takes a row’s code',
      },
    ),
    authorizationsForUser: Type.Object(
      { isAdministrator: Type.Boolean(), treatsRequests: Type.Boolean(), rules: Type.Array(AuthorizationRulesSchema) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type RequestOptions = Static<typeof RequestOptionsSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameStatus: Same<Static<typeof RequestStatusSchema>, RequestStatus> = true;
const sameEntry: Same<Static<typeof RequestedEntrySchema>, RequestedEntry> = true;
void sameStatus;
void sameEntry;
