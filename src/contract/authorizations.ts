import { Type, type Static } from 'typebox';
import type { AuthorizationRules, Grant } from '../domain/rights/authorization.ts';
import type { Operation, OperationColumn } from '../domain/rights/operations.ts';
import { AccountStateSchema, EmailShownSchema } from './accounts.ts';

/** Payloads of the authorization routes. Schemas that mirror a type of src/domain are kept equal to it below. */
export const OperationSchema = Type.Union([
  Type.Literal('depot'),
  Type.Literal('publication'),
  Type.Literal('delete'),
  Type.Literal('extraction'),
  Type.Literal('admin'),
]);

export const NameParamsSchema = Type.Object({ name: Type.String({ maxLength: 100 }) });
export const AuthorizationParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  id: Type.String({ maxLength: 100 }),
});

export const RestrictionSchema = Type.Object(
  {
    operationTypes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
    requiredAuthorizations: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([
          Type.String({ maxLength: 2000 }),
          Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 5000 }),
        ]),
      ),
    ),
    timeScope: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object({
          format: Type.Optional(
            Type.Union([
              Type.String({
                maxLength: 100,
                description: 'The Java date pattern fromDay and toDay are written in (dd/MM/yyyy, MM/dd/yyyy…).',
              }),
              Type.Null(),
            ]),
          ),
          fromDay: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          toDay: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        }),
      ]),
    ),
    fromDay: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    toDay: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);

export const AuthorizationBodySchema = Type.Object(
  {
    uuid: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
    name: Type.String({ maxLength: 200 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    usersId: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 10_000 }),
    authorizationForAll: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
    ),
    authorizationsWithRestriction: Type.Optional(
      Type.Record(Type.String(), Type.Union([RestrictionSchema, Type.Array(RestrictionSchema, { maxItems: 1000 })])),
    ),
  },
  {
    description:
      'uuid null creates, a uuid updates. usersId holds user ids or logins, or "_public_" for a public authorization (reading only). ' +
      'authorizationForAll: data → operations on every row; authorizationsWithRestriction: data → {operationTypes, requiredAuthorizations: {scope component: [hierarchical keys]}, timeScope: {fromDay, toDay}}.',
  },
);

/** The id of an authorization written or revoked. */
export const AuthorizationIdSchema = Type.Object({ authorizationId: Type.String() }, { additionalProperties: false });

const GrantSchema = Type.Object(
  {
    operations: Type.Array(OperationSchema),
    scopes: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'scope component → hierarchical keys whose sub-trees are granted',
    }),
    from: Type.Union([Type.String(), Type.Null()]),
    to: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export const AuthorizationRulesSchema = Type.Object(
  {
    forAll: Type.Record(Type.String(), Type.Array(OperationSchema)),
    restricted: Type.Record(Type.String(), Type.Array(GrantSchema)),
  },
  { additionalProperties: false },
);

export const AuthorizationViewSchema = Type.Object(
  {
    uuid: Type.String(),
    name: Type.String(),
    description: Type.String(),
    isPublic: Type.Boolean(),
    users: Type.Array(
      Type.Object(
        { id: Type.String(), login: Type.String(), email: Type.Optional(EmailShownSchema) },
        { additionalProperties: false },
      ),
    ),
    authorizationForAll: Type.Record(Type.String(), Type.Array(OperationSchema)),
    authorizationsWithRestriction: Type.Record(
      Type.String(),
      Type.Array(
        Type.Object(
          {
            operationTypes: Type.Array(OperationSchema),
            requiredAuthorizations: Type.Record(Type.String(), Type.Array(Type.String())),
            fromDay: Type.Union([Type.String(), Type.Null()]),
            toDay: Type.Union([Type.String(), Type.Null()]),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type AuthorizationView = Static<typeof AuthorizationViewSchema>;

export const AuthorizationListSchema = Type.Object(
  {
    authorizationResults: Type.Array(AuthorizationViewSchema),
    authorizationsForUser: Type.Object(
      { isAdministrator: Type.Boolean(), userManager: Type.Boolean() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AuthorizationList = Static<typeof AuthorizationListSchema>;

/** A row of a scope reference in its tree: a row's parent is the longest key that prefixes its own. */
export const ScopeNodeSchema = Type.Cyclic(
  {
    ScopeNode: Type.Object(
      {
        id: Type.String({ description: 'hierarchical key' }),
        naturalKey: Type.String(),
        label: Type.String(),
        children: Type.Array(Type.Ref('ScopeNode')),
        childCount: Type.Optional(
          Type.Integer({
            minimum: 0,
            description:
              'In a tree sent a level at a time: the node’s children, whose pages /scopeNodes gives (children is then empty).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  'ScopeNode',
);
export type ScopeNode = Static<typeof ScopeNodeSchema>;

/** Per data entry, the trees of the references that scope its rights, with row labels in the caller's language. */
export const ReferenceScopesSchema = Type.Record(
  Type.String(),
  Type.Array(
    Type.Object(
      {
        id: Type.String({ description: 'the scope component' }),
        reference: Type.String(),
        i18n: Type.Record(Type.String(), Type.String()),
        label: Type.String(),
        nodes: Type.Array(ScopeNodeSchema),
        rootCount: Type.Optional(
          Type.Integer({
            minimum: 0,
            description:
              'Present when the tree is larger than SCOPE_TREE_WHOLE_MAX rows: nodes is then the first page of its first level, ' +
              'rootCount the nodes of that level, and /scopeNodes gives the others, the children and a search.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ),
);
export type ReferenceScopes = Static<typeof ReferenceScopesSchema>;

/** A scope tree of at most this many rows is sent whole; a larger one a level and a page at a time. */
export const SCOPE_TREE_WHOLE_MAX = 2_000;
/** Nodes of a page of a large scope tree (first level, children of a node): the parts a tree shows at a time. */
export const SCOPE_NODES_PAGE = 100;
/** Nodes a search of a large scope tree answers at most. */
export const SCOPE_NODES_FOUND_MAX = 20;

/** Which answer a page of a large scope tree complements, and so who may read it. */
export const ScopeTreeUseSchema = Type.Union([Type.Literal('grant'), Type.Literal('request'), Type.Literal('files')], {
  description:
    'grant: the grant screen (managers and user managers); request: the rights-request form (signed-in users who ' +
    'accepted the charter); files: the association panel of additional files (their readers).',
});
export type ScopeTreeUse = Static<typeof ScopeTreeUseSchema>;

export const ScopeNodesParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  reference: Type.String({ maxLength: 100 }),
});

export const ScopeNodesQuerySchema = Type.Object(
  {
    use: ScopeTreeUseSchema,
    parent: Type.Optional(
      Type.String({
        maxLength: 2000,
        pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$',
        description: 'Hierarchical key of the node whose children are asked; without it, the first level.',
      }),
    ),
    after: Type.Optional(
      Type.String({
        maxLength: 2000,
        pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$',
        description:
          'Hierarchical key of the last node of the previous page: the page begins after it (the next page, read by the index from there).',
      }),
    ),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 10_000_000,
        default: 0,
        description:
          'Nodes skipped (after `after`, when given): kept for older clients; a deep offset reads every node it skips.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SCOPE_NODES_PAGE, default: SCOPE_NODES_PAGE })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'A search instead of a page: nodes for which each word typed begins a word of their label or code, or of a row above them (case and accents ignored), at most SCOPE_NODES_FOUND_MAX.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScopeNodesQuery = Static<typeof ScopeNodesQuerySchema>;

/** A node of a page or of a search, with the labels of the rows above it when found by a search. */
export const ScopeNodesPageSchema = Type.Object(
  {
    nodes: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'hierarchical key' }),
          naturalKey: Type.String(),
          label: Type.String(),
          children: Type.Array(Type.Never(), { maxItems: 0 }),
          childCount: Type.Integer({ minimum: 0 }),
          path: Type.Optional(Type.Array(Type.String(), { description: 'labels of the rows above, from the top' })),
        },
        { additionalProperties: false },
      ),
    ),
    total: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'nodes under the parent (a page), or found (a search); absent from a page asked `after` a node: the level’s size came with its first page, and counting it again would read the whole level for each page',
      }),
    ),
    more: Type.Boolean({ description: 'a search found more than it answers' }),
  },
  { additionalProperties: false },
);
export type ScopeNodesPage = Static<typeof ScopeNodesPageSchema>;

export const OperationColumnSchema = Type.Object(
  { operation: OperationSchema, withPeriods: Type.Boolean(), forPublic: Type.Boolean(), forRequest: Type.Boolean() },
  { additionalProperties: false },
);

export const GrantableSchema = Type.Object(
  {
    users: Type.Array(
      Type.Object(
        { id: Type.String(), label: Type.String(), login: Type.String(), email: Type.Optional(EmailShownSchema) },
        { additionalProperties: false },
      ),
    ),
    referenceScopes: ReferenceScopesSchema,
    columnsDescription: Type.Record(Type.String(), Type.Array(OperationColumnSchema)),
    authorizationsForUser: Type.Object(
      {
        isAdministrator: Type.Boolean(),
        rules: Type.Array(AuthorizationRulesSchema, {
          description: 'The caller’s own rules when they do not manage the application (what they may give away).',
        }),
      },
      { additionalProperties: false },
    ),
    publicAuthorizations: Type.Array(AuthorizationViewSchema),
  },
  { additionalProperties: false },
);
export type Grantable = Static<typeof GrantableSchema>;

/** A user of the platform with their roles on the application (the manager and user-manager table). */
export const ApplicationUserSchema = Type.Object(
  {
    applicationName: Type.String(),
    id: Type.String(),
    login: Type.String(),
    email: Type.Optional(EmailShownSchema),
    state: AccountStateSchema,
    applicationManager: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'null for a user manager, who does not see who the managers are',
    }),
    userManager: Type.Boolean(),
    isApplicationUser: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ApplicationUser = Static<typeof ApplicationUserSchema>;

const Extent = Type.Union([Type.Literal('all'), Type.Literal('some'), Type.Literal('none')]);
export type RightExtent = Static<typeof Extent>;

/** The caller's own rights: per data entry and operation, on all its rows, some or none. */
export const OwnRightsSchema = Type.Object(
  {
    isAdministrator: Type.Boolean(),
    data: Type.Record(
      Type.String(),
      Type.Object(
        { depot: Extent, publication: Extent, delete: Extent, extraction: Extent, admin: Extent },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type OwnRights = Static<typeof OwnRightsSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameOperation: Same<Static<typeof OperationSchema>, Operation> = true;
const sameGrant: Same<Static<typeof GrantSchema>, Grant> = true;
const sameRules: Same<Static<typeof AuthorizationRulesSchema>, AuthorizationRules> = true;
const sameColumn: Same<Static<typeof OperationColumnSchema>, OperationColumn> = true;
void sameOperation;
void sameGrant;
void sameRules;
void sameColumn;
