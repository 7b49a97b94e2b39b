import { Type, type Static } from 'typebox';

/** Requests and answers of the reference routes (`/applications/:name/references/:refType`); pages are in rows.ts. */
export const ReferenceParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  refType: Type.String({ maxLength: 100 }),
});

/** A CSV file loaded into a reference. */
export const ReferenceLoadedSchema = Type.Object(
  {
    referenceType: Type.String(),
    lineCount: Type.Integer({ description: 'Lines of the file.' }),
    totalRows: Type.Integer({ description: 'Rows of the reference after the load.' }),
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
