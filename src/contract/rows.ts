import { Type } from 'typebox';

const downloadDatasetQuery = Type.Optional(
  Type.String({
    maxLength: 100_000,
    description: 'JSON: offset, limit, naturalKeys, rowIds, componentFilters, componentOrderBy, outPut.locale',
  }),
);

/** The rows a call reads or deletes (`downloadDatasetQuery`). */
export const RowQueryParamSchema = Type.Object({ downloadDatasetQuery });

/** The rows an export holds, and how its CSV is written. */
export const DownloadQuerySchema = Type.Object({
  downloadDatasetQuery,
  spreadsheetSafe: Type.Optional(
    Type.Boolean({
      description:
        "CSV (alone or in a zip): cells a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) are prefixed with '",
    }),
  ),
});

/** Rows deleted: their natural keys (references) or ids (data). */
export const RowsDeletedSchema = Type.Object({ deleted: Type.Array(Type.String()) }, { additionalProperties: false });
