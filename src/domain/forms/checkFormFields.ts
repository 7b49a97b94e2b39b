import type { FormField } from '../configuration/model';
import { INVALID, compileChecker, type CheckSink, type CheckTarget } from '../csv/checkers';
import type { CsvErrorCode } from '../csv/errors';
import { ReferenceIndex } from '../csv/references';
import type { StoredRow } from '../csv/types';
import { javaTrim, splitOnCommas } from '../keys';
import { FORM_REGEX_STEPS, RegexBudgetExceeded, regexBudget, valueTick } from '../regex/searchBudget';

/**
 * The longest value a form field holds (the configuration gives none): a page of text. Longer values are refused
 * before any checker reads them.
 */
export const MAX_FORM_VALUE_LENGTH = 5_000;

/** Characters of a refused value a problem repeats; the rest is cut to `…`. */
export const SHOWN_VALUE_LENGTH = 100;

/**
 * A form field whose value is refused, with the CSV engine's code for the same refusal; `formValueTooLong` past
 * {@link MAX_FORM_VALUE_LENGTH}, `formCheckBudget` where the form's patterns spent {@link FORM_REGEX_STEPS} (the
 * fields after it are not checked).
 */
export interface FormFieldProblem {
  field: string;
  code: CsvErrorCode | 'unknownFormField' | 'formValueTooLong' | 'formCheckBudget';
  params: Record<string, unknown>;
}

export type FormFieldsCheck =
  { ok: true; values: Record<string, string> } | { ok: false; problems: FormFieldProblem[] };

/** A value as a problem repeats it: its beginning only. */
export const shownValue = (text: string) =>
  text.length > SHOWN_VALUE_LENGTH ? `${text.slice(0, SHOWN_VALUE_LENGTH)}…` : text;

const shownParams = (params: Record<string, unknown>) =>
  typeof params.value === 'string' ? { ...params, value: shownValue(params.value) } : params;

const fieldText = (raw: unknown) =>
  typeof raw === 'string' ? javaTrim(raw) : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : '';

/**
 * The texts of `input` that the reference fields ask each reference to resolve (a list's elements one by one), by
 * reference name: the rows those texts may designate are all a check of the form reads.
 */
export function referenceTexts(fields: readonly FormField[], input: Record<string, unknown>): Map<string, string[]> {
  const texts = new Map<string, string[]>();
  for (const field of fields) {
    if (field.checker?.kind !== 'reference') continue;
    const text = fieldText(input[field.name]);
    const given = field.checker.multiplicity === 'MANY' ? splitOnCommas(text).map(javaTrim) : [text];
    texts.set(field.checker.reference, [
      ...(texts.get(field.checker.reference) ?? []),
      ...given.filter((element) => element !== ''),
    ]);
  }
  return texts;
}

/**
 * Checks the values of a configuration form (`OA_rightsRequest` or an additional-file type) with each field's
 * checker, as a CSV cell of that field would be: required fields must be filled, values must pass their checker.
 * Values are kept as typed (trimmed). Reference checkers look the value up in `references` when given; without
 * them (a device that has not kept the reference) they accept the value and the server decides. Expression
 * checkers need a row to run against and are left to nobody: a form has no row, so they accept. The patterns of
 * all the fields share one budget of steps ({@link FORM_REGEX_STEPS}): the device and the server give the same
 * verdict, and a form costs the server's request thread a bounded time whatever its patterns and values. Problems
 * repeat at most {@link SHOWN_VALUE_LENGTH} characters of a value.
 */
export function checkFormFields(
  fields: readonly FormField[],
  input: Record<string, unknown>,
  references?: (name: string) => readonly StoredRow[] | undefined,
): FormFieldsCheck {
  const problems: FormFieldProblem[] = [];
  const values: Record<string, string> = {};
  const known = new Set(fields.map((field) => field.name));
  const budget = regexBudget(FORM_REGEX_STEPS);
  for (const name of Object.keys(input)) {
    if (!known.has(name))
      problems.push({ field: shownValue(name), code: 'unknownFormField', params: { field: shownValue(name) } });
  }
  for (const field of fields) {
    const text = fieldText(input[field.name]);
    if (text === '') {
      if (field.required)
        problems.push({ field: field.name, code: 'requiredValueWithComponent', params: { target: field.name } });
      continue;
    }
    if (text.length > MAX_FORM_VALUE_LENGTH) {
      problems.push({
        field: field.name,
        code: 'formValueTooLong',
        params: { target: field.name, max: MAX_FORM_VALUE_LENGTH, length: text.length },
      });
      continue;
    }
    values[field.name] = text;
    const checker = field.checker;
    if (!checker || (checker.kind === 'reference' && !references?.(checker.reference))) continue;
    // Once the budget is spent, the form is refused: the patterns of the fields after are not run.
    if (budget.exceeded !== undefined) continue;
    const compiled = compileChecker(checker, {
      dataName: '',
      reference: (name) => new ReferenceIndex(name, references?.(name) ?? []),
      withoutCopy: () => false,
      partCopy: () => false,
      queued: () => false,
      patternTick: () => valueTick(budget, field.name),
    });
    const target: CheckTarget = { component: field.name, column: field.name };
    const sink: CheckSink = {
      error: (code, _target, params) =>
        problems.push({ field: field.name, code, params: { ...shownParams(params), target: field.name } }),
      link: () => undefined,
      note: () => undefined,
      deferSelfReference: () => text,
      evaluateCheck: () => true,
    };
    let checked;
    try {
      checked = compiled.check(text, target, sink);
    } catch (thrown) {
      if (!(thrown instanceof RegexBudgetExceeded)) throw thrown;
      problems.push({
        field: field.name,
        code: 'formCheckBudget',
        params: { target: field.name, steps: FORM_REGEX_STEPS },
      });
      continue;
    }
    if (checked === INVALID && !problems.some((p) => p.field === field.name)) {
      problems.push({
        field: field.name,
        code: 'patternNotMatchedWithComponent',
        params: { value: shownValue(text), target: field.name },
      });
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, values };
}

/** Problems a refusal names, the first of them; `problemCount` says how many there were. */
export const ANSWERED_PROBLEMS = 20;

/**
 * What a server's refusal of a form says of its problems: the first {@link ANSWERED_PROBLEMS} (values already cut
 * to their beginning) and their count, so that a form of hundreds of refused values is not sent back whole.
 */
export function answeredProblems(problems: readonly FormFieldProblem[]): {
  problems: FormFieldProblem[];
  problemCount: number;
} {
  return { problems: problems.slice(0, ANSWERED_PROBLEMS), problemCount: problems.length };
}

/** The problem that refuses the whole form because its patterns spent their budget, if any. */
export const budgetProblem = (problems: readonly FormFieldProblem[]) =>
  problems.find((problem) => problem.code === 'formCheckBudget');
