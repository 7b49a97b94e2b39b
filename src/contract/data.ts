import { Type, type Static } from 'typebox';
import { RowsMovedSchema, StoredRowsWrittenFields } from './references.ts';

export const DataParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  dataType: Type.String({ maxLength: 100 }),
});
export const FileParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  fileId: Type.String({ maxLength: 100 }),
});
export const VariableParamsSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  dataType: Type.String({ maxLength: 100 }),
  variable: Type.String({ maxLength: 100 }),
});

/** The rows of a file of a data type without versioning, inserted or updated. */
export const DataInsertedSchema = Type.Object(
  {
    dataType: Type.String(),
    lineCount: Type.Integer(),
    ...StoredRowsWrittenFields,
    totalRows: Type.Integer(),
    moved: Type.Optional(RowsMovedSchema),
  },
  { additionalProperties: false },
);
export type DataInserted = Static<typeof DataInsertedSchema>;

export const SynthesisSchema = Type.Object(
  {
    dataType: Type.String(),
    from: Type.Union([Type.String(), Type.Null()], {
      description: 'The whole period covered, ISO local date-time; null without a time scope or rows.',
    }),
    to: Type.Union([Type.String(), Type.Null()]),
    intervals: Type.Array(Type.Object({ from: Type.String(), to: Type.String() }, { additionalProperties: false }), {
      description: 'The period cut into equal intervals.',
    }),
    variables: Type.Record(Type.String(), Type.Array(Type.Integer()), {
      description: 'Per variable: lines with a value in each interval (one total when there is no time scope).',
    }),
  },
  { additionalProperties: false },
);
export type Synthesis = Static<typeof SynthesisSchema>;
