import { Type, type Static } from 'typebox';

const ScopeValues = Type.Record(Type.String({ maxLength: 200 }), Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 100 })]));
/** `yyyy-MM-dd`, `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-ddTHH:mm:ss`; checked as a date by the service. */
const DateTimeText = Type.String({ maxLength: 40 });

/** The dataset of a versioned deposit: its scope (component or reference → value) and period. */
export const BinaryFileDatasetSchema = Type.Object({
  datatype: Type.Optional(Type.String({ maxLength: 100 })),
  requiredAuthorizations: Type.Optional(ScopeValues),
  from: Type.Optional(DateTimeText),
  to: Type.Optional(DateTimeText),
  comment: Type.Optional(Type.String({ maxLength: 10_000 })),
});

/** What a depositor sends with a file, or alone to publish (the original's FileOrUUID, field `params`). */
export const DepositParamsSchema = Type.Object({
  fileid: Type.Optional(Type.String({ maxLength: 100 })),
  binaryfiledataset: Type.Optional(Type.Union([BinaryFileDatasetSchema, Type.Null()])),
  topublish: Type.Optional(Type.Boolean()),
});
export type DepositParams = Static<typeof DepositParamsSchema>;

/** `repositoryId` of the version list: one dataset to narrow the list to. */
export const RepositoryIdSchema = BinaryFileDatasetSchema;
export type RepositoryId = Static<typeof RepositoryIdSchema>;
