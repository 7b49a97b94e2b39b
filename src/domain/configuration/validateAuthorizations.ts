import type { ConfigNode } from './configNode';
import type { ComponentTypes } from './componentTypes';
import type { ValidationContext } from './context';
import type { AuthorizationScopes, TimeScope } from './model';
import { childPath } from './problems';
import { checkSection } from './sections';
import { readMap, readText, readTextList } from './values';

const AUTHORIZATIONS_RULE = { optional: ['OA_authorizationScope', 'OA_timeScope'] };

/**
 * `OA_authorizations` (§13): the components rights are granted on. Scope components must hold references, the
 * time scope a date (through their checker or a line validation).
 */
export function readAuthorizations(
  node: ConfigNode | undefined,
  dataPath: string,
  types: ComponentTypes,
  context: ValidationContext,
): AuthorizationScopes | null {
  const { problems } = context;
  const path = childPath(dataPath, 'OA_authorizations');
  const map = readMap(node, path, problems);
  if (!map) return null;
  checkSection(map, AUTHORIZATIONS_RULE, path, problems);

  const scopesPath = childPath(path, 'OA_authorizationScope');
  const scopes: AuthorizationScopes['scopes'] = [];
  for (const { text, node: item } of readTextList(
    map.byKey.get('OA_authorizationScope')?.value,
    scopesPath,
    problems,
  ) ?? []) {
    const reference = types.referenceOf.get(text);
    if (types.unresolved.has(text)) continue;
    if (!types.keys.includes(text)) {
      problems.report(
        'UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
        scopesPath,
        { unknownComponent: text, knownComponents: [...types.referenceOf.keys()] },
        item,
      );
    } else if (reference === undefined) {
      problems.report(
        'INVALID_COMPONENT_REFERENCE_FOR_AUTHORIZATION_SCOPE_COMPONENT_NAME',
        scopesPath,
        { component: text, referenceComponents: [...types.referenceOf.keys()] },
        item,
      );
    } else {
      scopes.push({ component: text, reference });
    }
  }

  let timeScope: TimeScope | null = null;
  const timePath = childPath(path, 'OA_timeScope');
  const timeNode = map.byKey.get('OA_timeScope')?.value;
  const timeComponent = readText(timeNode, timePath, problems);
  if (timeComponent !== undefined) {
    const date = types.dateOf.get(timeComponent);
    if (types.unresolved.has(timeComponent)) return { scopes, timeScope };
    if (!types.keys.includes(timeComponent)) {
      problems.report(
        'UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
        timePath,
        { unknownComponent: timeComponent, knownComponents: [...types.dateOf.keys()] },
        timeNode,
      );
    } else if (date === undefined) {
      problems.report(
        'INVALID_COMPONENT_DATE_FOR_TIMESCOPE_COMPONENT_NAME',
        timePath,
        { component: timeComponent, dateComponents: [...types.dateOf.keys()] },
        timeNode,
      );
    } else {
      timeScope = { component: timeComponent, ...date };
    }
  }
  return { scopes, timeScope };
}
