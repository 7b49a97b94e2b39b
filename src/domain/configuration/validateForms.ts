import type { ConfigNode } from './configNode';
import type { ValidationContext } from './context';
import { checkIdentifiers } from './identifiers';
import type { AdditionalFileType, FormField, RightsRequestForm } from './model';
import { childPath } from './problems';
import { checkSection } from './sections';
import { readChecker } from './validateCheckers';
import { readBoolean, readI18nTexts, readMap } from './values';

const FORM_RULE = { mandatory: ['OA_formFields'], optional: ['OA_i18n'] };
const FIELD_RULE = { optional: ['OA_i18n', 'OA_required', 'OA_checker'] };

/** `OA_rightsRequest` (§15): the form a user fills in to ask for rights. */
export function readRightsRequest(node: ConfigNode | undefined, context: ValidationContext): RightsRequestForm | null {
  const path = 'OA_rightsRequest';
  const map = readMap(node, path, context.problems);
  if (!map) return null;
  checkSection(map, FORM_RULE, path, context.problems);
  return {
    i18n: readI18nTexts(map.byKey.get('OA_i18n')?.value, childPath(path, 'OA_i18n'), context.problems),
    fields: readFormFields(map.byKey.get('OA_formFields')?.value, childPath(path, 'OA_formFields'), context),
  };
}

/** `OA_additionalFiles` (§16): kinds of documents attached to the application, each with its metadata form. */
export function readAdditionalFiles(node: ConfigNode | undefined, context: ValidationContext): AdditionalFileType[] {
  const path = 'OA_additionalFiles';
  const map = readMap(node, path, context.problems);
  if (!map) return [];
  checkIdentifiers(map, path, context.problems);
  return map.entries.map((entry) => {
    const typePath = childPath(path, entry.key);
    const body = readMap(entry.value, typePath, context.problems);
    if (body) checkSection(body, FORM_RULE, typePath, context.problems);
    return {
      name: entry.key,
      i18n: readI18nTexts(body?.byKey.get('OA_i18n')?.value, childPath(typePath, 'OA_i18n'), context.problems),
      fields: readFormFields(body?.byKey.get('OA_formFields')?.value, childPath(typePath, 'OA_formFields'), context),
    };
  });
}

function readFormFields(node: ConfigNode | undefined, path: string, context: ValidationContext): FormField[] {
  const map = readMap(node, path, context.problems);
  if (!map) return [];
  checkIdentifiers(map, path, context.problems);
  return map.entries.map((entry) => {
    const fieldPath = childPath(path, entry.key);
    const body = readMap(entry.value, fieldPath, context.problems);
    if (body) checkSection(body, FIELD_RULE, fieldPath, context.problems);
    return {
      name: entry.key,
      i18n: readI18nTexts(body?.byKey.get('OA_i18n')?.value, childPath(fieldPath, 'OA_i18n'), context.problems),
      required:
        readBoolean(body?.byKey.get('OA_required')?.value, childPath(fieldPath, 'OA_required'), context.problems) ??
        false,
      checker: readChecker(body?.byKey.get('OA_checker')?.value, fieldPath, context) ?? null,
    };
  });
}
