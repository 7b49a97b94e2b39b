/**
 * What an expression can see (format reference §12.1). Every field is optional: an expression that reads a
 * missing one gets null, as it would get a missing key of a Groovy map. The engine reads this data and never
 * changes it; pass the same reference lists for every row so that `find` look-ups can be indexed once.
 */

/** A text per language code, e.g. `{ fr: 'Site', en: 'Site' }`. */
export type LocaleMap = Readonly<Record<string, string>>;

/** One row of a reference, as `references.<name>` lists it (`getNaturalKey()` reads `naturalKey`, and so on). */
export interface ReferenceRow {
  readonly naturalKey: string;
  readonly hierarchicalKey: string;
  /** Component key → stored value. */
  readonly refValues: Readonly<Record<string, unknown>>;
}

/**
 * The application as `application` shows it, shaped like the original's object graph so that
 * `application.getConfiguration().i18n().data` works: data name → its titles.
 */
export interface ApplicationValue {
  readonly name: string;
  readonly version?: string;
  /**
   * The names of its data (references and data types), as the original's v2 Application lists them in
   * `getData()`: what a check reaches for to ask whether a name is one of the application's data.
   */
  readonly data?: readonly string[];
  readonly configuration: {
    readonly i18n: {
      readonly data: Readonly<
        Record<string, { readonly i18n: { readonly title?: LocaleMap; readonly description?: LocaleMap } }>
      >;
    };
  };
}

export interface ExpressionContext {
  /** The current row: component key → value (text, checked value, or a nested map for pattern/dynamic components). */
  readonly datum?: Readonly<Record<string, unknown>>;
  /** For each reference listed in OA_references: its rows. */
  readonly references?: Readonly<Record<string, readonly ReferenceRow[]>>;
  /** For each reference listed in OA_references: the value maps of its rows. */
  readonly referencesValues?: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;
  readonly application?: ApplicationValue | Readonly<Record<string, unknown>>;
  readonly applicationName?: string;
  readonly dataName?: string;
  readonly dataDescription?: unknown;
  readonly dataI18n?: unknown;
  /** Raw file context. */
  readonly headerRow?: readonly string[];
  readonly preHeaderRow?: readonly (readonly string[])[];
  readonly postHeaderRow?: readonly (readonly string[])[];
  readonly currentRow?: readonly string[];
  readonly currentRowNumber?: number;
  readonly binaryFile?: unknown;
  /** OA_groovyExceptions of the expression: exception name → its message per language (for OA_buildException). */
  readonly groovyExceptions?: Readonly<Record<string, LocaleMap>>;
}

/** The names an expression may read; everything else must be declared in the expression. */
export const CONTEXT_VARIABLES = [
  'datum',
  'references',
  'referencesValues',
  'application',
  'applicationName',
  'dataName',
  'dataDescription',
  'dataI18n',
  'headerRow',
  'preHeaderRow',
  'postHeaderRow',
  'currentRow',
  'currentRowNumber',
  'binaryFile',
] as const;

export type ContextVariable = (typeof CONTEXT_VARIABLES)[number];
