/**
 * Running the configuration's expressions on CSV rows (§12.1): each expression is compiled once per file, and the
 * context it sees is built once per file too (references, application, file header rows) with only the row parts
 * (`datum`, `currentRow`, `currentRowNumber`) changing. Failures become error values, never exceptions.
 */
import type { ApplicationModel, DataEntry, Expression } from '../configuration/model';
import {
  compileExpression,
  ExpressionError,
  groovyToString,
  type CompiledExpression,
  type ExpressionContext,
  type ReferenceRow,
} from '../expressions';
import type { StoredRow } from './types';

export type EvaluationOutcome =
  | { ok: true; value: unknown }
  | { ok: false; code: 'groovyException' | 'expressionEvaluationError'; params: Record<string, unknown> };

interface Prepared {
  compiled: CompiledExpression | null;
  compileMessage: string;
  references: Record<string, readonly ReferenceRow[]>;
  referencesValues: Record<string, readonly Record<string, unknown>[]>;
  exceptions: Expression['exceptions'];
}

export interface FileContext {
  headerRow: readonly string[];
  preHeaderRow: readonly (readonly string[])[];
  postHeaderRow: readonly (readonly string[])[];
}

const MAX_SOURCE_IN_PARAMS = 500;

export class ExpressionRunner {
  private readonly prepared = new Map<Expression, Prepared>();
  private readonly referenceRows = new Map<string, ReferenceRow[]>();
  private readonly referenceValues = new Map<string, Record<string, unknown>[]>();
  private readonly base: ExpressionContext;
  private file: FileContext = { headerRow: [], preHeaderRow: [], postHeaderRow: [] };

  constructor(
    model: ApplicationModel,
    private readonly entry: DataEntry,
    private readonly rowsOf: (dataName: string) => readonly StoredRow[],
  ) {
    const data: Record<string, { i18n: { title: Record<string, string>; description: Record<string, string> } }> = {};
    for (const item of model.data)
      data[item.name] = { i18n: { title: item.i18n.title, description: item.i18n.description } };
    this.base = {
      application: {
        name: model.name,
        version: model.version,
        data: model.data.map((item) => item.name),
        configuration: { i18n: { data } },
      },
      applicationName: model.name,
      dataName: entry.name,
      dataDescription: entry.i18n.description,
      dataI18n: { title: entry.i18n.title, description: entry.i18n.description },
    };
  }

  setFile(file: FileContext): void {
    this.file = file;
  }

  private prepare(expression: Expression): Prepared {
    let prepared = this.prepared.get(expression);
    if (prepared) return prepared;
    // As the configuration was validated: names nothing defines fail on the rows that reach them.
    const compilation = compileExpression(expression.source, { unknownNames: 'defer' });
    const references: Record<string, readonly ReferenceRow[]> = {};
    const referencesValues: Record<string, readonly Record<string, unknown>[]> = {};
    for (const name of expression.references) {
      references[name] = this.rowsFor(name);
      referencesValues[name] = this.valuesFor(name);
    }
    prepared = {
      compiled: compilation.ok ? compilation.expression : null,
      compileMessage: compilation.ok ? '' : compilation.errors.map((error) => error.message).join(' '),
      references,
      referencesValues,
      exceptions: expression.exceptions,
    };
    this.prepared.set(expression, prepared);
    return prepared;
  }

  private rowsFor(name: string): ReferenceRow[] {
    let rows = this.referenceRows.get(name);
    if (!rows) {
      rows = this.rowsOf(name).map((row) => ({
        naturalKey: row.naturalKey,
        hierarchicalKey: row.hierarchicalKey,
        refValues: row.values,
      }));
      this.referenceRows.set(name, rows);
    }
    return rows;
  }

  private valuesFor(name: string): Record<string, unknown>[] {
    let values = this.referenceValues.get(name);
    if (!values) {
      values = this.rowsOf(name).map((row) => row.values);
      this.referenceValues.set(name, values);
    }
    return values;
  }

  /** Evaluates on one row; `target` names the component or validation in error params. */
  evaluate(
    expression: Expression,
    datum: Record<string, unknown>,
    currentRow: readonly string[],
    lineNumber: number,
    target: Record<string, unknown>,
  ): EvaluationOutcome {
    const prepared = this.prepare(expression);
    const source =
      expression.source.length > MAX_SOURCE_IN_PARAMS
        ? `${expression.source.slice(0, MAX_SOURCE_IN_PARAMS)}…`
        : expression.source;
    if (!prepared.compiled) {
      return {
        ok: false,
        code: 'expressionEvaluationError',
        params: { ...target, expression: source, errorCode: 'compilation', message: prepared.compileMessage },
      };
    }
    const context: ExpressionContext = {
      ...this.base,
      datum,
      references: prepared.references,
      referencesValues: prepared.referencesValues,
      headerRow: this.file.headerRow,
      preHeaderRow: this.file.preHeaderRow,
      postHeaderRow: this.file.postHeaderRow,
      currentRow,
      currentRowNumber: lineNumber,
      groovyExceptions: prepared.exceptions,
    };
    try {
      return { ok: true, value: prepared.compiled.evaluate(context) };
    } catch (thrown) {
      if (thrown instanceof ExpressionError) {
        if (thrown.code === 'groovyException') {
          const params = thrown.params as { exception?: unknown; messages?: unknown; params?: unknown };
          return {
            ok: false,
            code: 'groovyException',
            params: {
              ...target,
              exception: params.exception ?? '',
              messages: params.messages ?? null,
              exceptionParams: params.params ?? {},
            },
          };
        }
        return {
          ok: false,
          code: 'expressionEvaluationError',
          params: {
            ...target,
            expression: source,
            errorCode: thrown.code,
            message: thrown.message,
            expressionLine: thrown.line ?? null,
            expressionColumn: thrown.column ?? null,
          },
        };
      }
      return {
        ok: false,
        code: 'expressionEvaluationError',
        params: { ...target, expression: source, errorCode: 'internalError', message: String(thrown) },
      };
    }
  }

  get dataName(): string {
    return this.entry.name;
  }
}

/**
 * The text a computed or default value stands for: texts as they are, null as empty, lists joined with commas (a
 * MANY checker splits them again), anything else as Groovy writes it.
 */
export function expressionResultText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(expressionResultText).join(',');
  return groovyToString(value);
}
