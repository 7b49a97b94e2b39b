import type { ConfigNode, ListNode, MapNode, ScalarNode } from './configNode';
import { isLocale, LOCALES } from './locales';
import type { I18nTexts } from './model';
import { atKey, childPath, type Problems } from './problems';
import { checkSection } from './sections';

const I18N_RULE = { optional: ['OA_title', 'OA_description'] };

/**
 * Typed reading of leaves (§2.2). Each reader returns `undefined` for an absent or null value (the caller applies
 * the default or reports a missing value) and for a value of the wrong type, which it reports.
 */

function givenValue(node: ConfigNode): string {
  return node.kind === 'scalar' ? node.text : node.kind === 'map' ? '{…}' : '[…]';
}

function nodeType(node: ConfigNode): string {
  return node.kind === 'scalar' ? (node.type === 'string' ? 'text' : node.type) : node.kind;
}

export function readMap(node: ConfigNode | undefined, path: string, problems: Problems): MapNode | undefined {
  if (node === undefined || (node.kind === 'scalar' && node.type === 'null')) return undefined;
  if (node.kind === 'map') return node;
  problems.report(
    'BAD_OBJECT_REQUIRED_SECTIONS',
    path,
    { expectedType: 'map', givenType: nodeType(node), givenValue: givenValue(node) },
    node,
  );
  return undefined;
}

export function readList(node: ConfigNode | undefined, path: string, problems: Problems): ListNode | undefined {
  if (node === undefined || (node.kind === 'scalar' && node.type === 'null')) return undefined;
  if (node.kind === 'list') return node;
  problems.report('EXPECTED_ARRAY', path, { givenType: nodeType(node), givenValue: givenValue(node) }, node);
  return undefined;
}

function readScalar(node: ConfigNode | undefined, path: string, problems: Problems): ScalarNode | undefined {
  if (node === undefined || (node.kind === 'scalar' && node.type === 'null')) return undefined;
  if (node.kind === 'scalar') return node;
  problems.report(
    'BAD_OBJECT_REQUIRED_SECTIONS',
    path,
    { expectedType: 'text', givenType: nodeType(node), givenValue: givenValue(node) },
    node,
  );
  return undefined;
}

/** Text leaf; a number or a boolean is read as the text the author wrote. */
export function readText(node: ConfigNode | undefined, path: string, problems: Problems): string | undefined {
  return readScalar(node, path, problems)?.text;
}

/** A mandatory text: null, absent or empty gives `MISSING_REQUIRED_VALUE`. */
export function readRequiredText(
  node: ConfigNode | undefined,
  path: string,
  problems: Problems,
  target: ConfigNode,
): string | undefined {
  const text = readText(node, path, problems);
  if (text === undefined && (node === undefined || node.kind === 'scalar'))
    problems.report('MISSING_REQUIRED_VALUE', path, {}, node ?? target);
  else if (text !== undefined && text.trim() === '')
    problems.report('MISSING_REQUIRED_VALUE', path, {}, node ?? target);
  return text === undefined || text.trim() === '' ? undefined : text;
}

export function readBoolean(node: ConfigNode | undefined, path: string, problems: Problems): boolean | undefined {
  const scalar = readScalar(node, path, problems);
  if (scalar === undefined) return undefined;
  if (scalar.type === 'boolean') return scalar.value as boolean;
  problems.report('BAD_BOOLEAN_REQUIRED_SECTIONS', path, { givenValue: scalar.text }, scalar);
  return undefined;
}

export function readInteger(node: ConfigNode | undefined, path: string, problems: Problems): number | undefined {
  const scalar = readScalar(node, path, problems);
  if (scalar === undefined) return undefined;
  if (scalar.type === 'integer' && Number.isSafeInteger(scalar.value)) return scalar.value as number;
  problems.report('BAD_INTEGER_REQUIRED_SECTIONS', path, { givenValue: scalar.text }, scalar);
  return undefined;
}

/** A decimal leaf; integers are accepted too (`OA_max: 100` for a float checker). */
export function readFloat(node: ConfigNode | undefined, path: string, problems: Problems): number | undefined {
  const scalar = readScalar(node, path, problems);
  if (scalar === undefined) return undefined;
  if ((scalar.type === 'integer' || scalar.type === 'float') && Number.isFinite(scalar.value))
    return scalar.value as number;
  problems.report('BAD_FLOAT_REQUIRED_SECTIONS', path, { givenValue: scalar.text }, scalar);
  return undefined;
}

export function readEnum<Value extends string>(
  node: ConfigNode | undefined,
  path: string,
  accepted: readonly Value[],
  problems: Problems,
): Value | undefined {
  const scalar = readScalar(node, path, problems);
  if (scalar === undefined) return undefined;
  if (scalar.text.trim() === '') {
    problems.report('MISSING_REQUIRED_ENUM_VALUE', path, { acceptedValues: accepted }, scalar);
    return undefined;
  }
  if ((accepted as readonly string[]).includes(scalar.text)) return scalar.text as Value;
  problems.report('BAD_ENUM_SECTION_TYPE', path, { givenValue: scalar.text, acceptedValues: accepted }, scalar);
  return undefined;
}

/** A list of texts (component keys, locales, data names); nested collections are reported and skipped. */
export function readTextList(
  node: ConfigNode | undefined,
  path: string,
  problems: Problems,
): Array<{ text: string; node: ConfigNode }> | undefined {
  const list = readList(node, path, problems);
  if (!list) return undefined;
  const texts: Array<{ text: string; node: ConfigNode }> = [];
  list.items.forEach((item, index) => {
    const text = readText(item, childPath(path, index), problems);
    if (text !== undefined) texts.push({ text, node: item });
  });
  return texts;
}

/** Locale → text (`{fr: "Site", en: "Site"}`): keys must be language codes, values texts. */
export function readLocaleMap(node: ConfigNode | undefined, path: string, problems: Problems): Record<string, string> {
  const texts: Record<string, string> = {};
  const map = readMap(node, path, problems);
  if (!map) return texts;
  const badKeys = map.entries.filter((entry) => !isLocale(entry.key));
  if (badKeys.length > 0) {
    problems.report(
      'UNEXPECTED_SECTIONS',
      path,
      { unexpectedSections: badKeys.map((entry) => entry.key), expectedSections: LOCALES },
      atKey(map, badKeys[0]),
    );
  }
  for (const entry of map.entries) {
    if (!isLocale(entry.key)) continue;
    if (entry.value.kind !== 'scalar') {
      problems.report('BAD_LOCALE_SECTION_TYPE', childPath(path, entry.key), { locale: entry.key }, entry.value);
      continue;
    }
    if (entry.value.type !== 'null') texts[entry.key] = entry.value.text;
  }
  return texts;
}

/** `{OA_title: localeMap, OA_description: localeMap}`, used by `OA_i18n` and `OA_exportHeader` sections. */
export function readI18nTexts(node: ConfigNode | undefined, path: string, problems: Problems): I18nTexts {
  const map = readMap(node, path, problems);
  if (!map) return { title: {}, description: {} };
  checkSection(map, I18N_RULE, path, problems);
  return {
    title: readLocaleMap(map.byKey.get('OA_title')?.value, childPath(path, 'OA_title'), problems),
    description: readLocaleMap(map.byKey.get('OA_description')?.value, childPath(path, 'OA_description'), problems),
  };
}

/** `OA_langRestrictions`: the locales for which a column is shown; null when absent (all locales). */
export function readLangRestrictions(node: ConfigNode | undefined, path: string, problems: Problems): string[] | null {
  const values = readTextList(node, path, problems);
  if (!values) return null;
  const locales: string[] = [];
  for (const { text, node: item } of values) {
    if (isLocale(text)) locales.push(text);
    else problems.report('BAD_LOCALE', path, { locale: text }, item);
  }
  return locales;
}
