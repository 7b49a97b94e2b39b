import { compileJavaRegex, type JavaRegex } from '../regex';
import { isNull, type ConfigNode, type MapNode } from './configNode';
import type { EntryScope, ValidationContext } from './context';
import { DURATION_LIMITS, parseDuration, spansTooLong, type Duration } from './duration';
import { compileJavaDatePattern, fieldWithoutItsUnit, type DatePatternCompilation } from './javaDatePattern';
import { toIsoLocalDateTime } from './localDateTime';
import type { Checker, DateBound, Multiplicity } from './model';
import { childPath } from './problems';
import { checkSection, type SectionRule } from './sections';
import { readExpressionSection } from './validateExpressions';
import { readBoolean, readEnum, readFloat, readInteger, readMap, readText } from './values';

export const CHECKER_NAMES = [
  'OA_reference',
  'OA_boolean',
  'OA_date',
  'OA_integer',
  'OA_float',
  'OA_string',
  'OA_groovyExpression',
] as const;
type CheckerName = (typeof CHECKER_NAMES)[number];

const MULTIPLICITIES: readonly Multiplicity[] = ['ONE', 'MANY'];

const CHECKER_RULE = { optional: ['OA_name', 'OA_params'] };
const REFERENCE_RULE = { mandatory: ['OA_name'], optional: ['OA_isParent', 'OA_isRecursive'] };
const GROOVY_RULE = { mandatory: ['OA_expression'], optional: ['OA_references', 'OA_groovyExceptions'] };

/** Parameters each checker accepts (§10.1). */
const PARAMS_RULES: Record<CheckerName, SectionRule> = {
  OA_reference: { mandatory: ['OA_reference'], optional: ['OA_multiplicity'] },
  OA_date: { optional: ['OA_pattern', 'OA_min', 'OA_max', 'OA_duration', 'OA_multiplicity'] },
  OA_integer: { optional: ['OA_min', 'OA_max', 'OA_multiplicity'] },
  OA_float: { optional: ['OA_min', 'OA_max', 'OA_multiplicity'] },
  OA_string: { optional: ['OA_pattern', 'OA_multiplicity'] },
  OA_boolean: { optional: ['OA_isTrue', 'OA_multiplicity'] },
  OA_groovyExpression: { mandatory: ['OA_groovy'], optional: ['OA_multiplicity'] },
};

/**
 * An `OA_checker` section (§10) of a component, qualifier, adjacent, validation or form field at `ownerPath`.
 * Returns null when there is none, undefined when it is invalid (errors reported).
 */
export function readChecker(
  node: ConfigNode | undefined,
  ownerPath: string,
  context: ValidationContext,
  entry?: EntryScope,
): Checker | null | undefined {
  const { problems } = context;
  const path = childPath(ownerPath, 'OA_checker');
  if (node === undefined) return null;
  const map = readMap(node, path, problems);
  if (!map) return node.kind === 'scalar' && node.type === 'null' ? null : undefined;
  checkSection(map, CHECKER_RULE, path, problems);

  const nameNode = map.byKey.get('OA_name')?.value;
  const name = readText(nameNode, childPath(path, 'OA_name'), problems);
  if (name === undefined || name.trim() === '') {
    problems.report('MISSING_CHECKER_NAME', ownerPath, { acceptedCheckerNames: CHECKER_NAMES }, nameNode ?? map);
    return undefined;
  }
  if (!(CHECKER_NAMES as readonly string[]).includes(name)) {
    problems.report(
      'UNKNOWN_CHECKER_NAME',
      ownerPath,
      { checkerName: name, acceptedCheckerNames: CHECKER_NAMES },
      nameNode,
    );
    return undefined;
  }
  const paramsPath = childPath(path, 'OA_params');
  const paramsNode = map.byKey.get('OA_params')?.value;
  const params = readMap(paramsNode, paramsPath, problems);
  const reader = new ParamsReader(params, paramsPath, map, context);
  return reader.read(name as CheckerName, entry);
}

const datePatterns = new Map<string, DatePatternCompilation>();
const CACHE_LIMIT = 2_000;

function cached<Value>(cache: Map<string, Value>, key: string, compute: (key: string) => Value): Value {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    value = compute(key);
    cache.set(key, value);
  }
  return value;
}

function compileDatePatternCached(pattern: string): DatePatternCompilation {
  return cached(datePatterns, pattern, compileJavaDatePattern);
}

/**
 * Compiles a Java regex of the configuration, reporting a bad one or one that needs backtracking (§18.2 has no code
 * of its own for it: `UNKNOWN`). The model keeps the pattern as plain data.
 */
export function readRegex(
  node: ConfigNode | undefined,
  path: string,
  context: ValidationContext,
): JavaRegex | undefined {
  const source = readText(node, path, context.problems);
  if (source === undefined) return undefined;
  const compiled = compileJavaRegex(source);
  if (compiled.ok) return { source, groupCount: compiled.regex.groupCount };
  context.problems.report(
    'UNKNOWN',
    path,
    { reason: 'invalidRegularExpression', pattern: source, message: compiled.message, index: compiled.index },
    node,
  );
  return undefined;
}

class ParamsReader {
  private readonly problems: ValidationContext['problems'];

  constructor(
    private readonly params: MapNode | undefined,
    private readonly path: string,
    private readonly checker: MapNode,
    private readonly context: ValidationContext,
  ) {
    this.problems = context.problems;
  }

  private node(key: string): ConfigNode | undefined {
    return this.params?.byKey.get(key)?.value;
  }

  private multiplicity(): Multiplicity {
    return (
      readEnum(this.node('OA_multiplicity'), childPath(this.path, 'OA_multiplicity'), MULTIPLICITIES, this.problems) ??
      'ONE'
    );
  }

  read(name: CheckerName, entry: EntryScope | undefined): Checker | undefined {
    if (this.params) checkSection(this.params, PARAMS_RULES[name], this.path, this.problems);
    switch (name) {
      case 'OA_reference':
        return this.reference(entry);
      case 'OA_date':
        return this.date();
      case 'OA_integer':
      case 'OA_float': {
        const read = name === 'OA_integer' ? readInteger : readFloat;
        const min = read(this.node('OA_min'), childPath(this.path, 'OA_min'), this.problems) ?? null;
        const max = read(this.node('OA_max'), childPath(this.path, 'OA_max'), this.problems) ?? null;
        return { kind: name === 'OA_integer' ? 'integer' : 'float', min, max, multiplicity: this.multiplicity() };
      }
      case 'OA_string': {
        const multiplicity = this.multiplicity();
        const patternNode = this.node('OA_pattern');
        if (isNull(patternNode)) return { kind: 'string', pattern: null, multiplicity };
        const pattern = readRegex(patternNode, childPath(this.path, 'OA_pattern'), this.context);
        return pattern ? { kind: 'string', pattern, multiplicity } : undefined;
      }
      case 'OA_boolean':
        return {
          kind: 'boolean',
          isTrue: readText(this.node('OA_isTrue'), childPath(this.path, 'OA_isTrue'), this.problems) ?? null,
          multiplicity: this.multiplicity(),
        };
      case 'OA_groovyExpression':
        return this.groovy();
    }
  }

  private reference(entry: EntryScope | undefined): Checker | undefined {
    if (!this.params) {
      this.problems.report(
        'MISSING_MANDATORIES_SECTIONS',
        this.path,
        { missingMandatoriesSections: ['OA_reference'] },
        this.checker,
      );
      return undefined;
    }
    const referencePath = childPath(this.path, 'OA_reference');
    const referenceMap = readMap(this.node('OA_reference'), referencePath, this.problems);
    const multiplicity = this.multiplicity();
    if (!referenceMap) return undefined;
    checkSection(referenceMap, REFERENCE_RULE, referencePath, this.problems);
    const isParent =
      readBoolean(
        referenceMap.byKey.get('OA_isParent')?.value,
        childPath(referencePath, 'OA_isParent'),
        this.problems,
      ) ?? false;
    const explicitRecursive = readBoolean(
      referenceMap.byKey.get('OA_isRecursive')?.value,
      childPath(referencePath, 'OA_isRecursive'),
      this.problems,
    );

    const namePath = childPath(referencePath, 'OA_name');
    if (!referenceMap.byKey.has('OA_name')) return undefined;
    const nameNode = referenceMap.byKey.get('OA_name')!.value;
    const reference = readReferenceName(nameNode, namePath, this.context);
    if (reference === undefined) return undefined;
    const isRecursive = explicitRecursive ?? (isParent && reference === entry?.dataName);
    return { kind: 'reference', reference, isParent, isRecursive, multiplicity };
  }

  private date(): Checker | undefined {
    const patternPath = childPath(this.path, 'OA_pattern');
    const patternNode = this.node('OA_pattern');
    const multiplicity = this.multiplicity();
    const duration = this.duration();
    if (
      patternNode === undefined ||
      (patternNode.kind === 'scalar' && patternNode.type === 'string' && patternNode.text.trim() === '')
    ) {
      this.problems.report(
        'MISSING_PATTERN_FOR_CHECKER_DATE',
        patternNode ? patternPath : this.path,
        {},
        patternNode ?? this.params ?? this.checker,
      );
      return undefined;
    }
    const pattern = readText(patternNode, patternPath, this.problems);
    if (pattern === undefined) {
      if (patternNode.kind === 'scalar') this.problems.report('MISSING_REQUIRED_VALUE', patternPath, {}, patternNode);
      return undefined;
    }
    const compiled = compileDatePatternCached(pattern);
    if (!compiled.ok) {
      const params =
        compiled.maxLength === undefined
          ? { badPattern: pattern, message: compiled.message, index: compiled.index }
          : { badPattern: pattern, reason: 'tooLong', length: pattern.length, maxLength: compiled.maxLength };
      this.problems.report('INVALID_PATTERN_FOR_CHECKER_DATE', patternPath, params, patternNode);
      return undefined;
    }
    const unanchored = fieldWithoutItsUnit(compiled.pattern);
    if (unanchored) {
      this.problems.report(
        'INVALID_PATTERN_FOR_CHECKER_DATE',
        patternPath,
        { badPattern: pattern, message: unanchored.message, index: unanchored.index },
        patternNode,
      );
      return undefined;
    }
    const minText = readText(this.node('OA_min'), childPath(this.path, 'OA_min'), this.problems);
    const maxText = readText(this.node('OA_max'), childPath(this.path, 'OA_max'), this.problems);
    const bound = (text: string | undefined): DateBound | null | undefined => {
      if (text === undefined) return null;
      const value = compiled.pattern.parse(text);
      return value ? { text, iso: toIsoLocalDateTime(value) } : undefined;
    };
    const min = bound(minText);
    const max = bound(maxText);
    if (min === undefined || max === undefined) {
      this.problems.report(
        'INVALID_MIN_MAX_FOR_CHECKER_DATE',
        this.path,
        { declaredMinValue: minText ?? null, declaredMaxValue: maxText ?? null, declaredPattern: pattern },
        min === undefined ? this.node('OA_min') : this.node('OA_max'),
      );
      return undefined;
    }
    if (duration === undefined) return undefined;
    return { kind: 'date', pattern, min, max, duration, multiplicity };
  }

  private duration(): Duration | null | undefined {
    const node = this.node('OA_duration');
    const text = readText(node, childPath(this.path, 'OA_duration'), this.problems);
    if (text === undefined) return node === undefined || node.kind === 'scalar' ? null : undefined;
    const durationPath = childPath(this.path, 'OA_duration');
    if (text.length > DURATION_LIMITS.maxLength) {
      const params = { declaredDuration: text, reason: 'textTooLong', length: text.length, ...DURATION_LIMITS };
      this.problems.report('INVALID_DURATION_CHECKER_DATE', durationPath, params, node);
      return undefined;
    }
    const duration = parseDuration(text);
    if (!duration) {
      this.problems.report('INVALID_DURATION_CHECKER_DATE', this.path, { declaredDuration: text }, node);
      return undefined;
    }
    if (spansTooLong(duration)) {
      const params = { declaredDuration: text, reason: 'spanTooLong', maxYears: DURATION_LIMITS.maxYears };
      this.problems.report('INVALID_DURATION_CHECKER_DATE', durationPath, params, node);
      return undefined;
    }
    return duration;
  }

  private groovy(): Checker | undefined {
    if (!this.params) {
      this.problems.report(
        'MISSING_MANDATORIES_SECTIONS',
        this.path,
        { missingMandatoriesSections: ['OA_groovy'] },
        this.checker,
      );
      return undefined;
    }
    const multiplicity = this.multiplicity();
    const groovyPath = childPath(this.path, 'OA_groovy');
    const groovy = readMap(this.node('OA_groovy'), groovyPath, this.problems);
    if (!groovy) return undefined;
    const expression = readExpressionSection(groovy, groovyPath, GROOVY_RULE, this.context);
    return expression ? { kind: 'expression', expression, multiplicity } : undefined;
  }
}

/**
 * A data name given by a reference checker or a dynamic component: null → `MISSING_REQUIRED_VALUE`, empty →
 * `MISSING_REFERENCE_NAME`, unknown → `UNKNOWN_REFERENCE_NAME`. Surrounding double quotes are dropped.
 */
export function readReferenceName(node: ConfigNode, path: string, context: ValidationContext): string | undefined {
  const { problems } = context;
  const raw = readText(node, path, problems);
  if (raw === undefined) {
    if (node.kind === 'scalar') problems.report('MISSING_REQUIRED_VALUE', path, {}, node);
    return undefined;
  }
  const name = raw.trim().replace(/^"(.*)"$/, '$1');
  if (name === '') {
    problems.report('MISSING_REFERENCE_NAME', path, { allDataNames: context.dataNames }, node);
    return undefined;
  }
  if (!context.dataNames.includes(name)) {
    problems.report('UNKNOWN_REFERENCE_NAME', path, { referenceName: name, allDataNames: context.dataNames }, node);
    return undefined;
  }
  return name;
}
