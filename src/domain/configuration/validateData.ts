import { expressionsOf } from './checkedAgainst';
import { isNull, mapNode, type ConfigNode, type MapNode } from './configNode';
import { componentTypes } from './componentTypes';
import type { EntryScope, ValidationContext } from './context';
import type { Checker, Component, CsvMappingPlan, DataEntry, Hierarchy, LineValidation } from './model';
import { childPath, type Problems } from './problems';
import { checkSection } from './sections';
import { readAuthorizations } from './validateAuthorizations';
import { COMPONENT_SECTIONS, readComponents, type EntryLayout } from './validateComponents';
import { readDisplayPattern } from './validateDisplayPattern';
import { readSubmission } from './validateSubmission';
import { readTagUse, tagSet } from './validateTags';
import { readValidations } from './validateValidations';
import { readBoolean, readI18nTexts, readInteger, readMap, readText, readTextList } from './values';

const DATA_RULE = {
  mandatory: ['OA_naturalKey'],
  anyOf: COMPONENT_SECTIONS.map(([section]) => section),
  optional: [
    'OA_tags',
    'OA_i18n',
    'OA_i18nDisplayPattern',
    'OA_separator',
    'OA_dataHeaderLine',
    'OA_dataFirstLine',
    'OA_allowUnexpectedColumns',
    'OA_validations',
    'OA_authorizations',
    'OA_submission',
  ],
};

/** One entry of `OA_data` (§6): a reference table or a data type, with everything needed to read its files. */
export function readDataEntry(name: string, node: ConfigNode, context: ValidationContext): DataEntry {
  const { problems } = context;
  const path = childPath('OA_data', name);
  const scope: EntryScope = { dataName: name };
  const map: MapNode = readMap(node, path, problems) ?? mapNode(node.source, node.offset, []);
  checkSection(map, DATA_RULE, path, problems);
  const value = (key: string) => map.byKey.get(key)?.value;

  const tags = readTagUse(value('OA_tags'), childPath(path, 'OA_tags'), path, context.tags, problems);
  const layout = readLayout(map, path, problems);
  const reading = readComponents(map, path, layout, context, scope);
  const componentKeys = reading.components.map((component) => component.key);
  const storedKeys = reading.components.flatMap((component) =>
    component.kind === 'pattern' ? [...component.qualifiers, ...component.adjacents].map((part) => part.storedKey) : [],
  );
  const { validations, orderStrict } = readValidations(
    value('OA_validations'),
    childPath(path, 'OA_validations'),
    componentKeys,
    context,
    scope,
    reading.unresolved,
  );
  const types = componentTypes(reading.components, validations, reading.unresolved);
  const submission = readSubmission(value('OA_submission'), path, tags.data, types, context);

  const csv: CsvMappingPlan = {
    separator: layout.separator,
    headerLine: layout.headerLine,
    firstDataLine: layout.firstDataLine,
    allowUnexpectedColumns: layout.allowUnexpectedColumns,
    columns: reading.columns,
    patterns: reading.patterns,
    dynamics: reading.dynamics,
    constants: reading.constants,
    defaults: reading.components
      .filter((component) => 'defaultValue' in component && component.defaultValue !== null)
      .map((component) => component.key),
    computed: reading.components.filter((component) => component.kind === 'computed').map((component) => component.key),
  };

  return {
    name,
    kind: tags.data ? 'dataType' : 'reference',
    tags: tagSet(tags),
    i18n: readI18nTexts(value('OA_i18n'), childPath(path, 'OA_i18n'), problems),
    displayPattern: readDisplayPattern(value('OA_i18nDisplayPattern'), path, componentKeys, storedKeys, context),
    naturalKey: readNaturalKey(value('OA_naturalKey'), path, componentKeys, problems),
    components: reading.components,
    validations,
    hierarchy: hierarchyOf(name, reading.components, validations, orderStrict),
    dependsOn: dependenciesOf(
      name,
      reading.components,
      validations,
      submission.referenceScopes.map((scope) => scope.reference),
    ),
    authorization: readAuthorizations(value('OA_authorizations'), path, types, context),
    submission,
    csv,
  };
}

interface Layout extends EntryLayout {
  separator: string;
  allowUnexpectedColumns: boolean;
}

/** CSV settings (§8). Lines are 1-based; the first data line comes after the header, right after it by default. */
function readLayout(map: MapNode, path: string, problems: Problems): Layout {
  const separator = readText(map.byKey.get('OA_separator')?.value, childPath(path, 'OA_separator'), problems);
  const headerLine = readLineNumber(map, 'OA_dataHeaderLine', path, 1, problems) ?? 1;
  const firstDataLine = readLineNumber(map, 'OA_dataFirstLine', path, headerLine + 1, problems) ?? headerLine + 1;
  return {
    separator: separator ? separator[0] : ';',
    headerLine,
    firstDataLine,
    allowUnexpectedColumns:
      readBoolean(
        map.byKey.get('OA_allowUnexpectedColumns')?.value,
        childPath(path, 'OA_allowUnexpectedColumns'),
        problems,
      ) ?? false,
  };
}

function readLineNumber(
  map: MapNode,
  key: string,
  path: string,
  minimum: number,
  problems: Problems,
): number | undefined {
  const node = map.byKey.get(key)?.value;
  const value = readInteger(node, childPath(path, key), problems);
  if (value === undefined || value >= minimum) return value;
  problems.report(
    'BAD_INTEGER_REQUIRED_SECTIONS',
    childPath(path, key),
    { givenValue: String(value), minValue: minimum, reason: 'belowMinimum' },
    node,
  );
  return undefined;
}

/** `OA_naturalKey` (§9.1): component keys of the entry, at least one. */
function readNaturalKey(
  node: ConfigNode | undefined,
  path: string,
  componentKeys: readonly string[],
  problems: Problems,
): string[] {
  const keyPath = childPath(path, 'OA_naturalKey');
  if (node === undefined) return [];
  const listed = readTextList(node, keyPath, problems);
  if (listed === undefined) {
    if (isNull(node)) problems.report('MISSING_REQUIRED_VALUE', keyPath, {}, node);
    return [];
  }
  if (listed.length === 0) {
    problems.report('EMPTY_ARRAY', keyPath, {}, node);
    return [];
  }
  // Without any component the entry is already reported; every key element would only repeat it.
  const invalid = componentKeys.length === 0 ? [] : listed.filter(({ text }) => !componentKeys.includes(text));
  if (invalid.length > 0) {
    problems.report(
      'INVALID_NATURAL_KEY',
      path,
      { invalidNaturalKeyElements: invalid.map(({ text }) => text), expectedComponentLabel: componentKeys },
      invalid[0].node,
    );
  }
  return listed.map(({ text }) => text);
}

/** Checkers of the entry, with the component each applies to: its components, their pattern parts, its line validations. */
function componentCheckers(
  components: readonly Component[],
  validations: readonly LineValidation[],
): Array<{ component: string; checker: Checker }> {
  const found: Array<{ component: string; checker: Checker }> = [];
  for (const component of components) {
    if (component.checker) found.push({ component: component.key, checker: component.checker });
    if (component.kind === 'pattern') {
      for (const part of [...component.qualifiers, ...component.adjacents])
        if (part.checker) found.push({ component: part.storedKey, checker: part.checker });
    }
  }
  for (const validation of validations)
    for (const component of validation.components) found.push({ component, checker: validation.checker });
  return found;
}

function hierarchyOf(
  name: string,
  components: readonly Component[],
  validations: readonly LineValidation[],
  orderStrict: ReadonlySet<string>,
): Hierarchy {
  const recursiveToItself = (checker: Checker) =>
    checker.kind === 'reference' && checker.reference === name && (checker.isRecursive || checker.isParent);
  const hierarchy: Hierarchy = {
    parents: [],
    recursiveComponent: null,
    // As the original: the tag counts on a validation whose checker is the recursive reference, nowhere else.
    orderStrict: validations.some(
      (validation) => orderStrict.has(validation.name) && recursiveToItself(validation.checker),
    ),
  };
  for (const { component, checker } of componentCheckers(components, validations)) {
    if (checker.kind !== 'reference') continue;
    if (checker.reference === name) {
      if (recursiveToItself(checker) && hierarchy.recursiveComponent === null) hierarchy.recursiveComponent = component;
    } else if (checker.isParent && !hierarchy.parents.some((parent) => parent.component === component)) {
      hierarchy.parents.push({ component, reference: checker.reference });
    }
  }
  return hierarchy;
}

function dependenciesOf(
  name: string,
  components: readonly Component[],
  validations: readonly LineValidation[],
  scopeReferences: readonly string[],
): string[] {
  const needed = new Set<string>();
  const checkers = [
    ...componentCheckers(components, []).map(({ checker }) => checker),
    ...validations.map((validation) => validation.checker),
  ];
  for (const checker of checkers) if (checker.kind === 'reference') needed.add(checker.reference);
  for (const expression of expressionsOf({ components, validations }))
    expression.references.forEach((reference) => needed.add(reference));
  for (const component of components) if (component.kind === 'dynamic') needed.add(component.reference);
  scopeReferences.forEach((reference) => needed.add(reference));
  needed.delete(name);
  return [...needed];
}
