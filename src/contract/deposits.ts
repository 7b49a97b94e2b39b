import { Type, type Static } from 'typebox';

const ScopeValues = Type.Record(
  Type.String({ maxLength: 200 }),
  Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 100 })]),
);
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

/** The version list's query: `repositoryId` is JSON, read against RepositoryIdSchema. */
export const VersionListQuerySchema = Type.Object({ repositoryId: Type.Optional(Type.String({ maxLength: 10_000 })) });

/** `repositoryId` of the version list: one dataset to narrow the list to. */
export const RepositoryIdSchema = BinaryFileDatasetSchema;
export type RepositoryId = Static<typeof RepositoryIdSchema>;

const Who = Type.Object(
  { id: Type.Union([Type.String(), Type.Null()]), login: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

/** A failed job's refusal: a catalogue code and its parameters. */
export const JobErrorSchema = Type.Object(
  { code: Type.String(), params: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
);
export type JobError = Static<typeof JobErrorSchema>;

export const JobStatusSchema = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);

/** A stored version of a dataset, as the version list and the publication state answer it. */
export const VersionSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'the deposited file’s name' }),
    size: Type.Number(),
    comment: Type.String(),
    rowCount: Type.Number(),
    scope: Type.Record(Type.String(), Type.String(), { description: 'reference-scope component → hierarchical key' }),
    from: Type.Union([Type.String(), Type.Null()]),
    to: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Who,
    published: Type.Boolean(),
    publishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    publishedBy: Who,
    originalDepositor: Type.Union([Type.String(), Type.Null()], {
      description:
        'For a version restored from a backup (whose restorer is createdBy): who deposited it in the application backed up.',
    }),
    originalPublisher: Type.Union([Type.String(), Type.Null()]),
    job: Type.Union(
      [
        Type.Object(
          {
            id: Type.String(),
            kind: Type.String(),
            status: JobStatusSchema,
            progress: Type.Number(),
            error: Type.Union([JobErrorSchema, Type.Null()]),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The latest publication job.' },
    ),
  },
  { additionalProperties: false },
);
export type Version = Static<typeof VersionSchema>;

/** A version kept (not yet published). */
export const VersionDepositedSchema = Type.Object(
  { fileId: Type.String(), rowCount: Type.Integer() },
  { additionalProperties: false },
);
export type VersionDeposited = Static<typeof VersionDepositedSchema>;

/** A publication or unpublication queued as a job (202). */
export const PublicationRequestedSchema = Type.Object(
  { fileId: Type.String(), jobId: Type.String(), topublish: Type.Boolean() },
  { additionalProperties: false },
);

/** The answer to publishing a version already published (or unpublishing one that is not): its state, no job. */
export const PublicationStateSchema = Type.Object(
  { fileId: Type.String(), topublish: Type.Boolean(), published: Type.Boolean() },
  { additionalProperties: false },
);

export const VersionDeletedSchema = Type.Object(
  { id: Type.String(), wasPublished: Type.Boolean() },
  { additionalProperties: false },
);
