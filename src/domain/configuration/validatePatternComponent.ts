import { isNull, type ConfigNode, type MapNode } from './configNode';
import type { EntryScope, ValidationContext } from './context';
import { IDENTIFIER } from './identifiers';
import { dropCheckerFromExportHeader } from './misplacedChecker';
import type { PatternAdjacent, PatternBinding, PatternQualifier } from './model';
import { childPath } from './problems';
import { checkSection, type SectionRule } from './sections';
import { mapFromKeyList, partWithKeysBesideName, type NamedPart } from './toleratedPartLayouts';
import { readChecker, readRegex } from './validateCheckers';
import { readDefaultValue } from './validateExpressions';
import { readTagUse, tagSet } from './validateTags';
import { readBoolean, readI18nTexts, readList, readText } from './values';

const QUALIFIER_RULE = { optional: ['OA_exportHeader', 'OA_tags', 'OA_checker', 'OA_required', 'OA_defaultValue'] };
// OA_defaultValue is accepted on an adjacent but has no effect (warned): the original reads none for adjacents.
const ADJACENT_RULE = {
  optional: [
    'OA_importHeaderPattern',
    'OA_exportHeader',
    'OA_required',
    'OA_mandatory',
    'OA_checker',
    'OA_tags',
    'OA_defaultValue',
  ],
};

/**
 * Qualifiers, adjacents and header regex of a pattern component (§7.5). Qualifier n takes capture group n; an
 * adjacent's header is its template with `{$n}` replaced. Both are stored as `<component>::<name>`, so a name used
 * twice would make two values collide.
 */
export function readPatternParts(
  map: MapNode | undefined,
  key: string,
  path: string,
  context: ValidationContext,
  scope: EntryScope,
): { qualifiers: PatternQualifier[]; adjacents: PatternAdjacent[]; binding?: PatternBinding } {
  const { problems } = context;
  const regexPath = childPath(path, 'OA_patternForComponents');
  const regexNode = map?.byKey.get('OA_patternForComponents')?.value;
  if (regexNode !== undefined && isNull(regexNode)) problems.report('MISSING_REQUIRED_VALUE', regexPath, {}, regexNode);
  const headerPattern = regexNode === undefined ? undefined : readRegex(regexNode, regexPath, context);

  const qualifierParts = namedParts(
    map?.byKey.get('OA_componentQualifiers')?.value,
    childPath(path, 'OA_componentQualifiers'),
    context,
  );
  const adjacentParts = namedParts(
    map?.byKey.get('OA_componentAdjacents')?.value,
    childPath(path, 'OA_componentAdjacents'),
    context,
  );

  const seen = new Map<string, string>();
  const isDuplicate = (part: NamedPart) => {
    const first = seen.get(part.name);
    if (first === undefined) {
      seen.set(part.name, part.path);
      return false;
    }
    problems.report(
      'DUPLICATED_COMPONENT_HEADER_IN_PATTERN_COMPONENT',
      part.path,
      { qualifierName: part.name, data: scope.dataName, patternComponent: key, duplicatedPathes: [first, part.path] },
      part.keyTarget,
    );
    return true;
  };

  const qualifiers: PatternQualifier[] = [];
  qualifierParts.forEach((part, index) => {
    if (isDuplicate(part)) return;
    const body = bodyMap(part, QUALIFIER_RULE, context);
    const node = (name: string) => body?.byKey.get(name)?.value;
    qualifiers.push({
      name: part.name,
      storedKey: `${key}::${part.name}`,
      group: index + 1,
      tags: tagSet(
        readTagUse(
          node('OA_tags'),
          childPath(part.path, 'OA_tags'),
          childPath(part.path, 'OA_tags'),
          context.tags,
          problems,
        ),
      ),
      exportHeader: readI18nTexts(node('OA_exportHeader'), childPath(part.path, 'OA_exportHeader'), problems),
      required: readBoolean(node('OA_required'), childPath(part.path, 'OA_required'), problems) ?? false,
      checker: readChecker(node('OA_checker'), part.path, context, scope) ?? null,
      defaultValue: readDefaultValue(node('OA_defaultValue'), childPath(part.path, 'OA_defaultValue'), context),
    });
  });

  const adjacents: PatternAdjacent[] = [];
  for (const part of adjacentParts) {
    if (isDuplicate(part)) continue;
    const body = bodyMap(part, ADJACENT_RULE, context);
    const node = (name: string) => body?.byKey.get(name)?.value;
    const defaultValue = body?.byKey.get('OA_defaultValue');
    if (body && defaultValue) {
      problems.warn(
        'ADJACENT_DEFAULT_VALUE_IGNORED',
        childPath(part.path, 'OA_defaultValue'),
        { adjacentName: part.name },
        { source: body.source, offset: defaultValue.keyOffset },
      );
    }
    const headerTemplate = readText(
      node('OA_importHeaderPattern'),
      childPath(part.path, 'OA_importHeaderPattern'),
      problems,
    );
    if (headerTemplate === undefined || headerTemplate === '') {
      problems.report(
        'MISSING_IMPORT_HEADER_PATTERN',
        part.path,
        { adjacentName: part.name },
        node('OA_importHeaderPattern') ?? part.keyTarget,
      );
      continue;
    }
    adjacents.push({
      name: part.name,
      storedKey: `${key}::${part.name}`,
      headerTemplate,
      tags: tagSet(
        readTagUse(
          node('OA_tags'),
          childPath(part.path, 'OA_tags'),
          childPath(part.path, 'OA_tags'),
          context.tags,
          problems,
        ),
      ),
      exportHeader: readI18nTexts(node('OA_exportHeader'), childPath(part.path, 'OA_exportHeader'), problems),
      required: readBoolean(node('OA_required'), childPath(part.path, 'OA_required'), problems) ?? false,
      mandatory: readBoolean(node('OA_mandatory'), childPath(part.path, 'OA_mandatory'), problems) ?? false,
      checker: readChecker(node('OA_checker'), part.path, context, scope) ?? null,
    });
  }

  const binding: PatternBinding | undefined = headerPattern && {
    component: key,
    headerPattern,
    qualifiers: qualifiers.map(({ storedKey, group }) => ({ storedKey, group })),
    adjacents: adjacents.map(({ storedKey, headerTemplate, mandatory }) => ({ storedKey, headerTemplate, mandatory })),
  };
  return { qualifiers, adjacents, binding };
}

/** A list of one-key maps (`- name: {…}`), flattened in order; names must be identifiers. */
function namedParts(node: ConfigNode | undefined, path: string, context: ValidationContext): NamedPart[] {
  const list = readList(node, path, context.problems);
  const parts: NamedPart[] = [];
  const invalid: NamedPart[] = [];
  list?.items.forEach((item, index) => {
    if (item.kind !== 'map') {
      context.problems.report(
        'BAD_OBJECT_REQUIRED_SECTIONS',
        childPath(path, index),
        { expectedType: 'map', givenType: item.kind },
        item,
      );
      return;
    }
    const besideName = partWithKeysBesideName(item, path, context);
    if (besideName) {
      parts.push(besideName);
      if (!IDENTIFIER.test(besideName.name)) invalid.push(besideName);
      return;
    }
    for (const entry of item.entries) {
      const part = {
        name: entry.key,
        body: entry.value,
        path: childPath(path, entry.key),
        keyTarget: { source: item.source, offset: entry.keyOffset },
      };
      parts.push(part);
      if (!IDENTIFIER.test(entry.key)) invalid.push(part);
    }
  });
  if (invalid.length > 0) {
    context.problems.report(
      'INVALID_IDENTIFICATEURS',
      path,
      { invalidIdentificateurs: invalid.map((part) => part.name) },
      invalid[0].keyTarget,
    );
  }
  return parts;
}

function bodyMap(part: NamedPart, rule: SectionRule, context: ValidationContext): MapNode | undefined {
  if (isNull(part.body)) return undefined;
  const written = part.body.kind === 'list' ? (mapFromKeyList(part.body, part, context) ?? part.body) : part.body;
  if (written.kind !== 'map') {
    context.problems.report(
      'BAD_OBJECT_REQUIRED_SECTIONS',
      part.path,
      { expectedType: 'map', givenType: part.body.kind },
      part.body,
    );
    return undefined;
  }
  const body = dropCheckerFromExportHeader(written, part.path, context.problems);
  checkSection(body, rule, part.path, context.problems);
  return body;
}
