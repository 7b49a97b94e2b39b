import { Type, type Static } from 'typebox';
import type { Checker, FormField, I18nTexts, RightsRequestForm } from '../domain/configuration/model.ts';

/** The forms of a configuration (OA_rightsRequest, additional-file types), as the screens that fill them read them. */
export const LocaleTextSchema = Type.Record(Type.String(), Type.String(), { description: 'locale → text' });
export const I18nTextsSchema = Type.Object(
  { title: LocaleTextSchema, description: LocaleTextSchema },
  { additionalProperties: false },
);

const multiplicity = Type.Union([Type.Literal('ONE'), Type.Literal('MANY')]);
const NumberBound = Type.Union([Type.Number(), Type.Null()]);
const DateBound = Type.Union([
  Type.Object({ text: Type.String(), iso: Type.String() }, { additionalProperties: false }),
  Type.Null(),
]);
const DurationUnit = Type.Union([
  Type.Literal('second'),
  Type.Literal('minute'),
  Type.Literal('hour'),
  Type.Literal('day'),
  Type.Literal('week'),
  Type.Literal('month'),
  Type.Literal('year'),
]);
export const DurationSchema = Type.Object(
  {
    source: Type.String(),
    parts: Type.Array(Type.Object({ amount: Type.Number(), unit: DurationUnit }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const closed = { additionalProperties: false } as const;

/** A Java regular expression as written in the configuration, with its number of capturing groups. */
export const JavaRegexSchema = Type.Object({ source: Type.String(), groupCount: Type.Number() }, closed);

/** Type control of a value (§10), as the configuration's checkers hold it. */
export const CheckerSchema = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('reference'),
      reference: Type.String(),
      isParent: Type.Boolean(),
      isRecursive: Type.Boolean(),
      multiplicity,
    },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal('date'),
      pattern: Type.String(),
      min: DateBound,
      max: DateBound,
      duration: Type.Union([DurationSchema, Type.Null()]),
      multiplicity,
    },
    closed,
  ),
  Type.Object({ kind: Type.Literal('integer'), min: NumberBound, max: NumberBound, multiplicity }, closed),
  Type.Object({ kind: Type.Literal('float'), min: NumberBound, max: NumberBound, multiplicity }, closed),
  Type.Object(
    {
      kind: Type.Literal('string'),
      pattern: Type.Union([JavaRegexSchema, Type.Null()]),
      multiplicity,
    },
    closed,
  ),
  Type.Object(
    { kind: Type.Literal('boolean'), isTrue: Type.Union([Type.String(), Type.Null()]), multiplicity },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal('expression'),
      expression: Type.Object(
        {
          source: Type.String(),
          references: Type.Array(Type.String()),
          exceptions: Type.Record(Type.String(), LocaleTextSchema),
          multiplicity,
        },
        closed,
      ),
      multiplicity,
    },
    closed,
  ),
]);

export const FormFieldSchema = Type.Object(
  {
    name: Type.String(),
    i18n: I18nTextsSchema,
    required: Type.Boolean(),
    checker: Type.Union([CheckerSchema, Type.Null()]),
  },
  closed,
);

/** `OA_rightsRequest`: the form users fill in to ask for rights. */
export const RightsRequestFormSchema = Type.Object(
  { i18n: I18nTextsSchema, fields: Type.Array(FormFieldSchema) },
  closed,
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameTexts: Same<Static<typeof I18nTextsSchema>, I18nTexts> = true;
const sameChecker: Same<Static<typeof CheckerSchema>, Checker> = true;
const sameField: Same<Static<typeof FormFieldSchema>, FormField> = true;
const sameForm: Same<Static<typeof RightsRequestFormSchema>, RightsRequestForm> = true;
void sameTexts;
void sameChecker;
void sameField;
void sameForm;
