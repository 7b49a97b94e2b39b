import { Type, type Static } from 'typebox';

export const ErrorBodySchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    params: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'ErrorBody', description: 'Every refusal: a catalogue code (repeated in message) and its parameters.' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

/** A refused CSV file (400 INVALID_CSV): the error body with the errors found, {lineNumber, code, params} each. */
export const CsvRefusalSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  errors: Type.Optional(Type.Array(Type.Unknown())),
});

/** Error answers a route may give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema]));
}
