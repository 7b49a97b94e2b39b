import { isNull, type ConfigNode, type MapNode } from './configNode';
import type { ComponentTypes } from './componentTypes';
import type { ValidationContext } from './context';
import type { FileNameRule, ReferenceScope, Submission, SubmissionStrategy, TimeScope } from './model';
import { childPath, type Problems } from './problems';
import { checkSection } from './sections';
import { readRegex } from './validateCheckers';
import { readEnum, readI18nTexts, readList, readMap, readText, readTextList } from './values';

const STRATEGIES: readonly SubmissionStrategy[] = ['OA_INSERTION', 'OA_VERSIONING'];
const PERIOD_BOUNDS = ['__START_DATE__', '__END_DATE__'];

const SUBMISSION_RULE = { optional: ['OA_strategy'], anyOf: ['OA_submissionScope', 'OA_fileName'] };
const SCOPE_RULE = { optional: ['OA_referenceScopes', 'OA_timeScope'] };
const REFERENCE_SCOPE_RULE = { mandatory: ['OA_reference', 'OA_component'], optional: ['OA_i18n', 'OA_exportHeader'] };
const TIME_SCOPE_RULE = { optional: ['OA_component'] };
const FILE_NAME_RULE = { mandatory: ['OA_filePattern'], optional: ['OA_matchPatternScopes'] };

const NO_SUBMISSION: Submission = { strategy: 'OA_INSERTION', referenceScopes: [], timeScope: null, fileName: null };

/**
 * `OA_submission` (§14): how files of an entry are deposited. Versioning is for data types only. Reference scopes
 * pair a reference with the component of the entry that holds it; their semantic errors use the original's path
 * index, which starts at 2 for the first scope.
 */
export function readSubmission(
  node: ConfigNode | undefined,
  dataPath: string,
  isDataType: boolean,
  types: ComponentTypes,
  context: ValidationContext,
): Submission {
  const { problems } = context;
  const path = childPath(dataPath, 'OA_submission');
  const map = readMap(node, path, problems);
  if (!map) return { ...NO_SUBMISSION };
  checkSection(map, SUBMISSION_RULE, path, problems);

  const strategy = readStrategy(map.byKey.get('OA_strategy')?.value, childPath(path, 'OA_strategy'), problems);
  if (strategy === 'OA_VERSIONING' && !isDataType)
    problems.report('UNEXPECTED_SUBMISSION', dataPath, { strategy }, map.byKey.get('OA_strategy')!.value);

  const scopePath = childPath(path, 'OA_submissionScope');
  const scopeMap = readMap(map.byKey.get('OA_submissionScope')?.value, scopePath, problems);
  if (scopeMap) checkSection(scopeMap, SCOPE_RULE, scopePath, problems);
  const scopes = readReferenceScopes(
    scopeMap?.byKey.get('OA_referenceScopes')?.value,
    childPath(scopePath, 'OA_referenceScopes'),
    types,
    context,
  );
  const timeScope = readTimeScope(
    scopeMap?.byKey.get('OA_timeScope')?.value,
    childPath(scopePath, 'OA_timeScope'),
    types,
    problems,
  );
  const fileName = readFileName(map.byKey.get('OA_fileName')?.value, childPath(path, 'OA_fileName'), scopes, context);

  return { strategy: strategy ?? 'OA_INSERTION', referenceScopes: scopes.valid, timeScope, fileName };
}

function readStrategy(node: ConfigNode | undefined, path: string, problems: Problems): SubmissionStrategy | undefined {
  if (node !== undefined && node.kind !== 'scalar') {
    problems.report(
      'UNKNOWN_STRATEGY_SUBMISSION',
      path,
      { declaredStrategy: node.kind, allStrategy: STRATEGIES },
      node,
    );
    return undefined;
  }
  return readEnum(node, path, STRATEGIES, problems);
}

interface ScopesReading {
  valid: ReferenceScope[];
  /** Component names as declared, valid or not: the names `OA_matchPatternScopes` may use. */
  declaredComponents: string[];
  /** Whether some element was too broken to know its component, so that file-name scopes cannot be checked. */
  incomplete: boolean;
}

function readReferenceScopes(
  node: ConfigNode | undefined,
  path: string,
  types: ComponentTypes,
  context: ValidationContext,
): ScopesReading {
  const { problems } = context;
  const reading: ScopesReading = { valid: [], declaredComponents: [], incomplete: false };
  const list = readList(node, path, problems);
  const referenceComponents = [...types.referenceOf.keys()];
  list?.items.forEach((item, index) => {
    const elementPath = childPath(path, index);
    const semanticPath = childPath(path, index + 2);
    const map = readMap(item, elementPath, problems);
    if (!map || !checkSection(map, REFERENCE_SCOPE_RULE, elementPath, problems)) {
      reading.incomplete = true;
      return;
    }
    const reference = requiredText(map, 'OA_reference', elementPath, problems);
    const component = requiredText(map, 'OA_component', elementPath, problems);
    if (reference === undefined || component === undefined) {
      reading.incomplete = true;
      return;
    }
    if (component === '') reading.incomplete = true;
    else reading.declaredComponents.push(component);
    if (reference === '' && component === '') {
      problems.report(
        'MISSING_REFERENCE_AND_COMPONENT_NAME',
        semanticPath,
        { allDataNames: context.dataNames, knownComponents: referenceComponents },
        map,
      );
      return;
    }
    if (reference === '') {
      problems.report(
        'MISSING_REFERENCE_NAME',
        childPath(elementPath, 'OA_reference'),
        { allDataNames: context.dataNames },
        map.byKey.get('OA_reference')!.value,
      );
      return;
    }
    const componentNode = map.byKey.get('OA_component')!.value;
    if (component === '') {
      problems.report(
        'MISSING_COMPONENT_FOR_COMPONENT_NAME',
        childPath(semanticPath, 'OA_component'),
        { knownComponents: referenceComponents },
        componentNode,
      );
      return;
    }
    if (types.unresolved.has(component)) return;
    const held = types.referenceOf.get(component);
    const untyped = types.keys.includes(component) && held === undefined && !types.dateOf.has(component);
    if (held === undefined && !untyped) {
      problems.report(
        'UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
        childPath(semanticPath, 'OA_component'),
        { unknownComponent: component, knownComponents: referenceComponents },
        componentNode,
      );
      return;
    }
    if (held !== undefined && held !== reference) {
      problems.report(
        'INVALID_COMPONENT_REFERENCE_FOR_SUBMISSION_SCOPE_REFERENCE',
        semanticPath,
        { submissionReference: held, componentReference: reference },
        map.byKey.get('OA_reference')!.value,
      );
      return;
    }
    // A plain-text component takes its reference from the scope, which must then exist.
    if (!context.dataNames.includes(reference)) {
      problems.report(
        'UNKNOWN_REFERENCE_NAME',
        childPath(elementPath, 'OA_reference'),
        { referenceName: reference, allDataNames: context.dataNames },
        map.byKey.get('OA_reference')!.value,
      );
      return;
    }
    reading.valid.push({
      reference,
      component,
      i18n: readI18nTexts(map.byKey.get('OA_i18n')?.value, childPath(elementPath, 'OA_i18n'), problems),
      exportHeader: readI18nTexts(
        map.byKey.get('OA_exportHeader')?.value,
        childPath(elementPath, 'OA_exportHeader'),
        problems,
      ),
    });
  });
  return reading;
}

/** A key that must hold a text: null gives `MISSING_REQUIRED_VALUE`; an empty text is returned for the caller to judge. */
function requiredText(map: MapNode, key: string, path: string, problems: Problems): string | undefined {
  const node = map.byKey.get(key)!.value;
  const text = readText(node, childPath(path, key), problems);
  if (text === undefined && isNull(node)) problems.report('MISSING_REQUIRED_VALUE', childPath(path, key), {}, node);
  return text?.trim();
}

function readTimeScope(
  node: ConfigNode | undefined,
  path: string,
  types: ComponentTypes,
  problems: Problems,
): TimeScope | null {
  const map = readMap(node, path, problems);
  if (!map) return null;
  checkSection(map, TIME_SCOPE_RULE, path, problems);
  const componentPath = childPath(path, 'OA_component');
  const componentNode = map.byKey.get('OA_component')?.value;
  const dateComponents = [...types.dateOf.keys()];
  if (componentNode !== undefined && isNull(componentNode)) {
    problems.report('MISSING_REQUIRED_VALUE', componentPath, {}, componentNode);
    return null;
  }
  const component = readText(componentNode, componentPath, problems)?.trim();
  if (!component) {
    if (componentNode === undefined || componentNode.kind === 'scalar')
      problems.report(
        'MISSING_COMPONENT_FOR_TIMESCOPE_SUBMISSION',
        path,
        { knownComponents: dateComponents },
        componentNode ?? map,
      );
    return null;
  }
  const date = types.dateOf.get(component);
  if (!date && types.unresolved.has(component)) return null;
  if (!date) {
    problems.report(
      'UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
      componentPath,
      { unknownComponent: component, knownComponents: dateComponents },
      componentNode,
    );
    return null;
  }
  return { component, ...date };
}

function readFileName(
  node: ConfigNode | undefined,
  path: string,
  scopes: ScopesReading,
  context: ValidationContext,
): FileNameRule | null {
  const { problems } = context;
  const map = readMap(node, path, problems);
  if (!map) return null;
  checkSection(map, FILE_NAME_RULE, path, problems);
  const patternPath = childPath(path, 'OA_filePattern');
  const patternNode = map.byKey.get('OA_filePattern')?.value;
  if (patternNode !== undefined && isNull(patternNode))
    problems.report('MISSING_REQUIRED_VALUE', patternPath, {}, patternNode);
  const pattern = patternNode === undefined ? undefined : readRegex(patternNode, patternPath, context);

  const matchPatternScopes: string[] = [];
  for (const { text, node: item } of readTextList(
    map.byKey.get('OA_matchPatternScopes')?.value,
    childPath(path, 'OA_matchPatternScopes'),
    problems,
  ) ?? []) {
    matchPatternScopes.push(text);
    if (scopes.incomplete || PERIOD_BOUNDS.includes(text) || scopes.declaredComponents.includes(text)) continue;
    problems.report(
      'UNKNOWN_NAME_REFERENCE_SCOPE',
      `OA_submission > OA_fileName > OA_referenceScopes > ${text}`,
      { unknownAuthorizationScope: text, knownAuthorizationScope: scopes.declaredComponents },
      item,
    );
  }
  return pattern ? { pattern, matchPatternScopes } : null;
}
