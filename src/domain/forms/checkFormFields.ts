import type { FormField } from '../configuration/model';
import { INVALID, compileChecker, type CheckSink, type CheckTarget } from '../csv/checkers';
import type { CsvErrorCode } from '../csv/errors';
import { ReferenceIndex } from '../csv/references';
import type { StoredRow } from '../csv/types';
import { javaTrim, splitOnCommas } from '../keys';

/** A form field whose value is refused, with the CSV engine's code for the same refusal. */
export interface FormFieldProblem {
  field: string;
  code: CsvErrorCode | 'unknownFormField';
  params: Record<string, unknown>;
}

export type FormFieldsCheck =
  { ok: true; values: Record<string, string> } | { ok: false; problems: FormFieldProblem[] };

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
 * checkers need a row to run against and are left to nobody: a form has no row, so they accept.
 */
export function checkFormFields(
  fields: readonly FormField[],
  input: Record<string, unknown>,
  references?: (name: string) => readonly StoredRow[] | undefined,
): FormFieldsCheck {
  const problems: FormFieldProblem[] = [];
  const values: Record<string, string> = {};
  const known = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(input)) {
    if (!known.has(name)) problems.push({ field: name, code: 'unknownFormField', params: { field: name } });
  }
  for (const field of fields) {
    const text = fieldText(input[field.name]);
    if (text === '') {
      if (field.required)
        problems.push({ field: field.name, code: 'requiredValueWithComponent', params: { target: field.name } });
      continue;
    }
    values[field.name] = text;
    const checker = field.checker;
    if (!checker || (checker.kind === 'reference' && !references?.(checker.reference))) continue;
    const compiled = compileChecker(checker, {
      dataName: '',
      reference: (name) => new ReferenceIndex(name, references?.(name) ?? []),
      withoutCopy: () => false,
      queued: () => false,
    });
    const target: CheckTarget = { component: field.name, column: field.name };
    const sink: CheckSink = {
      error: (code, _target, params) =>
        problems.push({ field: field.name, code, params: { ...params, target: field.name } }),
      link: () => undefined,
      note: () => undefined,
      deferSelfReference: () => text,
      evaluateCheck: () => true,
    };
    if (compiled.check(text, target, sink) === INVALID && !problems.some((p) => p.field === field.name)) {
      problems.push({
        field: field.name,
        code: 'patternNotMatchedWithComponent',
        params: { value: text, target: field.name },
      });
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, values };
}
