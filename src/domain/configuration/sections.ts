import type { MapNode } from './configNode';
import { atKey, type Problems } from './problems';

/** The keys a fixed-key map of the format may hold (§2.3). */
export interface SectionRule {
  readonly mandatory?: readonly string[];
  readonly optional?: readonly string[];
  /** At least one of them must be present. */
  readonly anyOf?: readonly string[];
}

/**
 * Applies the section rule of a map in the original's order — unexpected keys, then missing mandatory keys, then
 * the any-of group — and stops at the first failing step, reporting one error for it. Returns whether all passed.
 * Validation of the map's known keys goes on either way.
 */
export function checkSection(map: MapNode, rule: SectionRule, path: string, problems: Problems): boolean {
  const { expected, expectedSet } = expectedKeys(rule);
  const unexpected = map.entries.filter((entry) => !expectedSet.has(entry.key));
  if (unexpected.length > 0) {
    const farFromAny = unexpected.filter((entry) => {
      const approaching = closestLabel(entry.key, expected);
      if (approaching === undefined) return true;
      problems.report(
        'UNEXPECTED_SECTION_WITH_APPROACHING_LABEL_SECTION',
        path,
        { unexpectedSection: entry.key, approachingSection: approaching, expectedSections: expected },
        atKey(map, entry),
      );
      return false;
    });
    if (farFromAny.length > 0) {
      problems.report(
        'UNEXPECTED_SECTIONS',
        path,
        { unexpectedSections: farFromAny.map((entry) => entry.key), expectedSections: expected },
        atKey(map, farFromAny[0]),
      );
    }
    return false;
  }
  const missing = (rule.mandatory ?? []).filter((key) => !map.byKey.has(key));
  if (missing.length > 0) {
    problems.report('MISSING_MANDATORIES_SECTIONS', path, { missingMandatoriesSections: [...missing].sort() }, map);
    return false;
  }
  if (rule.anyOf && !rule.anyOf.some((key) => map.byKey.has(key))) {
    problems.report('MISSING_ANY_MANDATORIES_SECTIONS', path, { anyMandatorySections: [...rule.anyOf].sort() }, map);
    return false;
  }
  return true;
}

const expectedByRule = new WeakMap<SectionRule, { expected: string[]; expectedSet: ReadonlySet<string> }>();

/** The keys a rule allows, computed once per rule: rules are constants checked thousands of times in a large file. */
function expectedKeys(rule: SectionRule): { expected: string[]; expectedSet: ReadonlySet<string> } {
  let keys = expectedByRule.get(rule);
  if (!keys) {
    const expected = [...(rule.mandatory ?? []), ...(rule.anyOf ?? []), ...(rule.optional ?? [])];
    keys = { expected, expectedSet: new Set(expected) };
    expectedByRule.set(rule, keys);
  }
  return keys;
}

/** A known label within two edits of an unknown one ("did you mean"), compared without case. */
function closestLabel(label: string, candidates: readonly string[]): string | undefined {
  const lower = label.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - label.length) >= bestDistance) continue;
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning `limit`) once every path costs at least `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMinimum = Math.min(rowMinimum, current[j]);
    }
    if (rowMinimum >= limit) return limit;
    previous = current;
  }
  return previous[b.length];
}
