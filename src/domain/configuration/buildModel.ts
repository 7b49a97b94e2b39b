import type { Result } from '../errors';
import type { ConfigNode, MapNode } from './configNode';
import type { EntryOutline, ExpressionCompilation, ExpressionCompiler, ValidationContext } from './context';
import type { ConfigurationError } from './errorCodes';
import { APPLICATION_NAME, APPLICATION_VERSION, checkIdentifiers } from './identifiers';
import { computeLoadOrder } from './loadOrder';
import { isLocale } from './locales';
import type { ApplicationModel, DataEntry } from './model';
import { childPath, Problems } from './problems';
import { checkSection } from './sections';
import { outlineComponentKeys } from './validateComponents';
import { readDataEntry } from './validateData';
import { readAdditionalFiles, readRightsRequest } from './validateForms';
import { readDeclaredTags } from './validateTags';
import { readI18nTexts, readMap, readText } from './values';
import type { ConfigurationWarning } from './warningCodes';

export const OPENADOM_VERSION = '2.0.1';

const APPLICATION_RULE = {
  mandatory: ['OA_name', 'OA_version'],
  optional: ['OA_i18n', 'OA_defaultLanguage', 'OA_comment'],
};

const ROOT_RULE = {
  mandatory: ['OA_version', 'OA_application'],
  optional: ['OA_tags', 'OA_data', 'OA_rightsRequest', 'OA_additionalFiles'],
};

/**
 * The outcome of validating an uploaded configuration: the model, or every error found; with the warnings either
 * way (layouts read in a tolerated way, rules that will not act), which never make it invalid.
 */
export type ConfigurationResult = Result<ApplicationModel, ConfigurationError> & { warnings: ConfigurationWarning[] };

/**
 * Data entries a configuration may hold: real ones hold a few dozen at most, and tens of thousands of them cost
 * seconds of the request thread at each read of the application.
 */
export const MAX_DATA_ENTRIES = 1_000;

/**
 * Validates a whole configuration document and builds its model. Every problem is collected; the model is only
 * returned when there is none. A wrong format version stops at once: the rest would be read against the wrong
 * rules and bury the one error that matters.
 */
export function buildApplicationModel(root: MapNode, compileExpression: ExpressionCompiler): ConfigurationResult {
  const problems = new Problems();
  const formatVersion = checkFormatVersion(root, problems);
  if (formatVersion === undefined) return { ok: false, errors: problems.errors, warnings: problems.warnings };

  checkSection(root, ROOT_RULE, '', problems);
  const application = readApplication(root.byKey.get('OA_application')?.value, problems);
  const tags = readDeclaredTags(root.byKey.get('OA_tags')?.value, problems);

  const dataMap = readMap(root.byKey.get('OA_data')?.value, 'OA_data', problems);
  if (dataMap) checkIdentifiers(dataMap, 'OA_data', problems);
  const dataEntries = dataMap?.entries ?? [];
  // Read on the request thread, and again at each read of the application: one error, before reading them.
  if (dataEntries.length > MAX_DATA_ENTRIES) {
    problems.report('TOO_MANY_DATA_ENTRIES', 'OA_data', { count: dataEntries.length, max: MAX_DATA_ENTRIES });
    return { ok: false, errors: problems.errors, warnings: problems.warnings };
  }
  const outlines = new Map<string, EntryOutline>(
    dataEntries.map((entry) => [
      entry.key,
      {
        name: entry.key,
        componentKeys: entry.value.kind === 'map' ? outlineComponentKeys(entry.value) : [],
      },
    ]),
  );
  const context: ValidationContext = {
    problems,
    dataNames: dataEntries.map((entry) => entry.key),
    outlines,
    tags,
    compileExpression: memoized(compileExpression),
  };

  const data: DataEntry[] = dataEntries.map((entry) => readDataEntry(entry.key, entry.value, context));
  const rightsRequest = readRightsRequest(root.byKey.get('OA_rightsRequest')?.value, context);
  const additionalFiles = readAdditionalFiles(root.byKey.get('OA_additionalFiles')?.value, context);

  const { order, cycles } = computeLoadOrder(data);
  const entryNamed = new Map(data.map((entry) => [entry.name, entry]));
  for (const cycle of cycles) {
    const byParents = cycle
      .slice(1)
      .every((name, index) =>
        entryNamed.get(cycle[index]!)?.hierarchy.parents.some((parent) => parent.reference === name),
      );
    problems.report(
      byParents ? 'DUPLICATED_REFERENCE_IN_HIERARCHIC_DEPENDENCIES' : 'DUPLICATED_REFERENCE_IN_DEPENDENCIES',
      'OA_data',
      { cycle },
      dataMap?.byKey.get(cycle[0])?.value,
    );
  }

  if (problems.count > 0) return { ok: false, errors: problems.errors, warnings: problems.warnings };
  return {
    ok: true,
    warnings: problems.warnings,
    value: {
      formatVersion,
      ...application,
      domainTags: tags.tags,
      data,
      loadOrder: order,
      rightsRequest,
      additionalFiles,
    },
  };
}

function checkFormatVersion(root: MapNode, problems: Problems): string | undefined {
  const node = root.byKey.get('OA_version')?.value;
  const version = node?.kind === 'scalar' ? node.text.trim() : undefined;
  if (node === undefined || version === undefined || version === '') {
    problems.report(
      'MISSING_VERSION_APPLICATION',
      'OA_version',
      { expectedVersion: OPENADOM_VERSION, actualVersion: null },
      node ?? root,
    );
    return undefined;
  }
  if (version !== OPENADOM_VERSION) {
    problems.report(
      'UNSUPPORTED_OPENADOM_VERSION',
      'OA_version',
      { actualVersion: version, expectedVersion: OPENADOM_VERSION },
      node,
    );
    return undefined;
  }
  return version;
}

type ApplicationPart = Pick<ApplicationModel, 'name' | 'version' | 'defaultLanguage' | 'comment' | 'i18n'>;

/** `OA_application` (§4). */
function readApplication(node: ConfigNode | undefined, problems: Problems): ApplicationPart {
  const path = 'OA_application';
  const map = readMap(node, path, problems);
  const value = (key: string) => map?.byKey.get(key)?.value;
  if (map) checkSection(map, APPLICATION_RULE, path, problems);

  const name = readIdentity(map, 'OA_name', problems);
  if (name !== undefined && !APPLICATION_NAME.test(name.trim())) {
    problems.report('UNSUPPORTED_NAME_APPLICATION', path, { nameApplication: name }, value('OA_name'));
  }
  const version = readIdentity(map, 'OA_version', problems);
  if (version !== undefined && !APPLICATION_VERSION.test(version.trim())) {
    problems.report('BAD_VERSION_PATTERN', path, { givenVersion: version }, value('OA_version'));
  }
  const languagePath = childPath(path, 'OA_defaultLanguage');
  const language = readText(value('OA_defaultLanguage'), languagePath, problems)?.trim();
  if (language !== undefined && !isLocale(language))
    problems.report('BAD_LOCALE', languagePath, { locale: language }, value('OA_defaultLanguage'));

  return {
    name: name?.trim() ?? '',
    version: version?.trim() ?? '',
    defaultLanguage: language && isLocale(language) ? language : 'fr',
    comment: readText(value('OA_comment'), childPath(path, 'OA_comment'), problems) ?? 'no comment',
    i18n: readI18nTexts(value('OA_i18n'), childPath(path, 'OA_i18n'), problems),
  };
}

/** Name and version are mandatory texts: empty or null gives `MISSING_REQUIRED_VALUE` at their own path. */
function readIdentity(map: MapNode | undefined, key: string, problems: Problems): string | undefined {
  const node = map?.byKey.get(key)?.value;
  if (node === undefined) return undefined;
  const path = childPath('OA_application', key);
  const text = readText(node, path, problems);
  if (text === undefined || text.trim() === '') {
    if (node.kind === 'scalar') problems.report('MISSING_REQUIRED_VALUE', path, {}, node);
    return undefined;
  }
  return text;
}

/** The same expression often appears many times (near-identical validation scripts); compile each text once per run. */
function memoized(compile: ExpressionCompiler): ExpressionCompiler {
  const results = new Map<string, ExpressionCompilation>();
  return (source) => {
    let result = results.get(source);
    if (result === undefined) {
      result = compile(source);
      results.set(source, result);
    }
    return result;
  };
}
