import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import type { StoredRow } from '../csv/types';
import { grantsNothing, normalizeRules } from './authorization';
import {
  checkRequestFields,
  entriesOfRules,
  requestCommentProblem,
  requestSubmitKind,
  rulesOfEntries,
  unrequestableOperations,
} from './rightsRequest';

const fixture = readFileSync(
  path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations/surveys-requests.yaml'),
);
const result = validateConfiguration(fixture, 'surveys-requests.yaml');
if (!result.ok) throw new Error(JSON.stringify(result.errors));
const model = result.value;
const form = model.rightsRequest;

const institutes: StoredRow[] = ['inrae', 'cnrs'].map((code) => ({
  naturalKey: code,
  hierarchicalKey: code,
  values: { code, label: code.toUpperCase() },
}));
const references = (name: string) => (name === 'institutes' ? institutes : undefined);
const filled = {
  institute: 'inrae',
  purpose: 'A thesis on rock ptarmigans',
  orcid: '0000-0002-1825-0097',
  until: '31/12/2025',
};

describe('the comment of a rights request', () => {
  it('is required, and holds 3 to 255 characters once trimmed', () => {
    expect(requestCommentProblem('')?.code).toBe('RIGHTS_REQUEST_COMMENT_REQUIRED');
    expect(requestCommentProblem('   ')?.code).toBe('RIGHTS_REQUEST_COMMENT_REQUIRED');
    expect(requestCommentProblem(' ab ')).toEqual({
      code: 'RIGHTS_REQUEST_COMMENT_LENGTH',
      params: { min: 3, max: 255 },
    });
    expect(requestCommentProblem('abc')).toBeNull();
    expect(requestCommentProblem('x'.repeat(255))).toBeNull();
    expect(requestCommentProblem('x'.repeat(256))?.code).toBe('RIGHTS_REQUEST_COMMENT_LENGTH');
  });
});

describe('the form fields of a rights request', () => {
  it('accept values that pass their checkers, trimmed', () => {
    expect(checkRequestFields(form, { ...filled, purpose: '  A thesis  ' }, references)).toEqual({
      ok: true,
      values: { ...filled, purpose: 'A thesis' },
    });
  });

  it('are all required, whatever OA_required says', () => {
    const { until: _until, ...withoutDate } = filled;
    const check = checkRequestFields(form, withoutDate, references);
    expect(check).toEqual({
      ok: false,
      problems: [{ field: 'until', code: 'requiredValueWithComponent', params: { target: 'until' } }],
    });
  });

  it('refuse values their checkers refuse, with the CSV engine codes', () => {
    const check = checkRequestFields(
      form,
      { ...filled, institute: 'ird', orcid: '0000-0002', until: '2025-12-31' },
      references,
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.map((p) => [p.field, p.code])).toEqual([
      ['institute', 'invalidReferenceWithComponent'],
      ['orcid', 'patternNotMatchedWithComponent'],
      ['until', 'invalidDateWithComponent'],
    ]);
  });

  it('leave a reference value to the server when the device has not kept the reference', () => {
    expect(checkRequestFields(form, { ...filled, institute: 'ird' }).ok).toBe(true);
  });

  it('refuse fields the form does not have', () => {
    const check = checkRequestFields(form, { ...filled, budget: '1000' }, references);
    expect(check.ok ? [] : check.problems).toEqual([
      { field: 'budget', code: 'unknownFormField', params: { field: 'budget' } },
    ]);
  });

  it('are none for an application without a request form', () => {
    expect(checkRequestFields(null, {})).toEqual({ ok: true, values: {} });
  });
});

describe('the rights a request asks for', () => {
  const rulesOf = (request: Parameters<typeof normalizeRules>[1]) => {
    const normalized = normalizeRules(model, request, false);
    if (!normalized.ok) throw new Error(JSON.stringify(normalized.problems));
    return normalized.rules;
  };

  it('are reading only: any other operation (or one a dependency brings) is named', () => {
    expect(unrequestableOperations(model, rulesOf({ authorizationForAll: { sites: ['extraction'] } }))).toEqual([]);
    expect(unrequestableOperations(model, rulesOf({ authorizationForAll: { sites: ['depot'] } }))).toEqual([
      { dataName: 'sites', operation: 'depot' },
    ]);
    const restricted = rulesOf({
      authorizationsWithRestriction: {
        counts: { operationTypes: ['publication'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
      },
    });
    expect(
      unrequestableOperations(model, restricted)
        .map((r) => r.operation)
        .sort(),
    ).toEqual(['delete', 'depot', 'publication']);
    expect(unrequestableOperations(model, rulesOf({ authorizationForAll: { counts: ['admin'] } }))).toEqual([
      { dataName: 'counts', operation: 'admin' },
    ]);
  });

  it('may be nothing at all', () => {
    expect(grantsNothing(rulesOf({}))).toBe(true);
    expect(grantsNothing(rulesOf({ authorizationForAll: { sites: ['extraction'] } }))).toBe(false);
  });

  it('are listed as the API lists them, and read back', () => {
    const rules = rulesOf({
      authorizationForAll: { sites: ['extraction'] },
      authorizationsWithRestriction: {
        counts: {
          operationTypes: ['extraction'],
          requiredAuthorizations: { site: ['sitesKlac_blanc'] },
          fromDay: '2024-06-01',
          toDay: '2024-06-30',
        },
      },
    });
    const entries = entriesOfRules(rules);
    expect(entries).toEqual({
      sites: [{ operationTypes: ['extraction'], requiredAuthorizations: {}, fromDay: null, toDay: null }],
      counts: [
        {
          operationTypes: ['extraction'],
          requiredAuthorizations: { site: ['sitesKlac_blanc'] },
          fromDay: '2024-06-01',
          toDay: '2024-06-30',
        },
      ],
    });
    expect(rulesOfEntries(entries)).toEqual(rules);
  });
});

describe('the main action of a request screen', () => {
  it('sends a new request, grants an open one for managers, modifies it for its requester', () => {
    expect(requestSubmitKind(false, true)).toBe('send');
    expect(requestSubmitKind(true, true)).toBe('send');
    expect(requestSubmitKind(true, false)).toBe('grant');
    expect(requestSubmitKind(false, false)).toBe('modify');
  });
});
