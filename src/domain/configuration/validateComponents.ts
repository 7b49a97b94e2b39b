import { isNull, type ConfigNode, type MapEntry, type MapNode } from './configNode';
import type { EntryScope, ValidationContext } from './context';
import { checkIdentifiers } from './identifiers';
import { dropCheckerFromExportHeader } from './misplacedChecker';
import type {
  BasicComponent,
  Component,
  ComponentKind,
  ComputedComponent,
  ConstantBinding,
  DynamicComponent,
  PatternBinding,
} from './model';
import { atKey, childPath } from './problems';
import { checkSection } from './sections';
import { readChecker, readReferenceName } from './validateCheckers';
import { readConstantTarget } from './validateConstantTarget';
import { readDefaultValue, readExpressionSection } from './validateExpressions';
import { readPatternParts } from './validatePatternComponent';
import { readTagUse, tagSet } from './validateTags';
import {
  readBoolean,
  readI18nTexts,
  readLangRestrictions,
  readMap,
  readRequiredText,
  readText,
  readTextList,
} from './values';

/** The five component sections of a data entry and the kind each declares. */
export const COMPONENT_SECTIONS: ReadonlyArray<[string, ComponentKind]> = [
  ['OA_basicComponents', 'basic'],
  ['OA_computedComponents', 'computed'],
  ['OA_dynamicComponents', 'dynamic'],
  ['OA_patternComponents', 'pattern'],
  ['OA_constantComponents', 'constant'],
];

const SECTION_KIND = new Map(COMPONENT_SECTIONS);

const HEADER_NAME_RULE = { mandatory: ['OA_headerName'] };
const COMPUTATION_RULE = { mandatory: ['OA_expression'], optional: ['OA_references', 'OA_groovyExceptions'] };
const COMMON_KEYS = ['OA_tags', 'OA_exportHeader', 'OA_checker', 'OA_langRestrictions'];
const COMPONENT_RULES: Record<ComponentKind, { mandatory?: string[]; optional: string[] }> = {
  basic: { optional: [...COMMON_KEYS, 'OA_importHeader', 'OA_required', 'OA_mandatory', 'OA_defaultValue'] },
  computed: { optional: [...COMMON_KEYS, 'OA_computation', 'OA_withNaturalKeyComponents', 'OA_required'] },
  dynamic: {
    mandatory: ['OA_headerPrefix', 'OA_reference', 'OA_referenceComponentToLookForHeader'],
    optional: COMMON_KEYS,
  },
  pattern: {
    mandatory: ['OA_patternForComponents'],
    optional: [...COMMON_KEYS, 'OA_componentQualifiers', 'OA_componentAdjacents', 'OA_required', 'OA_defaultValue'],
  },
  constant: { mandatory: ['OA_importHeaderTarget'], optional: [...COMMON_KEYS, 'OA_required', 'OA_defaultValue'] },
};

/** The entry settings that component mapping depends on. */
export interface EntryLayout {
  headerLine: number;
  firstDataLine: number;
}

/** Components of one entry with the mapping of the ones read from the file (§7). */
export interface ComponentsReading {
  components: Component[];
  columns: Array<{ component: string; header: string; mandatory: boolean }>;
  patterns: PatternBinding[];
  dynamics: Array<{ component: string; headerPrefix: string; reference: string; referenceComponent: string }>;
  constants: ConstantBinding[];
  /** Components whose checker is invalid (reported). */
  unresolved: Set<string>;
}

/** Keys of every component of an entry, all kinds, as they appear: used before validation for cross-entry checks. */
export function outlineComponentKeys(entry: MapNode): string[] {
  const keys: string[] = [];
  for (const section of entry.entries) {
    if (SECTION_KIND.has(section.key) && section.value.kind === 'map')
      keys.push(...section.value.entries.map((component) => component.key));
  }
  return keys;
}

export function readComponents(
  entry: MapNode,
  path: string,
  layout: EntryLayout,
  context: ValidationContext,
  scope: EntryScope,
): ComponentsReading {
  const reading: ComponentsReading = {
    components: [],
    columns: [],
    patterns: [],
    dynamics: [],
    constants: [],
    unresolved: new Set(),
  };
  const firstPathOf = new Map<string, string>();
  const knownKeys = context.outlines.get(scope.dataName)?.componentKeys ?? [];

  for (const section of entry.entries) {
    const kind = SECTION_KIND.get(section.key);
    if (!kind) continue;
    const sectionPath = childPath(path, section.key);
    const sectionMap = readMap(section.value, sectionPath, context.problems);
    if (!sectionMap) continue;
    checkIdentifiers(sectionMap, sectionPath, context.problems);
    for (const item of sectionMap.entries) {
      const componentPath = childPath(sectionPath, item.key);
      const first = firstPathOf.get(item.key);
      if (first !== undefined) {
        context.problems.report(
          'DUPLICATED_COMPONENT_NAME',
          componentPath,
          { duplicatedPathes: [first, componentPath] },
          atKey(sectionMap, item),
        );
        continue;
      }
      firstPathOf.set(item.key, componentPath);
      readComponent(kind, item, componentPath, { layout, knownKeys, reading, context, scope, owner: sectionMap });
    }
  }
  reportDuplicatedHeaders(reading, entry, path, context, scope);
  resolveConstantColumnNames(reading);
  return reading;
}

/**
 * A constant below the header may name its column (`OA_columnName: site`): the name of a basic component stands
 * for that component's import header, anything else is taken as a header text.
 */
function resolveConstantColumnNames(reading: ComponentsReading): void {
  const headerOf = new Map(reading.columns.map((column) => [column.component, column.header]));
  for (const constant of reading.constants) {
    if ('header' in constant.column)
      constant.column = { header: headerOf.get(constant.column.header) ?? constant.column.header };
  }
}

interface ComponentScope {
  layout: EntryLayout;
  knownKeys: readonly string[];
  reading: ComponentsReading;
  context: ValidationContext;
  scope: EntryScope;
  owner: MapNode;
}

function valueOf(map: MapNode | undefined, key: string): ConfigNode | undefined {
  return map?.byKey.get(key)?.value;
}

function readComponent(kind: ComponentKind, item: MapEntry, path: string, where: ComponentScope): void {
  const { context, reading, scope } = where;
  const { problems } = context;
  const written = readMap(item.value, path, problems);
  const map = written && dropCheckerFromExportHeader(written, path, problems);
  if (map) checkSection(map, COMPONENT_RULES[kind], path, problems);

  const tagsPath = childPath(path, 'OA_tags');
  const checker = readChecker(valueOf(map, 'OA_checker'), path, context, scope);
  if (checker === undefined) reading.unresolved.add(item.key);
  const key = item.key;
  const tags = tagSet(readTagUse(valueOf(map, 'OA_tags'), tagsPath, tagsPath, context.tags, problems));
  const exportHeader = readI18nTexts(valueOf(map, 'OA_exportHeader'), childPath(path, 'OA_exportHeader'), problems);
  const required = readBoolean(valueOf(map, 'OA_required'), childPath(path, 'OA_required'), problems) ?? false;
  const langRestrictions = readLangRestrictions(
    valueOf(map, 'OA_langRestrictions'),
    childPath(path, 'OA_langRestrictions'),
    problems,
  );

  // Each component is one literal: spreading shared fields into it made this function a third of the validation time.
  switch (kind) {
    case 'basic': {
      const component: BasicComponent = {
        key,
        tags,
        exportHeader,
        required,
        checker: checker ?? null,
        langRestrictions,
        kind,
        mandatory: readBoolean(valueOf(map, 'OA_mandatory'), childPath(path, 'OA_mandatory'), problems) ?? false,
        defaultValue: readDefaultValue(valueOf(map, 'OA_defaultValue'), childPath(path, 'OA_defaultValue'), context),
      };
      reading.components.push(component);
      reading.columns.push({
        component: item.key,
        header: readImportHeader(valueOf(map, 'OA_importHeader'), path, item.key, where),
        mandatory: component.mandatory,
      });
      return;
    }
    case 'computed':
      reading.components.push({
        key,
        tags,
        exportHeader,
        required,
        checker: checker ?? null,
        langRestrictions,
        kind,
        computation: readComputation(map, path, where),
      });
      return;
    case 'dynamic': {
      const dynamic = readDynamic(map, path, where);
      if (!dynamic) return;
      reading.components.push({
        key,
        tags,
        exportHeader,
        required,
        checker: checker ?? null,
        langRestrictions,
        kind,
        ...dynamic,
      });
      reading.dynamics.push({ component: item.key, ...dynamic });
      return;
    }
    case 'pattern': {
      const parts = readPatternParts(map, item.key, path, context, scope);
      const defaultValue = readDefaultValue(
        valueOf(map, 'OA_defaultValue'),
        childPath(path, 'OA_defaultValue'),
        context,
      );
      reading.components.push({
        key,
        tags,
        exportHeader,
        required,
        checker: checker ?? null,
        langRestrictions,
        kind,
        defaultValue,
        qualifiers: parts.qualifiers,
        adjacents: parts.adjacents,
      });
      if (parts.binding) reading.patterns.push(parts.binding);
      return;
    }
    case 'constant': {
      const binding = readConstantTarget(
        valueOf(map, 'OA_importHeaderTarget'),
        childPath(path, 'OA_importHeaderTarget'),
        where.layout,
        context,
      );
      const defaultValue = readDefaultValue(
        valueOf(map, 'OA_defaultValue'),
        childPath(path, 'OA_defaultValue'),
        context,
      );
      reading.components.push({
        key,
        tags,
        exportHeader,
        required,
        checker: checker ?? null,
        langRestrictions,
        kind,
        defaultValue,
      });
      if (binding) reading.constants.push({ ...binding, component: item.key });
      return;
    }
  }
}

/** `OA_importHeader`: a text or `{OA_headerName: text}`, trimmed; the component key when absent. */
function readImportHeader(node: ConfigNode | undefined, path: string, key: string, where: ComponentScope): string {
  const { problems } = where.context;
  const headerPath = childPath(path, 'OA_importHeader');
  if (node?.kind === 'map') {
    checkSection(node, HEADER_NAME_RULE, headerPath, problems);
    const name = readText(node.byKey.get('OA_headerName')?.value, childPath(headerPath, 'OA_headerName'), problems);
    return name?.trim() || key;
  }
  return readText(node, headerPath, problems)?.trim() || key;
}

function readComputation(
  map: MapNode | undefined,
  path: string,
  where: ComponentScope,
): ComputedComponent['computation'] {
  const { context } = where;
  const computationPath = childPath(path, 'OA_computation');
  const computationMap = readMap(map?.byKey.get('OA_computation')?.value, computationPath, context.problems);
  if (computationMap) {
    const expression = readExpressionSection(computationMap, computationPath, COMPUTATION_RULE, context);
    return expression ? { kind: 'expression', expression } : { kind: 'empty' };
  }
  const listPath = childPath(path, 'OA_withNaturalKeyComponents');
  const listed = readTextList(map?.byKey.get('OA_withNaturalKeyComponents')?.value, listPath, context.problems);
  if (!listed) return { kind: 'empty' };
  const missing = listed.filter(({ text }) => !where.knownKeys.includes(text));
  if (missing.length > 0) {
    context.problems.report(
      'MISSING_COMPONENT_FOR_NATURAL_KEY_COMPUTATION',
      listPath,
      { missingComponents: missing.map(({ text }) => text), knownComponents: where.knownKeys },
      missing[0].node,
    );
  }
  return { kind: 'naturalKey', components: listed.map(({ text }) => text) };
}

function readDynamic(
  map: MapNode | undefined,
  path: string,
  where: ComponentScope,
): Pick<DynamicComponent, 'reference' | 'headerPrefix' | 'referenceComponent'> | undefined {
  const { context } = where;
  const { problems } = context;
  if (!map) return undefined;
  const prefixNode = map.byKey.get('OA_headerPrefix')?.value;
  const headerPrefix =
    prefixNode === undefined ? undefined : readText(prefixNode, childPath(path, 'OA_headerPrefix'), problems);
  if (prefixNode !== undefined && isNull(prefixNode))
    problems.report('MISSING_REQUIRED_VALUE', childPath(path, 'OA_headerPrefix'), {}, prefixNode);

  const referenceNode = map.byKey.get('OA_reference')?.value;
  const reference =
    referenceNode === undefined
      ? undefined
      : readReferenceName(referenceNode, childPath(path, 'OA_reference'), context);

  const lookupPath = childPath(path, 'OA_referenceComponentToLookForHeader');
  const lookupNode = map.byKey.get('OA_referenceComponentToLookForHeader')?.value;
  const referenceComponent =
    lookupNode === undefined ? undefined : readRequiredText(lookupNode, lookupPath, problems, map);
  if (reference === undefined || referenceComponent === undefined || headerPrefix === undefined) return undefined;

  const targetKeys = context.outlines.get(reference)?.componentKeys ?? [];
  if (!targetKeys.includes(referenceComponent)) {
    problems.report(
      'UNKNOWN_REFERENCE_COLUMN_TO_LOOK_FOR_HEADER',
      lookupPath,
      { referenceName: reference, columnNameReference: referenceComponent, listColumnsNameReference: targetKeys },
      lookupNode,
    );
    return undefined;
  }
  return { reference, headerPrefix, referenceComponent };
}

/** Two basic components claiming the same header could never both be filled (§7.2). */
function reportDuplicatedHeaders(
  reading: ComponentsReading,
  entry: MapNode,
  path: string,
  context: ValidationContext,
  scope: EntryScope,
): void {
  const byHeader = new Map<string, string[]>();
  for (const column of reading.columns)
    byHeader.set(column.header, [...(byHeader.get(column.header) ?? []), column.component]);
  const basics = entry.byKey.get('OA_basicComponents')?.value;
  for (const [header, components] of byHeader) {
    if (components.length < 2) continue;
    const second = basics?.kind === 'map' ? basics.byKey.get(components[1]) : undefined;
    context.problems.report(
      'DUPLICATED_COMPONENT_HEADER',
      path,
      { data: scope.dataName, duplicatedHeader: header, duplicatedImportHeader: components },
      second && basics ? atKey(basics, second) : entry,
    );
  }
}
