import { Type, type Static } from 'typebox';
import {
  APPLICATION_PARTS,
  type ApplicationView as DomainApplicationView,
} from '../domain/applications/applicationView.ts';
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
});

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
