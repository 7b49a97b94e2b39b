import { isNull, type ConfigNode } from './configNode';
import type { EntryScope, ValidationContext } from './context';
import { checkIdentifiers } from './identifiers';
import type { LineValidation } from './model';
import { atKey, childPath } from './problems';
import { checkSection } from './sections';
import { CHECKER_NAMES, readChecker } from './validateCheckers';
import { readTagUse } from './validateTags';
import { readBoolean, readLocaleMap, readMap, readTextList } from './values';

const VALIDATION_RULE = {
  mandatory: ['OA_checker'],
  optional: ['OA_i18n', 'OA_components', 'OA_required', 'OA_tags'],
};

export interface ValidationsReading {
  validations: LineValidation[];
  /** Names of the validations tagged `__ORDER_STRICT__` (the tag's only use: see `Hierarchy.orderStrict`). */
  orderStrict: ReadonlySet<string>;
}

/**
 * `OA_validations` (§11): named rules run on every row. A checker other than an expression checks the values of
 * the listed components, so it needs at least one of them; an expression sees the whole row. A rule may carry
 * `OA_tags`, as in the original, whose only effect is `__ORDER_STRICT__`.
 */
export function readValidations(
  node: ConfigNode | undefined,
  path: string,
  componentKeys: readonly string[],
  context: ValidationContext,
  scope: EntryScope,
  unresolved: Set<string>,
): ValidationsReading {
  const { problems } = context;
  const validations: LineValidation[] = [];
  const orderStrict = new Set<string>();
  const map = readMap(node, path, problems);
  if (!map) return { validations, orderStrict };
  checkIdentifiers(map, path, problems);
  for (const entry of map.entries) {
    const validationPath = childPath(path, entry.key);
    const body = readMap(entry.value, validationPath, problems);
    if (!body) {
      if (isNull(entry.value))
        problems.report(
          'MISSING_MANDATORIES_SECTIONS',
          validationPath,
          { missingMandatoriesSections: ['OA_checker'] },
          entry.value,
        );
      continue;
    }
    checkSection(body, VALIDATION_RULE, validationPath, problems);
    const tagsPath = childPath(validationPath, 'OA_tags');
    if (readTagUse(body.byKey.get('OA_tags')?.value, tagsPath, tagsPath, context.tags, problems).orderStrict)
      orderStrict.add(entry.key);
    const labels = readLocaleMap(body.byKey.get('OA_i18n')?.value, childPath(validationPath, 'OA_i18n'), problems);
    const required =
      readBoolean(body.byKey.get('OA_required')?.value, childPath(validationPath, 'OA_required'), problems) ?? false;
    const checkerNode = body.byKey.get('OA_checker')?.value;
    const checker = checkerNode === undefined ? undefined : readChecker(checkerNode, validationPath, context, scope);
    if (checker === null && checkerNode !== undefined)
      problems.report('MISSING_CHECKER_NAME', validationPath, { acceptedCheckerNames: CHECKER_NAMES }, checkerNode);
    if (!checker) {
      // The components this rule types (reference, date) stay untyped; scope checks must not report them again.
      for (const text of quietTexts(body.byKey.get('OA_components')?.value)) unresolved.add(text);
      continue;
    }

    const componentsPath = childPath(validationPath, 'OA_components');
    const componentsNode = body.byKey.get('OA_components')?.value;
    const needsComponents = checker.kind !== 'expression';
    if (componentsNode === undefined && needsComponents) {
      problems.report('MISSING_COLUMN_NAME_VALIDATION', validationPath, { validationName: entry.key }, body);
      continue;
    }
    if (componentsNode !== undefined && isNull(componentsNode) && needsComponents) {
      problems.report('MISSING_REQUIRED_VALUE', componentsPath, {}, componentsNode);
      continue;
    }
    const listed = readTextList(componentsNode, componentsPath, problems) ?? [];
    if (listed.length === 0 && needsComponents) {
      problems.report(
        'MISSING_COMPONENT_FOR_COMPONENT_NAME',
        componentsPath,
        { knownComponents: componentKeys },
        componentsNode,
      );
      continue;
    }
    const unknown = listed.filter(({ text }) => !componentKeys.includes(text));
    for (const { text, node: item } of unknown) {
      problems.report(
        'UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
        componentsPath,
        { unknownComponent: text, knownComponents: componentKeys },
        item,
      );
    }
    if (unknown.length > 0) continue;
    // An expression rule runs once per listed component: with none it never runs, here as in the original.
    if (listed.length === 0)
      problems.warn('VALIDATION_WITHOUT_COMPONENTS', validationPath, { validationName: entry.key }, atKey(map, entry));
    validations.push({ name: entry.key, labels, checker, components: listed.map(({ text }) => text), required });
  }
  return { validations, orderStrict };
}

function quietTexts(node: ConfigNode | undefined): string[] {
  return node?.kind === 'list' ? node.items.flatMap((item) => (item.kind === 'scalar' ? [item.text] : [])) : [];
}
