import { Type, type Static } from 'typebox';
import type { ApplicationModel } from '../domain/configuration/model.ts';
import type { ApplicationOutline } from '../domain/applications/outline.ts';
import {
  CheckerSchema,
  DurationSchema,
  FormFieldSchema,
  I18nTextsSchema,
  JavaRegexSchema,
  LocaleTextSchema,
  RightsRequestFormSchema,
} from './forms.ts';

/** An application's configuration as the validator reads it (src/domain/configuration/model.ts), and its outline. */
const closed = { additionalProperties: false } as const;
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const multiplicity = Type.Union([Type.Literal('ONE'), Type.Literal('MANY')]);

const TagSetSchema = Type.Object(
  { domain: Type.Array(Type.String()), hidden: Type.Boolean(), order: Type.Number() },
  closed,
);
const ExpressionSchema = Type.Object(
  {
    source: Type.String(),
    references: Type.Array(Type.String()),
    exceptions: Type.Record(Type.String(), LocaleTextSchema),
    multiplicity,
  },
  closed,
);
const componentBase = {
  key: Type.String(),
  tags: TagSetSchema,
  exportHeader: I18nTextsSchema,
  required: Type.Boolean(),
  checker: orNull(CheckerSchema),
  langRestrictions: orNull(Type.Array(Type.String())),
};
const ComponentSchema = Type.Union([
  Type.Object(
    {
      ...componentBase,
      kind: Type.Literal('basic'),
      mandatory: Type.Boolean(),
      defaultValue: orNull(ExpressionSchema),
    },
    closed,
  ),
  Type.Object(
    {
      ...componentBase,
      kind: Type.Literal('computed'),
      computation: Type.Union([
        Type.Object({ kind: Type.Literal('expression'), expression: ExpressionSchema }, closed),
        Type.Object({ kind: Type.Literal('naturalKey'), components: Type.Array(Type.String()) }, closed),
        Type.Object({ kind: Type.Literal('empty') }, closed),
      ]),
    },
    closed,
  ),
  Type.Object(
    {
      ...componentBase,
      kind: Type.Literal('dynamic'),
      reference: Type.String(),
      headerPrefix: Type.String(),
      referenceComponent: Type.String(),
    },
    closed,
  ),
  Type.Object(
    {
      ...componentBase,
      kind: Type.Literal('pattern'),
      defaultValue: orNull(ExpressionSchema),
      qualifiers: Type.Array(
        Type.Object(
          {
            name: Type.String(),
            storedKey: Type.String(),
            group: Type.Number(),
            tags: TagSetSchema,
            exportHeader: I18nTextsSchema,
            required: Type.Boolean(),
            checker: orNull(CheckerSchema),
            defaultValue: orNull(ExpressionSchema),
          },
          closed,
        ),
      ),
      adjacents: Type.Array(
        Type.Object(
          {
            name: Type.String(),
            storedKey: Type.String(),
            headerTemplate: Type.String(),
            tags: TagSetSchema,
            exportHeader: I18nTextsSchema,
            required: Type.Boolean(),
            mandatory: Type.Boolean(),
            checker: orNull(CheckerSchema),
          },
          closed,
        ),
      ),
    },
    closed,
  ),
  Type.Object({ ...componentBase, kind: Type.Literal('constant'), defaultValue: orNull(ExpressionSchema) }, closed),
]);

const componentOfReference = Type.Object({ component: Type.String(), reference: Type.String() }, closed);
const TimeScopeSchema = Type.Object(
  { component: Type.String(), pattern: Type.String(), duration: orNull(DurationSchema) },
  closed,
);
const AuthorizationScopesSchema = Type.Object(
  { scopes: Type.Array(componentOfReference), timeScope: orNull(TimeScopeSchema) },
  closed,
);
const strategy = Type.Union([Type.Literal('OA_INSERTION'), Type.Literal('OA_VERSIONING')]);
const SubmissionSchema = Type.Object(
  {
    strategy,
    referenceScopes: Type.Array(
      Type.Object(
        {
          reference: Type.String(),
          component: Type.String(),
          i18n: I18nTextsSchema,
          exportHeader: I18nTextsSchema,
        },
        closed,
      ),
    ),
    timeScope: orNull(TimeScopeSchema),
    fileName: orNull(Type.Object({ pattern: JavaRegexSchema, matchPatternScopes: Type.Array(Type.String()) }, closed)),
  },
  closed,
);
const DisplayTemplateSchema = Type.Object(
  {
    source: Type.String(),
    parts: Type.Array(
      Type.Union([Type.Object({ text: Type.String() }, closed), Type.Object({ component: Type.String() }, closed)]),
    ),
  },
  closed,
);
const CsvMappingPlanSchema = Type.Object(
  {
    separator: Type.String(),
    headerLine: Type.Number(),
    firstDataLine: Type.Number(),
    allowUnexpectedColumns: Type.Boolean(),
    columns: Type.Array(
      Type.Object({ component: Type.String(), header: Type.String(), mandatory: Type.Boolean() }, closed),
    ),
    patterns: Type.Array(
      Type.Object(
        {
          component: Type.String(),
          headerPattern: JavaRegexSchema,
          qualifiers: Type.Array(Type.Object({ storedKey: Type.String(), group: Type.Number() }, closed)),
          adjacents: Type.Array(
            Type.Object({ storedKey: Type.String(), headerTemplate: Type.String(), mandatory: Type.Boolean() }, closed),
          ),
        },
        closed,
      ),
    ),
    dynamics: Type.Array(
      Type.Object(
        {
          component: Type.String(),
          headerPrefix: Type.String(),
          reference: Type.String(),
          referenceComponent: Type.String(),
        },
        closed,
      ),
    ),
    constants: Type.Array(
      Type.Object(
        {
          component: Type.String(),
          row: Type.Number(),
          zone: Type.Union([Type.Literal('preHeader'), Type.Literal('header'), Type.Literal('postHeader')]),
          column: Type.Union([
            Type.Object({ number: Type.Number() }, closed),
            Type.Object({ header: Type.String() }, closed),
          ]),
        },
        closed,
      ),
    ),
    defaults: Type.Array(Type.String()),
    computed: Type.Array(Type.String()),
  },
  closed,
);
const kind = Type.Union([Type.Literal('reference'), Type.Literal('dataType')]);
const DataEntrySchema = Type.Object(
  {
    name: Type.String(),
    kind,
    tags: TagSetSchema,
    i18n: I18nTextsSchema,
    displayPattern: orNull(
      Type.Object(
        {
          title: Type.Record(Type.String(), DisplayTemplateSchema),
          description: Type.Record(Type.String(), DisplayTemplateSchema),
        },
        closed,
      ),
    ),
    naturalKey: Type.Array(Type.String()),
    components: Type.Array(ComponentSchema),
    validations: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          labels: LocaleTextSchema,
          checker: CheckerSchema,
          components: Type.Array(Type.String()),
          required: Type.Boolean(),
        },
        closed,
      ),
    ),
    hierarchy: Type.Object(
      {
        parents: Type.Array(componentOfReference),
        recursiveComponent: orNull(Type.String()),
        orderStrict: Type.Optional(Type.Boolean()),
      },
      closed,
    ),
    dependsOn: Type.Array(Type.String()),
    authorization: orNull(AuthorizationScopesSchema),
    submission: SubmissionSchema,
    csv: CsvMappingPlanSchema,
  },
  closed,
);

/** The whole model, for those who may read the data. */
export const ApplicationModelSchema = Type.Object(
  {
    formatVersion: Type.String(),
    name: Type.String(),
    version: Type.String(),
    defaultLanguage: Type.String(),
    comment: Type.String(),
    i18n: I18nTextsSchema,
    domainTags: Type.Array(Type.Object({ name: Type.String(), labels: LocaleTextSchema }, closed)),
    data: Type.Array(DataEntrySchema),
    loadOrder: Type.Array(Type.String()),
    rightsRequest: orNull(RightsRequestFormSchema),
    additionalFiles: Type.Array(
      Type.Object({ name: Type.String(), i18n: I18nTextsSchema, fields: Type.Array(FormFieldSchema) }, closed),
    ),
  },
  closed,
);

/** What anyone who may see the application learns of it: enough to ask for the right to read its data. */
export const ApplicationOutlineSchema = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    defaultLanguage: Type.String(),
    i18n: I18nTextsSchema,
    rightsRequest: orNull(RightsRequestFormSchema),
    data: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          kind,
          i18n: I18nTextsSchema,
          authorization: orNull(AuthorizationScopesSchema),
          submission: Type.Object({ strategy }, closed),
        },
        closed,
      ),
    ),
  },
  closed,
);

// The domain types stay the validator's own; the compiler keeps these schemas equal to them.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameModel: Same<Static<typeof ApplicationModelSchema>, ApplicationModel> = true;
const sameOutline: Same<Static<typeof ApplicationOutlineSchema>, ApplicationOutline> = true;
void sameModel;
void sameOutline;
