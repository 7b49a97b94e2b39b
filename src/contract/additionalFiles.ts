import { Type, type Static } from 'typebox';
import type { Associates } from '../domain/additionalFiles/associates.ts';
import type { FileOperation, FileRights } from '../domain/additionalFiles/authorization.ts';
import { MAX_FILES_PAGE, type FieldFilter } from '../domain/additionalFiles/filesQuery.ts';
import { EmailShownSchema } from './accounts.ts';
import { ReferenceScopesSchema } from './authorizations.ts';
import { FormFieldSchema, I18nTextsSchema } from './forms.ts';

/** Payloads of the additional-file routes. */
export const FileOperationSchema = Type.Union([
  Type.Literal('admin'),
  Type.Literal('depot'),
  Type.Literal('extraction'),
  Type.Literal('delete'),
]);
const closed = { additionalProperties: false } as const;

/** The caller's operations on one file type. */
export const TypeRightsSchema = Type.Object(
  { admin: Type.Boolean(), depot: Type.Boolean(), extraction: Type.Boolean(), delete: Type.Boolean() },
  closed,
);
export type TypeRights = Static<typeof TypeRightsSchema>;

/** Operation → file types. */
export const FileRightsSchema = Type.Object(
  {
    admin: Type.Optional(Type.Array(Type.String())),
    depot: Type.Optional(Type.Array(Type.String())),
    extraction: Type.Optional(Type.Array(Type.String())),
    delete: Type.Optional(Type.Array(Type.String())),
  },
  closed,
);

const FormSchema = Type.Object({ i18n: I18nTextsSchema, fields: Type.Array(FormFieldSchema) }, closed);
const FieldChoicesSchema = Type.Record(
  Type.String(),
  Type.Array(Type.Object({ naturalKey: Type.String(), label: Type.String() }, closed)),
  {
    description:
      'form field checked against a reference → its rows, when the reference has at most 1,000 (MAX_FIELD_CHOICES); beyond, the field is absent and takes a row’s code',
  },
);
const ValueLabelsSchema = Type.Record(
  Type.String(),
  Type.Array(Type.Object({ naturalKey: Type.String(), label: Type.String() }, closed)),
  {
    description:
      'form field whose reference is too large to offer as choices → the labels of the values the answer’s files hold',
  },
);
export type FieldChoices = Static<typeof FieldChoicesSchema>;

export const FileTypeSummarySchema = Type.Object(
  {
    name: Type.String(),
    i18n: I18nTextsSchema,
    fields: Type.Array(FormFieldSchema),
    count: Type.Integer(),
    rights: TypeRightsSchema,
  },
  closed,
);
export type FileTypeSummary = Static<typeof FileTypeSummarySchema>;

export const FilesOverviewSchema = Type.Object(
  {
    fileNames: Type.Array(Type.String()),
    additionalFileTypes: Type.Array(FileTypeSummarySchema),
    isAdministrator: Type.Boolean(),
    managesFileRights: Type.Boolean({ description: 'the caller may open the additional-file authorizations' }),
    referenceScopes: Type.Optional(ReferenceScopesSchema),
  },
  {
    ...closed,
    description:
      'Without `params`; with a selection, the answer is additionalFile.zip (or the charter’s PDF), not JSON.',
  },
);
export type FilesOverview = Static<typeof FilesOverviewSchema>;

const AssociatesSchema = Type.Record(
  Type.String(),
  Type.Object({ scopes: Type.Record(Type.String(), Type.Array(Type.String())) }, closed),
  {
    description: 'data → scope component → hierarchical keys the file is about',
  },
);

/** An additional file as lists and forms show it, without its bytes. */
export const AdditionalFileSchema = Type.Object(
  {
    id: Type.String(),
    fileType: Type.String(),
    fileName: Type.String(),
    size: Type.Number(),
    contentType: Type.String(),
    comment: Type.String(),
    user: Type.Union([Type.String(), Type.Null()], { description: 'the owner’s id' }),
    ownerLogin: Type.Union([Type.String(), Type.Null()]),
    updatedByLogin: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'who last changed the file (bytes, name or form); null when not known (saved before it was kept)',
      }),
    ),
    originalOwner: Type.Union([Type.String(), Type.Null()], {
      description: 'a restored file’s owner in the application backed up (the restorer is the owner)',
    }),
    createDate: Type.String({ format: 'date-time' }),
    updateDate: Type.String({ format: 'date-time' }),
    forApplication: Type.Boolean(),
    associates: AssociatesSchema,
    additionalBinaryFileForm: Type.Record(Type.String(), Type.String(), {
      description: 'values of the type’s form fields',
    }),
    mayEdit: Type.Boolean(),
    mayDelete: Type.Boolean(),
  },
  closed,
);
export type AdditionalFile = Static<typeof AdditionalFileSchema>;

/** One type's files, filtered and paged. */
export const FilesPageSchema = Type.Object(
  {
    additionalFileName: Type.String(),
    description: FormSchema,
    fieldChoices: FieldChoicesSchema,
    valueLabels: ValueLabelsSchema,
    users: Type.Array(Type.Object({ id: Type.String(), label: Type.String() }, closed), {
      description: 'the owners of the page’s files',
    }),
    additionalBinaryFiles: Type.Array(AdditionalFileSchema),
    fileNames: Type.Array(Type.String(), { description: 'every name the type holds' }),
    totalCount: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Union([Type.Integer(), Type.Null()]),
    rights: TypeRightsSchema,
  },
  closed,
);
export type FilesPage = Static<typeof FilesPageSchema>;

/** One file with its type's form. */
export const AdditionalFileDetailSchema = Type.Object(
  {
    ...AdditionalFileSchema.properties,
    format: FormSchema,
    fieldChoices: FieldChoicesSchema,
    valueLabels: ValueLabelsSchema,
  },
  closed,
);
export type AdditionalFileDetail = Static<typeof AdditionalFileDetailSchema>;

const UserSchema = Type.Object(
  { id: Type.String(), login: Type.String(), email: Type.Optional(EmailShownSchema) },
  closed,
);

export const FileAuthorizationSchema = Type.Object(
  {
    uuid: Type.String(),
    name: Type.String(),
    users: Type.Array(UserSchema),
    additionalFiles: FileRightsSchema,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  closed,
);
export type FileAuthorization = Static<typeof FileAuthorizationSchema>;

export const FileAuthorizationsSchema = Type.Object(
  {
    authorizationResults: Type.Array(FileAuthorizationSchema),
    users: Type.Array(UserSchema, { description: 'the users one may choose' }),
    authorizationsForUser: Type.Object(
      { isAdministrator: Type.Boolean(), userManager: Type.Boolean(), adminTypes: Type.Array(Type.String()) },
      closed,
    ),
  },
  closed,
);
export type FileAuthorizations = Static<typeof FileAuthorizationsSchema>;

/** The additional-file rights of one user. */
export const UserFileRightsSchema = Type.Object(
  { userId: Type.String(), login: Type.String(), isAdministrator: Type.Boolean(), additionalFiles: FileRightsSchema },
  closed,
);
export type UserFileRights = Static<typeof UserFileRightsSchema>;

/** Requests of the additional-file routes. */
export const FileTypeParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  fileType: Type.String({ maxLength: 300 }),
});
export const FileParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  fileType: Type.String({ maxLength: 300 }),
  id: Type.String({ maxLength: 100 }),
});
export const UserFileRightsParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  user: Type.String({ maxLength: 200 }),
});

const NullableText = Type.Union([Type.String(), Type.Null()]);

const FieldFilterSchema = Type.Object({
  field: Type.String(),
  filter: Type.Optional(NullableText),
  isRegExp: Type.Optional(Type.Boolean()),
  intervalValues: Type.Optional(
    Type.Union([Type.Object({ from: Type.Optional(NullableText), to: Type.Optional(NullableText) }), Type.Null()]),
  ),
  format: Type.Optional(NullableText),
});

/**
 * The selection a list, a zip or a deletion works on (the original's AdditionalFilesInfos), sent as JSON in the
 * query's `params`. readFilesQuery reads it on the server, with a refusal that names the part out of shape.
 */
export const FilesSelectionSchema = Type.Object({
  uuids: Type.Optional(Type.Array(Type.String())),
  fileNames: Type.Optional(Type.Array(Type.String())),
  filetype: Type.Optional(NullableText),
  additionalFilesInfos: Type.Optional(
    Type.Record(Type.String(), Type.Object({ fieldFilters: Type.Array(FieldFilterSchema) })),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_FILES_PAGE }), Type.Null()])),
});
export type FilesSelection = Static<typeof FilesSelectionSchema>;

/** FilesSelectionSchema as the query carries it. */
const SelectionText = Type.String({
  maxLength: 100_000,
  description:
    'JSON AdditionalFilesInfos: {uuids: [id], fileNames: [name], filetype, additionalFilesInfos: {<type>: {fieldFilters: [{field, filter, isRegExp, intervalValues: {from, to}, format}]}}, offset, limit}',
});
/** The original's G3 names the selection after its Java argument: `additionalFilesInfos` is read as `params`. */
const SelectionAlias = Type.String({
  maxLength: 100_000,
  description: 'The selection under the name the original’s G3 gives it; when `params` is given too, it must be equal.',
});
export const FilesOverviewQuerySchema = Type.Object({
  params: Type.Optional(SelectionText),
  additionalFilesInfos: Type.Optional(SelectionAlias),
  grantable: Type.Optional(Type.Boolean()),
});
export const FilesDeletionQuerySchema = Type.Object({
  params: Type.Optional(SelectionText),
  additionalFilesInfos: Type.Optional(SelectionAlias),
});
export const FilesPageQuerySchema = Type.Object({
  params: Type.Optional(SelectionText),
  additionalFilesInfos: Type.Optional(SelectionAlias),
});

/**
 * The JSON of the upload form's `params` (the original's CreateAdditionalFileRequest). Read in this order, the
 * first part out of shape names the refusal. The form values and the associates are checked against the
 * application's model afterwards, each with its own refusal, so their shape is left open here.
 */
export const FileSaveParamsSchema = Type.Object({
  fields: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  forApplication: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  id: Type.Optional(NullableText),
  fileType: Type.Optional(NullableText),
  fileName: Type.Optional(NullableText),
  comment: Type.Optional(NullableText),
  associates: Type.Optional(Type.Unknown()),
});
export type FileSaveParams = Static<typeof FileSaveParamsSchema>;

export const FileAuthorizationsQuerySchema = Type.Object({
  authorizationId: Type.Optional(Type.String({ maxLength: 100 })),
  userId: Type.Optional(Type.String({ maxLength: 200 })),
});

export const FileAuthorizationSaveSchema = Type.Object(
  {
    uuid: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    name: Type.String({ maxLength: 200 }),
    usersId: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 10_000 }),
    applicationNameOrId: Type.Optional(Type.String({ maxLength: 100 })),
    // Any operation name is let through: normalizeFileAuthorization refuses the unknown ones with their name.
    additionalFiles: Type.Record(
      Type.String({ maxLength: 40 }),
      Type.Array(Type.String({ maxLength: 300 }), { maxItems: 1000 }),
    ),
  },
  {
    description:
      'additionalFiles: operation (admin, depot, extraction, delete) → file types; delete brings depot and extraction.',
  },
);
export type FileAuthorizationSave = Static<typeof FileAuthorizationSaveSchema>;

export const FileAuthorizationIdSchema = Type.Object({ authorizationId: Type.String() }, closed);

/** What saving a file answers, 201 when it was created. */
export const FileSavedSchema = Type.Object({ id: Type.String(), fileName: Type.String() }, closed);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameOperation: Same<Static<typeof FileOperationSchema>, FileOperation> = true;
const sameRights: Same<Static<typeof FileRightsSchema>, FileRights> = true;
const sameAssociates: Same<Static<typeof AssociatesSchema>, Associates> = true;
const sameFieldFilter: Same<Static<typeof FieldFilterSchema>, FieldFilter> = true;
void sameOperation;
void sameRights;
void sameAssociates;
void sameFieldFilter;
