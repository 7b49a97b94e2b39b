import type { ConfigNode } from './configNode';
import { DOMAIN_TAG, DOMAIN_TAG_PATTERN } from './identifiers';
import { isLocale } from './locales';
import { DEFAULT_ORDER, type DomainTag, type TagSet } from './model';
import { childPath, type Problems } from './problems';
import { readLocaleMap, readMap, readTextList } from './values';

/** Parents before children in a recursive file (see `Hierarchy.orderStrict`); meant for `OA_validations`. */
export const ORDER_STRICT_TAG = '__ORDER_STRICT__';

/**
 * Tags (§5). Reserved tags are recognised by these patterns; every other value must be a declared domain tag.
 * The accepted set is the one the original reports in `acceptedTagPatterns` for the corpus's version.
 */
const RESERVED_TAGS: ReadonlyArray<{
  pattern: RegExp;
  label: string;
  dump: (name: string) => string;
  /** A reserved tag newer than the corpus's version: accepted, but not named in `acceptedTagPatterns`. */
  unlisted?: true;
}> = [
  { pattern: /^__HIDDEN__$/, label: '__HIDDEN__', dump: () => 'HiddenTag[tagDefinition=HIDDEN_TAG]' },
  { pattern: /^__DATA__$/, label: '__DATA__', dump: () => 'DataTag[tagDefinition=DATA_TAG]' },
  { pattern: /^__REFERENCE__$/, label: '__REFERENCE__', dump: () => 'ReferenceTag[tagDefinition=REFFERENCE_TAG]' },
  {
    pattern: /^__ORDER_(\d*)__$/,
    label: '__ORDER_(\\d*)__',
    dump: (name) => `OrderTag[tagDefinition=ORDER_TAG, tagOrder=${orderOf(name) ?? 0}]`,
  },
  { pattern: /^no-tag$/, label: 'no-tag', dump: () => NO_TAG_DUMP },
  {
    pattern: /^__ORDER_STRICT__$/,
    label: ORDER_STRICT_TAG,
    dump: () => 'OrderStrictTag[tagDefinition=ORDER_STRICT_TAG]',
    unlisted: true,
  },
];

const NO_TAG_DUMP = 'NoTag[tagDefinition=NO_TAG, tagName=no_tag]';

function reservedTag(name: string) {
  return RESERVED_TAGS.find((tag) => tag.pattern.test(name));
}

function orderOf(name: string): number | undefined {
  const match = /^__ORDER_(\d*)__$/.exec(name);
  return match ? Number(match[1] || 0) : undefined;
}

export interface DeclaredTags {
  tags: DomainTag[];
  names: ReadonlySet<string>;
}

/**
 * Root `OA_tags`: tag name → display names. Mirrors the original's quirks, which the corpus tests pin down: a name
 * breaking the domain pattern invalidates the whole declaration (every use then reports an undeclared tag) and is
 * followed by `ILLEGAL_DOMAIN_TAG_PATTERN` naming the empty tag; a reserved name gives `ILLEGAL_DOMAIN_TAG_PATTERN`.
 */
export function readDeclaredTags(node: ConfigNode | undefined, problems: Problems): DeclaredTags {
  const map = readMap(node, 'OA_tags', problems);
  if (!map) return { tags: [], names: new Set() };
  const tags: DomainTag[] = [];
  for (const entry of map.entries) {
    const path = childPath('OA_tags', entry.key);
    const labelMap = entry.value.kind === 'map' ? entry.value : undefined;
    const badLanguage = labelMap?.entries.find((label) => !isLocale(label.key));
    if (badLanguage)
      problems.report(
        'UNSUPORTED_I18N_KEY_LANGUAGE',
        path,
        { locale: badLanguage.key },
        { source: map.source, offset: badLanguage.keyOffset },
      );
    const labels = badLanguage ? {} : readLocaleMap(entry.value, path, problems);
    tags.push({ name: entry.key, labels });
  }

  const badName = tags.find((tag) => !reservedTag(tag.name) && !DOMAIN_TAG.test(tag.name));
  if (badName) {
    const entry = map.byKey.get(badName.name)!;
    problems.report(
      'BAD_DOMAIN_TAG_PATTERN',
      'OA_tags',
      { domainTagPattern: DOMAIN_TAG_PATTERN, tagName: badName.name },
      { source: map.source, offset: entry.keyOffset },
    );
    problems.report(
      'ILLEGAL_DOMAIN_TAG_PATTERN',
      'OA_tags',
      { reservedTagNames: [NO_TAG_DUMP], expectedPattern: DOMAIN_TAG_PATTERN },
      map,
    );
    return { tags: [], names: new Set() };
  }
  const reserved = tags.filter((tag) => reservedTag(tag.name));
  if (reserved.length > 0) {
    const entry = map.byKey.get(reserved[0].name)!;
    problems.report(
      'ILLEGAL_DOMAIN_TAG_PATTERN',
      'OA_tags',
      {
        reservedTagNames: reserved.map((tag) => reservedTag(tag.name)!.dump(tag.name)),
        expectedPattern: DOMAIN_TAG_PATTERN,
      },
      { source: map.source, offset: entry.keyOffset },
    );
  }
  const domain = tags.filter((tag) => !reservedTag(tag.name));
  return { tags: domain, names: new Set(domain.map((tag) => tag.name)) };
}

export interface TagUse extends TagSet {
  data: boolean;
  orderStrict: boolean;
}

/**
 * An `OA_tags` list on a data entry, a component, a qualifier or an adjacent. One error per list at most: a value
 * that is neither reserved nor shaped like a domain tag gives `BAD_TAGS_PATTERNS`; otherwise undeclared domain tags
 * give `NOT_EXPECTED_DOMAIN_TAGS`. `errorPath` is where the original reports it (the data entry itself for entries).
 */
export function readTagUse(
  node: ConfigNode | undefined,
  path: string,
  errorPath: string,
  declared: DeclaredTags,
  problems: Problems,
): TagUse {
  const use: TagUse = { domain: [], hidden: false, order: DEFAULT_ORDER, data: false, orderStrict: false };
  const values = readTextList(node, path, problems);
  if (!values || values.length === 0) return use;

  const malformed = values.find(({ text }) => !reservedTag(text) && !DOMAIN_TAG.test(text));
  if (malformed) {
    const acceptedTagPatterns = [
      ...RESERVED_TAGS.filter((tag) => !tag.unlisted).map((tag) => tag.label),
      ...declared.names,
    ];
    problems.report('BAD_TAGS_PATTERNS', errorPath, { acceptedTagPatterns, badTag: malformed.text }, malformed.node);
    return use;
  }
  const undeclared = values.filter(({ text }) => !reservedTag(text) && !declared.names.has(text));
  if (undeclared.length > 0) {
    problems.report(
      'NOT_EXPECTED_DOMAIN_TAGS',
      errorPath,
      { notExpectedDomainTags: undeclared.map(({ text }) => text), expectedDomainTags: [...declared.names] },
      undeclared[0].node,
    );
  }
  for (const { text } of values) {
    if (text === '__HIDDEN__') use.hidden = true;
    else if (text === '__DATA__') use.data = true;
    else if (text === ORDER_STRICT_TAG) use.orderStrict = true;
    else if (orderOf(text) !== undefined) use.order = orderOf(text)!;
    else if (declared.names.has(text)) use.domain.push(text);
  }
  return use;
}

export function tagSet(use: TagUse): TagSet {
  return { domain: use.domain, hidden: use.hidden, order: use.order };
}
