import type { Duration } from './duration';
import type { JavaRegex } from '../regex';

/**
 * The application model: a validated OpenADOM v2 configuration with every default resolved. It is plain data
 * (no classes, no functions, no Map) so that it crosses worker boundaries, is stored by the server as JSON and
 * cached by the client; {@link serializeModel} gives its stable text. Ordered things are arrays, in the order of
 * the configuration, because order is meaningful (columns, menus, scopes) and JSON objects are stored with sorted
 * keys. Compiled forms (date patterns, expressions) are not kept: consumers compile the sources once per use.
 */
export interface ApplicationModel {
  /** Version of the configuration format, always `2.0.1`. */
  formatVersion: string;
  /** Technical name (`OA_application > OA_name`). */
  name: string;
  /** The author's version of the application (`OA_application > OA_version`). */
  version: string;
  /** Fallback language of texts; `fr` when not given. */
  defaultLanguage: string;
  /** `no comment` when not given; a comment typed in the upload form replaces it. */
  comment: string;
  i18n: I18nTexts;
  /** Domain tags declared at the root, with their display names. */
  domainTags: DomainTag[];
  /** References and data types, in configuration order. */
  data: DataEntry[];
  /** Every data name, ordered so that each entry comes after the references it needs (§9.4). */
  loadOrder: string[];
  rightsRequest: RightsRequestForm | null;
  additionalFiles: AdditionalFileType[];
}

/** Locale → text. Missing locales fall back to the default language, then to any text. */
export type LocaleText = Record<string, string>;

export interface I18nTexts {
  title: LocaleText;
  description: LocaleText;
}

export interface DomainTag {
  name: string;
  labels: LocaleText;
}

/** Tags of a data entry or a component, decoded. */
export interface TagSet {
  /** Declared domain tags, as written. */
  domain: string[];
  /** `__HIDDEN__`: not shown in tables or the default export. */
  hidden: boolean;
  /** `__ORDER_<n>__`, lower first; 99999 when absent (the original's default). */
  order: number;
}

export const DEFAULT_ORDER = 99_999;

/** A data entry is a reference unless tagged `__DATA__` (the DATA_TAG rule). */
export type DataKind = 'reference' | 'dataType';

export interface DataEntry {
  name: string;
  kind: DataKind;
  tags: TagSet;
  i18n: I18nTexts;
  displayPattern: DisplayPattern | null;
  /** Component keys whose escaped values, joined by `__`, form the natural key of a row (§9.1). */
  naturalKey: string[];
  /** Components of the five kinds, in configuration order (kinds in the order their sections appear). */
  components: Component[];
  validations: LineValidation[];
  hierarchy: Hierarchy;
  /** Other data entries this one needs loaded first (reference checkers, dynamic components, expression references, scopes). */
  dependsOn: string[];
  authorization: AuthorizationScopes | null;
  submission: Submission;
  /** How a CSV file of this entry is read: the plan the CSV engine follows. */
  csv: CsvMappingPlan;
}

export type ComponentKind = 'basic' | 'computed' | 'dynamic' | 'pattern' | 'constant';

interface ComponentBase {
  /** The map key: name of the stored field, used in natural keys, expressions (`datum.<key>`) and display patterns. */
  key: string;
  kind: ComponentKind;
  tags: TagSet;
  /** Column title and tooltip in tables and exports. */
  exportHeader: I18nTexts;
  /** `OA_required`: the value may not be empty. */
  required: boolean;
  checker: Checker | null;
  /** Locales for which the column is shown; `null` means all. */
  langRestrictions: string[] | null;
}

export interface BasicComponent extends ComponentBase {
  kind: 'basic';
  /** `OA_mandatory`: the column must be present in the file. */
  mandatory: boolean;
  defaultValue: Expression | null;
}

export interface ComputedComponent extends ComponentBase {
  kind: 'computed';
  computation: Computation;
}

/** How a computed value is obtained: an expression, the composite key of other components, or the empty text. */
export type Computation =
  { kind: 'expression'; expression: Expression } | { kind: 'naturalKey'; components: string[] } | { kind: 'empty' };

export interface DynamicComponent extends ComponentBase {
  kind: 'dynamic';
  /** One column per row of this reference… */
  reference: string;
  /** …whose header is the prefix followed by the value of this component of the row. */
  headerPrefix: string;
  referenceComponent: string;
}

export interface PatternComponent extends ComponentBase {
  kind: 'pattern';
  defaultValue: Expression | null;
  qualifiers: PatternQualifier[];
  adjacents: PatternAdjacent[];
}

/** A qualifier takes capture group `group` of the header regex (1-based); stored under `<component>::<name>`. */
export interface PatternQualifier {
  name: string;
  storedKey: string;
  group: number;
  tags: TagSet;
  exportHeader: I18nTexts;
  required: boolean;
  checker: Checker | null;
  defaultValue: Expression | null;
}

/** A column right after each matched one; its header is `headerTemplate` with `{$n}` replaced by group n. */
export interface PatternAdjacent {
  name: string;
  storedKey: string;
  headerTemplate: string;
  tags: TagSet;
  exportHeader: I18nTexts;
  required: boolean;
  mandatory: boolean;
  checker: Checker | null;
}

export interface ConstantComponent extends ComponentBase {
  kind: 'constant';
  defaultValue: Expression | null;
}

export type Component = BasicComponent | ComputedComponent | DynamicComponent | PatternComponent | ConstantComponent;

export type Multiplicity = 'ONE' | 'MANY';

/** Type control and conversion of a value (§10). With `MANY` the cell is a comma-separated list. */
export type Checker =
  | { kind: 'reference'; reference: string; isParent: boolean; isRecursive: boolean; multiplicity: Multiplicity }
  | {
      kind: 'date';
      pattern: string;
      min: DateBound | null;
      max: DateBound | null;
      duration: Duration | null;
      multiplicity: Multiplicity;
    }
  | { kind: 'integer'; min: number | null; max: number | null; multiplicity: Multiplicity }
  | { kind: 'float'; min: number | null; max: number | null; multiplicity: Multiplicity }
  | { kind: 'string'; pattern: JavaRegex | null; multiplicity: Multiplicity }
  | { kind: 'boolean'; isTrue: string | null; multiplicity: Multiplicity }
  | { kind: 'expression'; expression: Expression; multiplicity: Multiplicity };

export type CheckerKind = Checker['kind'];

/** A date bound as written (in the checker's pattern) and as an ISO local date-time. */
export interface DateBound {
  text: string;
  iso: string;
}

/** A Groovy expression that compiled. Consumers compile `source` with the expression engine. */
export interface Expression {
  source: string;
  /** `OA_references`: the references loaded into `references.X` / `referencesValues.X` when it runs. */
  references: string[];
  /** `OA_groovyExceptions`: named messages the expression can raise with `OA_buildException`. */
  exceptions: Record<string, LocaleText>;
  /** `OA_multiplicity` of a default value; ONE elsewhere. */
  multiplicity: Multiplicity;
}

/** `OA_validations`: a rule checked on every row (§11). */
export interface LineValidation {
  name: string;
  labels: LocaleText;
  checker: Checker;
  /** Components whose values the checker checks; may be empty for an expression that reads the whole row. */
  components: string[];
  required: boolean;
}

/** Parents and recursion (§9.3), from reference checkers of components and validations. */
export interface Hierarchy {
  /** `OA_isParent` links to other entries: their hierarchical key prefixes this entry's. */
  parents: Array<{ component: string; reference: string }>;
  /** The component that points at the parent row of the same entry, when the entry is recursive. */
  recursiveComponent: string | null;
  /**
   * `__ORDER_STRICT__` on the validation holding the recursive reference checker: a file lists parents before their
   * children, and a child whose parent is not on an earlier line is refused at its line. Absent from models stored
   * before Terrain read the tag (read as false).
   */
  orderStrict?: boolean;
}

/** `OA_authorizations` (§13): the dimensions rights are granted on. */
export interface AuthorizationScopes {
  /** Components carrying reference checkers, with the reference each points at. */
  scopes: Array<{ component: string; reference: string }>;
  timeScope: TimeScope | null;
}

/** A date component used to restrict rights or deposits to a period. */
export interface TimeScope {
  component: string;
  pattern: string;
  /** Length of the period one value stands for (`MM/yyyy` + `1 month`), when the checker says. */
  duration: Duration | null;
}

export type SubmissionStrategy = 'OA_INSERTION' | 'OA_VERSIONING';

/** `OA_submission` (§14); an entry without one is deposited by insertion without scope. */
export interface Submission {
  strategy: SubmissionStrategy;
  referenceScopes: ReferenceScope[];
  timeScope: TimeScope | null;
  fileName: FileNameRule | null;
}

export interface ReferenceScope {
  reference: string;
  component: string;
  i18n: I18nTexts;
  exportHeader: I18nTexts;
}

/** Reads the scope of a deposit from its file name: capture group n fills `matchPatternScopes[n-1]`. */
export interface FileNameRule {
  pattern: JavaRegex;
  /** Reference-scope component names, `__START_DATE__` or `__END_DATE__`, in capture-group order. */
  matchPatternScopes: string[];
}

/** `OA_i18nDisplayPattern`: how a row is shown as text (§12.2). */
export interface DisplayPattern {
  title: Record<string, DisplayTemplate>;
  description: Record<string, DisplayTemplate>;
}

export interface DisplayTemplate {
  source: string;
  /** Text and `{component}` placeholders, in order. */
  parts: Array<{ text: string } | { component: string }>;
}

/** How the CSV engine reads a file of a data entry (§7, §8). */
export interface CsvMappingPlan {
  /** Field separator, one character; `;` by default. */
  separator: string;
  /** 1-based line of the header row. */
  headerLine: number;
  /** 1-based line of the first data row. */
  firstDataLine: number;
  /** Whether columns that no component claims are ignored rather than refused. */
  allowUnexpectedColumns: boolean;
  /** Basic components: each claims the column whose trimmed header equals `header`. Claimed first. */
  columns: Array<{ component: string; header: string; mandatory: boolean }>;
  /** Pattern components, tried in order on the columns left over. */
  patterns: PatternBinding[];
  /** Dynamic components: one column per row of a reference. */
  dynamics: Array<{ component: string; headerPrefix: string; reference: string; referenceComponent: string }>;
  /** Constant components: one cell above the data, copied into every row. */
  constants: ConstantBinding[];
  /** Basic, pattern and constant components with an `OA_defaultValue`, evaluated when their cell is empty. */
  defaults: string[];
  /** Computed components, in configuration order. */
  computed: string[];
}

export interface PatternBinding {
  component: string;
  /** Must match the whole header; group n feeds qualifier n. */
  headerPattern: JavaRegex;
  qualifiers: Array<{ storedKey: string; group: number }>;
  adjacents: Array<{ storedKey: string; headerTemplate: string; mandatory: boolean }>;
}

export interface ConstantBinding {
  component: string;
  /** 1-based line of the cell. */
  row: number;
  /** `preHeader` above the header line, `header` on it, `postHeader` between it and the first data line. */
  zone: 'preHeader' | 'header' | 'postHeader';
  /** 1-based column number, or the header of the column to read on that row. */
  column: { number: number } | { header: string };
}

export interface FormField {
  name: string;
  i18n: I18nTexts;
  required: boolean;
  checker: Checker | null;
}

/** `OA_rightsRequest`: the form users fill in to ask for rights (§15). */
export interface RightsRequestForm {
  i18n: I18nTexts;
  fields: FormField[];
}

/** One kind of additional file and the metadata form that goes with it (§16). */
export interface AdditionalFileType {
  name: string;
  i18n: I18nTexts;
  fields: FormField[];
}
