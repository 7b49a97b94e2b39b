import type { ConfigNode } from './configNode';
import type { ValidationContext } from './context';
import { isLocale } from './locales';
import type { DisplayPattern, DisplayTemplate } from './model';
import { childPath } from './problems';
import { checkSection } from './sections';
import { readLocaleMap, readMap } from './values';

const PLACEHOLDER = /\{([^{}]*)\}/g;
const DISPLAY_PATTERN_RULE = { optional: ['OA_title', 'OA_description'] };

function parseDisplayTemplate(source: string): DisplayTemplate {
  const parts: DisplayTemplate['parts'] = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ text: source.slice(last, match.index) });
    parts.push({ component: match[1].trim() });
    last = match.index + match[0].length;
  }
  if (last < source.length) parts.push({ text: source.slice(last) });
  return { source, parts };
}

/**
 * `OA_i18nDisplayPattern` (§12.2): `{component}` placeholders must be components of the entry (or stored keys of
 * pattern qualifiers and adjacents). The error path is the original's: `OA_data > <entry> > OA_title > <locale>`.
 */
export function readDisplayPattern(
  node: ConfigNode | undefined,
  dataPath: string,
  componentKeys: readonly string[],
  storedKeys: readonly string[],
  context: ValidationContext,
): DisplayPattern | null {
  const { problems } = context;
  const path = childPath(dataPath, 'OA_i18nDisplayPattern');
  const map = readMap(node, path, problems);
  if (!map) return null;
  checkSection(map, DISPLAY_PATTERN_RULE, path, problems);
  const pattern: DisplayPattern = { title: {}, description: {} };
  for (const [key, field] of [
    ['OA_title', 'title'],
    ['OA_description', 'description'],
  ] as const) {
    const textsNode = map.byKey.get(key)?.value;
    const texts = readLocaleMap(textsNode, childPath(path, key), problems);
    for (const [locale, source] of Object.entries(texts)) {
      const template = parseDisplayTemplate(source);
      for (const part of template.parts) {
        if (!('component' in part) || componentKeys.includes(part.component) || storedKeys.includes(part.component))
          continue;
        const target = textsNode?.kind === 'map' ? textsNode.byKey.get(locale)?.value : undefined;
        problems.report(
          'MISSING_COMPONENT_FOR_DISPLAY_PATTERN',
          childPath(childPath(dataPath, key), locale),
          { badGroup: part.component, expectedComponent: componentKeys },
          target ?? map,
        );
      }
      if (isLocale(locale)) pattern[field][locale] = template;
    }
  }
  return pattern;
}
