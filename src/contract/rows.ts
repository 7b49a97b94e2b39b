import { Type, type Static } from 'typebox';

const downloadDatasetQuery = Type.Optional(
  Type.String({
    maxLength: 100_000,
    description:
      "JSON: offset, limit, naturalKeys, rowIds, componentFilters, componentOrderBy, outPut.locale. As the original: the first selector given counts (naturalKeys, then rowIds, then componentFilters); naturalKeys take natural or hierarchical keys; a filter on a reference column takes natural or hierarchical keys and the rows below them too; a filter's values match as its column compares them (numbers as numbers, dates by the day or unit they name, in ISO or in the column's pattern); an interval (intervalValues, or intervalsValues holding one) may have one open end, equal ends are one value. Refused (400): a filter with isRegExp true (UNSUPPORTED_PARAMETER); reversed ends, and ends or values that are no numbers or dates of such columns (BAD_ROW_QUERY unusableInterval, badFilterValue); several intervals (badInterval); a sort order other than ASC or DESC in any case (badOrder).",
  }),
);

/** The rows a call reads or deletes (`downloadDatasetQuery`). */
export const RowQueryParamSchema = Type.Object({ downloadDatasetQuery });

/** The two forms of a CSV export (alone or in a zip). */
export const EXPORT_FORMS = ['titles', 'upload'] as const;
export type ExportForm = (typeof EXPORT_FORMS)[number];

/** The rows an export holds, and how its CSV is written. */
export const DownloadQuerySchema = Type.Object({
  downloadDatasetQuery,
  form: Type.Optional(
    Type.Union(
      EXPORT_FORMS.map((form) => Type.Literal(form)),
      {
        default: 'titles',
        description:
          'CSV (alone or in a zip). `titles` (default): to read, one column per component under its export title in the asked language (titles shared by several columns followed by their import header), dynamic and pattern components as JSON. `upload`: the entry exactly as an upload takes it, to load again: import headers and the lines above them, dynamic and pattern components in their own columns, references as their files name them; the same in every language. Rows loaded from files of different shapes (constants, dynamic or pattern columns) load again from one file per shape: the zip holds them (`<name>.csv`, `<name>-2.csv`…), the CSV answers 409 UPLOAD_FORM_SEVERAL_FILES; above 100 shapes both answer 409 UPLOAD_FORM_TOO_MANY_SHAPES. Never with `spreadsheetSafe` (400 UPLOAD_FORM_NOT_SPREADSHEET_SAFE).',
      },
    ),
  ),
  spreadsheetSafe: Type.Optional(
    Type.Boolean({
      description:
        "CSV (alone or in a zip): cells a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) are prefixed with ', and the file starts with a UTF-8 byte order mark (for Excel to read its accents)",
    }),
  ),
});

/** Rows deleted: their natural keys (references) or ids (data). */
export const RowsDeletedSchema = Type.Object({ deleted: Type.Array(Type.String()) }, { additionalProperties: false });

/** A column of a row page, titled in the asked language. */
export const ColumnDescriptionSchema = Type.Object(
  {
    key: Type.String(),
    title: Type.String(),
    description: Type.String(),
    hidden: Type.Boolean(),
    order: Type.Number(),
    checker: Type.Union([Type.String(), Type.Null()], { description: 'The kind of checker; null without one.' }),
    reference: Type.Optional(Type.String({ description: 'For reference components: the entry pointed to.' })),
    multiplicity: Type.Optional(Type.Union([Type.Literal('ONE'), Type.Literal('MANY')])),
  },
  { additionalProperties: false },
);
export type ColumnDescription = Static<typeof ColumnDescriptionSchema>;

/** A value stored for one component: its shapes per checker are described in src/domain/csv/index.ts. */
export const StoredValueSchema = Type.Cyclic(
  {
    StoredValue: Type.Union([
      Type.String(),
      Type.Number(),
      Type.Boolean(),
      Type.Null(),
      Type.Array(Type.Ref('StoredValue')),
      Type.Record(Type.String(), Type.Ref('StoredValue')),
    ]),
  },
  'StoredValue',
);

/** The fields of a stored row, named by the user's components in `values`. */
const storedRowFields = {
  id: Type.String(),
  naturalKey: Type.String(),
  hierarchicalKey: Type.String(),
  values: Type.Record(Type.String(), StoredValueSchema, { description: 'Values by component key.' }),
};

/**
 * A row as the consultation and the JSON exports give it: in `values`, a value pointing to a reference row is that
 * row's natural key, as the original's answers give it; `referenceKeys` keeps the hierarchical keys of reference
 * components. `__display_<locale>` holds its display in the asked language.
 */
export const RowViewSchema = Type.Object(
  {
    ...storedRowFields,
    referenceKeys: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
      description: 'By reference component: the hierarchical key of the row it points to (a list with MANY).',
    }),
    __display_default: Type.String(),
  },
  { additionalProperties: false, patternProperties: { '^__display_': Type.String() } },
);
// The static type of TypeBox leaves `patternProperties` out: the displays per language are named here.
export type RowView = Static<typeof RowViewSchema> & { [display: `__display_${string}`]: string };

const pageFields = {
  title: Type.String(),
  columns: Type.Array(ColumnDescriptionSchema),
  totalRows: Type.Integer({ description: 'Rows matching the query, all pages together.' }),
};

/** A page of the rows of a reference (or all of them, as the JSON export streams them). */
export const ReferencePageSchema = Type.Object(
  { referenceType: Type.String(), ...pageFields, referenceValues: Type.Array(RowViewSchema) },
  { additionalProperties: false },
);
export type ReferencePage = Omit<Static<typeof ReferencePageSchema>, 'referenceValues'> & {
  referenceValues: RowView[];
};

/** A page of the rows of a data type, published versions only (or all of them, as the JSON export streams them). */
export const DataTypePageSchema = Type.Object(
  { dataType: Type.String(), ...pageFields, rows: Type.Array(RowViewSchema) },
  { additionalProperties: false },
);
export type DataTypePage = Omit<Static<typeof DataTypePageSchema>, 'rows'> & { rows: RowView[] };
