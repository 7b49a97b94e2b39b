import type { ApplicationOutline } from '../applications/outline';
import type { RightsRequestForm } from '../configuration/model';
import type { StoredRow } from '../csv/types';
import { checkFormFields, type FormFieldsCheck } from '../forms/checkFormFields';
import type { AuthorizationRules } from './authorization';
import { operationColumns, type Operation } from './operations';

/**
 * A rights request: a user fills in the application's `OA_rightsRequest` form, writes a comment and checks the
 * rights they ask for; a manager grants it (an authorization is created for the requester) or closes it.
 * These rules are the same on the device (before the outbox keeps a request) and on the server.
 */
export const REQUEST_COMMENT_MIN = 3;
export const REQUEST_COMMENT_MAX = 255;

export type RequestCommentProblem = {
  code: 'RIGHTS_REQUEST_COMMENT_REQUIRED' | 'RIGHTS_REQUEST_COMMENT_LENGTH';
  params: { min: number; max: number };
};

/** Every save carries a comment of 3 to 255 characters (blank is refused, which is what granting needs). */
export function requestCommentProblem(comment: string): RequestCommentProblem | null {
  const text = comment.trim();
  const params = { min: REQUEST_COMMENT_MIN, max: REQUEST_COMMENT_MAX };
  if (text === '') return { code: 'RIGHTS_REQUEST_COMMENT_REQUIRED', params };
  if (text.length < REQUEST_COMMENT_MIN || text.length > REQUEST_COMMENT_MAX)
    return { code: 'RIGHTS_REQUEST_COMMENT_LENGTH', params };
  return null;
}

/**
 * The form's values checked by each field's checker. Saving needs every field filled, whatever `OA_required`
 * says (the spec's rule for this form), so every field is checked as required.
 */
export function checkRequestFields(
  form: RightsRequestForm | null,
  input: Record<string, unknown>,
  references?: (name: string) => readonly StoredRow[] | undefined,
): FormFieldsCheck {
  const fields = (form?.fields ?? []).map((field) => ({ ...field, required: true }));
  return checkFormFields(fields, input, references);
}

/** Operations asked for that a request may not carry: only the columns flagged `forRequest` (reading). */
export function unrequestableOperations(
  model: ApplicationOutline,
  rules: AuthorizationRules,
): Array<{ dataName: string; operation: Operation }> {
  const requestable = new Map(
    model.data.map((entry) => [
      entry.name,
      new Set(
        operationColumns(entry)
          .filter((c) => c.forRequest)
          .map((c) => c.operation),
      ),
    ]),
  );
  const found: Array<{ dataName: string; operation: Operation }> = [];
  const check = (dataName: string, operations: Operation[]) => {
    for (const operation of operations) {
      if (
        !requestable.get(dataName)?.has(operation) &&
        !found.some((f) => f.dataName === dataName && f.operation === operation)
      )
        found.push({ dataName, operation });
    }
  };
  for (const [dataName, operations] of Object.entries(rules.forAll)) check(dataName, operations);
  for (const [dataName, grants] of Object.entries(rules.restricted))
    for (const grant of grants) check(dataName, grant.operations);
  return found;
}

/** One right asked for on a data entry, as the API lists them (api.md §13.2: data name → entries). */
export interface RequestedEntry {
  operationTypes: Operation[];
  /** Scope component → hierarchical keys; empty for the whole entry. */
  requiredAuthorizations: Record<string, string[]>;
  fromDay: string | null;
  toDay: string | null;
}

export function entriesOfRules(rules: AuthorizationRules): Record<string, RequestedEntry[]> {
  const entries: Record<string, RequestedEntry[]> = {};
  for (const [dataName, operations] of Object.entries(rules.forAll))
    entries[dataName] = [{ operationTypes: operations, requiredAuthorizations: {}, fromDay: null, toDay: null }];
  for (const [dataName, grants] of Object.entries(rules.restricted)) {
    for (const grant of grants)
      (entries[dataName] ??= []).push({
        operationTypes: grant.operations,
        requiredAuthorizations: grant.scopes,
        fromDay: grant.from,
        toDay: grant.to,
      });
  }
  return entries;
}

/** The inverse of {@link entriesOfRules}: an entry without scope nor period is a right on the whole entry. */
export function rulesOfEntries(entries: Record<string, RequestedEntry[]>): AuthorizationRules {
  const rules: AuthorizationRules = { forAll: {}, restricted: {} };
  for (const [dataName, list] of Object.entries(entries)) {
    for (const entry of list) {
      const whole = Object.keys(entry.requiredAuthorizations).length === 0 && !entry.fromDay && !entry.toDay;
      if (whole) rules.forAll[dataName] = [...new Set([...(rules.forAll[dataName] ?? []), ...entry.operationTypes])];
      else
        (rules.restricted[dataName] ??= []).push({
          operations: entry.operationTypes,
          scopes: entry.requiredAuthorizations,
          from: entry.fromDay,
          to: entry.toDay,
        });
    }
  }
  return rules;
}

/** Open until treated; treated requests are granted (an authorization was made) or closed without one. */
export type RequestStatus = 'open' | 'granted' | 'closed';

/**
 * The main action of a request's screen (spec §2): a new request is sent; an open one is granted by those who
 * treat requests (managers, user managers), and modified by its requester.
 */
export function requestSubmitKind(treatsRequests: boolean, isNew: boolean): 'grant' | 'send' | 'modify' {
  if (isNew) return 'send';
  return treatsRequests ? 'grant' : 'modify';
}
