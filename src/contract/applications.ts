import { Type, type Static } from 'typebox';
import {
  APPLICATION_PARTS,
  type ApplicationView as DomainApplicationView,
} from '../domain/applications/applicationView.ts';
import {
  BREAKING_CHANGE_CODES,
  CHECKER_TIGHTENINGS,
  IMPACT_CHANGES,
  type DataLossSummary,
} from '../domain/applications/updateImpact.ts';
import { LocaleTextSchema } from './forms.ts';
import { ApplicationModelSchema, ApplicationOutlineSchema } from './configuration.ts';

const closed = { additionalProperties: false } as const;

const ApplicationPartSchema = Type.Union(APPLICATION_PARTS.map((part) => Type.Literal(part)));

/** The parts of each application to include: `filter` repeated in the query string arrives as a list. */
export const ApplicationPartsQuerySchema = Type.Object({
  filter: Type.Optional(
    Type.Union([Type.Array(ApplicationPartSchema), ApplicationPartSchema], {
      description: 'Parts of each application to include (repeatable).',
    }),
  ),
});
export type ApplicationPartsQuery = Static<typeof ApplicationPartsQuerySchema>;

/** The query of a configuration upload; the form's `comment` field, when sent, wins. */
export const ConfigurationUploadQuerySchema = Type.Object({
  comment: Type.Optional(Type.String({ maxLength: 1000 })),
  dryRun: Type.Optional(
    Type.Boolean({
      description:
        'Update only: validate and report the impact on stored data (the result) without writing anything. Also read from a `dryRun` form field.',
    }),
  ),
  confirmDataLoss: Type.Optional(
    Type.Boolean({
      description:
        'Update only: apply an update that deletes stored values or rows (refused with UPDATE_LOSES_DATA otherwise). Also read from a `confirmDataLoss` form field.',
    }),
  ),
});

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

const ImpactItemSchema = Type.Object(
  {
    change: literals(IMPACT_CHANGES),
    severity: literals(['forbidden', 'dataLoss', 'info'] as const),
    code: Type.Optional(literals(BREAKING_CHANGE_CODES)),
    component: Type.Optional(Type.String()),
    rows: Type.Optional(Type.Integer({ description: 'Rows deleted, or whose value of the component is deleted.' })),
    before: Type.Optional(Type.Array(Type.String())),
    after: Type.Optional(Type.Array(Type.String())),
    tightened: Type.Optional(Type.Array(literals(CHECKER_TIGHTENINGS))),
    required: Type.Optional(Type.Boolean()),
  },
  closed,
);

/** The impact of a configuration update on the data already stored, entry by entry. */
export const UpdateImpactSchema = Type.Object(
  {
    entries: Type.Array(
      Type.Object(
        {
          dataName: Type.String(),
          kind: literals(['reference', 'dataType'] as const),
          rows: Type.Integer({ description: 'Rows stored before the update.' }),
          items: Type.Array(ImpactItemSchema),
          needsRecheck: Type.Boolean(),
          revalidation: Type.Optional(
            Type.Object(
              {
                checkedRows: Type.Integer(),
                failingRows: Type.Integer({ description: 'Stored rows the new configuration would refuse.' }),
                complete: Type.Boolean({ description: 'False when only the first checkedRows were checked.' }),
                examples: Type.Array(
                  Type.Object(
                    { naturalKey: Type.String(), code: Type.String(), column: Type.Optional(Type.String()) },
                    closed,
                  ),
                ),
              },
              closed,
            ),
          ),
        },
        closed,
      ),
    ),
  },
  closed,
);

/** The `result` event of a configuration update: the report of a dry run, or the version stored. */
export const ConfigurationUpdateResultSchema = Type.Union([
  Type.Object({ dryRun: Type.Literal(true), impact: UpdateImpactSchema }, closed),
  Type.Object({ id: Type.String(), name: Type.String(), version: Type.String(), impact: UpdateImpactSchema }, closed),
]);
export type ConfigurationUpdateResult = Static<typeof ConfigurationUpdateResultSchema>;

/** Which stored version of the configuration file to download (the current one without). */
export const ConfigurationFileQuerySchema = Type.Object({
  version: Type.Optional(Type.String({ maxLength: 100 })),
});

const UserRolesSchema = Type.Object(
  {
    applicationRoles: Type.Array(Type.Union([Type.Literal('applicationManager'), Type.Literal('userManager')])),
    userId: Type.String(),
    userLogin: Type.String(),
    isTerrainAdmin: Type.Boolean(),
    isApplicationCreator: Type.Boolean({ description: 'A creator pattern of the user matches the name.' }),
    memberOf: Type.Array(Type.String()),
    isDataBaseSuper: Type.Boolean(),
  },
  closed,
);

/** One application as the caller sees it; the optional fields answer the parts asked for (`filter`). */
export const ApplicationViewSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.String(),
    comment: Type.String(),
    creationDate: Type.String({ description: 'ISO date-time.' }),
    updateDate: Type.String({ description: 'ISO date-time; the creation date until the first update.' }),
    title: LocaleTextSchema,
    description: LocaleTextSchema,
    defaultLanguage: Type.String(),
    references: Type.Optional(Type.Array(Type.String())),
    dataTypes: Type.Optional(Type.Array(Type.String())),
    additionalFiles: Type.Optional(Type.Array(Type.String())),
    hasRightsRequest: Type.Optional(Type.Boolean()),
    configuration: Type.Optional(ApplicationModelSchema),
    outline: Type.Optional(ApplicationOutlineSchema),
    versions: Type.Optional(
      Type.Array(Type.Object({ version: Type.String(), uploadedAt: Type.String(), comment: Type.String() }, closed), {
        description: 'Newest first.',
      }),
    ),
    currentApplicationUserRolesResult: UserRolesSchema,
    hasSignedCharte: Type.Boolean(),
    hasSignedLastCharte: Type.Boolean(),
    hasCharter: Type.Boolean(),
    charterUploadedAt: Type.Optional(Type.String()),
    mustSignCharter: Type.Boolean(),
    isMember: Type.Boolean(),
    isAdministrator: Type.Boolean(),
    lineCounts: Type.Optional(Type.Record(Type.String(), Type.Integer())),
    entryVersions: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), {
        description: 'write version of each entry the user may read rows of; it moves with every write to them',
      }),
    ),
    canReadReference: Type.Boolean(),
    canWriteReference: Type.Boolean(),
    canReadDatatype: Type.Boolean(),
    canWriteDatatype: Type.Boolean(),
  },
  closed,
);
export type ApplicationView = Static<typeof ApplicationViewSchema>;

// The services build the domain's view: the compiler keeps the schema equal to it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameView: Same<ApplicationView, DomainApplicationView> = true;
void sameView;

/**
 * The `confirmedLoss` form field of a configuration update (JSON): the loss a dry run summed up and the person
 * confirmed. The server deletes nothing else.
 */
export const ConfirmedLossSchema = Type.Object(
  {
    entries: Type.Array(Type.String()),
    rows: Type.Integer({ minimum: 0 }),
    components: Type.Array(Type.String()),
    values: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
const sameLoss: Same<Static<typeof ConfirmedLossSchema>, DataLossSummary> = true;
void sameLoss;
