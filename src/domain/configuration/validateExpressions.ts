import type { ConfigNode, MapNode } from './configNode';
import type { ValidationContext } from './context';
import type { Expression, LocaleText, Multiplicity } from './model';
import { childPath } from './problems';
import { checkSection, type SectionRule } from './sections';
import { readEnum, readLocaleMap, readMap, readRequiredText, readTextList } from './values';

/**
 * Every Groovy expression of the configuration must compile (§10.1, §12.1): `OA_computation`, `OA_defaultValue`
 * and `OA_groovy` sections share this reader. A compile failure gives `BAD_GROOVY_EXPRESSION` with the engine's
 * message and its position inside the expression; the error itself points at the expression in the YAML.
 */
export function readExpressionSection(
  map: MapNode,
  path: string,
  rule: SectionRule,
  context: ValidationContext,
): Expression | undefined {
  const { problems } = context;
  checkSection(map, rule, path, problems);
  const expressionPath = childPath(path, 'OA_expression');
  const expressionNode = map.byKey.get('OA_expression')?.value;
  const source = map.byKey.has('OA_expression')
    ? readRequiredText(expressionNode, expressionPath, problems, map)
    : undefined;

  const listedReferences = readReferenceNames(map, path, context);
  const references = listedReferences.map(({ text }) => text);
  const exceptions: Record<string, LocaleText> = {};
  const exceptionsPath = childPath(path, 'OA_groovyExceptions');
  const exceptionsMap = readMap(map.byKey.get('OA_groovyExceptions')?.value, exceptionsPath, problems);
  for (const entry of exceptionsMap?.entries ?? [])
    exceptions[entry.key] = readLocaleMap(entry.value, childPath(exceptionsPath, entry.key), problems);
  const multiplicity: Multiplicity =
    readEnum(map.byKey.get('OA_multiplicity')?.value, childPath(path, 'OA_multiplicity'), ['ONE', 'MANY'], problems) ??
    'ONE';

  if (source === undefined) return undefined;
  const compiled = context.compileExpression(source);
  if (!compiled.ok) {
    const first = compiled.errors[0];
    problems.report(
      'BAD_GROOVY_EXPRESSION',
      expressionPath,
      {
        expression: source,
        message: first?.message ?? '',
        expressionCode: first?.code ?? '',
        expressionLine: first?.line ?? 1,
        expressionColumn: first?.column ?? 1,
        ...(first?.construct ? { construct: first.construct } : {}),
      },
      expressionNode,
    );
    return undefined;
  }
  const named = new Set<string>();
  for (const unknown of compiled.expression.unresolvedNames) {
    // One warning per name, at its first reading.
    const name = unknown.construct ?? '';
    if (named.has(name)) continue;
    named.add(name);
    problems.warn(
      'EXPRESSION_NAME_UNKNOWN',
      expressionPath,
      {
        name,
        expressionCode: unknown.code,
        expressionLine: unknown.line,
        expressionColumn: unknown.column,
      },
      expressionNode,
    );
  }
  // `references.X` of a data name that does not exist can never be filled, whatever OA_references says.
  for (const name of compiled.expression.referencedReferences) {
    if (!context.dataNames.includes(name))
      problems.report(
        'UNKNOWN_REFERENCE_NAME',
        expressionPath,
        { referenceName: name, allDataNames: context.dataNames },
        expressionNode,
      );
  }
  if (!compiled.expression.readsReferencesByOtherMeans) {
    const referencesPath = childPath(path, 'OA_references');
    for (const { text, node } of listedReferences) {
      if (!compiled.expression.referencedReferences.includes(text))
        problems.warn('REFERENCE_LISTED_BUT_NOT_READ', referencesPath, { referenceName: text }, node);
    }
  }
  return { source, references, exceptions, multiplicity };
}

/** `OA_references`: data names whose rows the expression receives; each must exist. */
function readReferenceNames(
  map: MapNode,
  path: string,
  context: ValidationContext,
): Array<{ text: string; node: ConfigNode }> {
  const referencesPath = childPath(path, 'OA_references');
  const names = readTextList(map.byKey.get('OA_references')?.value, referencesPath, context.problems) ?? [];
  const known: Array<{ text: string; node: ConfigNode }> = [];
  for (const { text, node } of names) {
    if (context.dataNames.includes(text)) known.push({ text, node });
    else
      context.problems.report(
        'UNKNOWN_REFERENCE_NAME',
        referencesPath,
        { referenceName: text, allDataNames: context.dataNames },
        node,
      );
  }
  return known;
}

const DEFAULT_VALUE_RULE = { mandatory: ['OA_expression'], optional: ['OA_references', 'OA_multiplicity'] };

/** `OA_defaultValue`: the expression giving the value of an empty cell (basic, pattern, constant components, qualifiers). */
export function readDefaultValue(
  node: ConfigNode | undefined,
  path: string,
  context: ValidationContext,
): Expression | null {
  const map = readMap(node, path, context.problems);
  return map ? (readExpressionSection(map, path, DEFAULT_VALUE_RULE, context) ?? null) : null;
}
