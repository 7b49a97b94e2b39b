import { Type, type Static } from 'typebox';

/** Requests and answers of the reference routes (`/applications/:name/references/:refType`); pages are in rows.ts. */
export const ReferenceParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  refType: Type.String({ maxLength: 100 }),
});

/** Rows a file moved under another parent, and what named them by their former keys and now names the new ones. */
export const RowsMovedSchema = Type.Object(
  {
    rows: Type.Integer({ description: 'Stored rows the file gave another hierarchical key.' }),
    authorizations: Type.Integer({ description: 'Authorizations whose scopes named a former key.' }),
    rightsRequests: Type.Integer({ description: 'Rights requests whose scopes named a former key.' }),
    additionalFiles: Type.Integer({ description: 'Additional files associated with a former key.' }),
  },
  { additionalProperties: false },
);
export type RowsMoved = Static<typeof RowsMovedSchema>;

/**
 * What an upload of rows did to the rows stored, natural keys compared folded (case and accents): a later file
 * whose keys differ only so replaces rows, and the user is told. Optional: answers kept from before lack them.
 */
export const StoredRowsWrittenFields = {
  added: Type.Optional(
    Type.Integer({ description: 'Stored rows the file added: lines whose natural key was not stored.' }),
  ),
  replaced: Type.Optional(
    Type.Integer({
      description:
        'Stored rows the file replaced: lines whose natural key, case and accents ignored, was stored already (their values changed or not).',
    }),
  ),
};

/** A CSV file loaded into a reference. */
export const ReferenceLoadedSchema = Type.Object(
  {
    referenceType: Type.String(),
    lineCount: Type.Integer({ description: 'Lines of the file.' }),
    ...StoredRowsWrittenFields,
    totalRows: Type.Integer({ description: 'Rows of the reference after the load.' }),
    moved: Type.Optional(RowsMovedSchema),
  },
  { additionalProperties: false },
);
export type ReferenceLoaded = Static<typeof ReferenceLoadedSchema>;

/** The rows to delete, by natural key: repeated in the query string for several, which then arrive as a list. */
export const ReferenceDeletionQuerySchema = Type.Object({
  naturalKey: Type.Union([
    Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 1000 }),
    Type.String({ maxLength: 1000 }),
  ]),
});

/** At most this many suggestions are answered, whatever is asked. */
export const MAX_SUGGESTIONS = 50;

/** What to suggest for a reference filter: rows whose label (in `lang`) or natural key has words beginning so. */
export const SuggestionQuerySchema = Type.Object({
  q: Type.String({
    maxLength: 200,
    description:
      'The text typed: every word of it must begin a word of the label or of the natural key (case and accents ignored).',
  }),
  lang: Type.Optional(
    Type.String({
      pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$',
      description:
        'The language of the labels (a display pattern of the reference); by default the Accept-Language one.',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SUGGESTIONS, default: 20 })),
});

export const SuggestionSchema = Type.Object(
  {
    naturalKey: Type.String({ description: 'What a filter on a component pointing to the reference is given.' }),
    label: Type.String({ description: 'The row as people see it: its display pattern in the asked language.' }),
  },
  { additionalProperties: false },
);
export type Suggestion = Static<typeof SuggestionSchema>;

export const SuggestionsSchema = Type.Object(
  { suggestions: Type.Array(SuggestionSchema) },
  { additionalProperties: false },
);
export type Suggestions = Static<typeof SuggestionsSchema>;
