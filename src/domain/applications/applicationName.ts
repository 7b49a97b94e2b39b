import { compileJavaRegex } from '../regex';
/**
 * Application names. The configuration format's rule is the authority on both sides: a lowercase letter, then
 * 1 to 39 lowercase letters, digits or `_`, after trimming. The entry field stops at 43 characters.
 */
export const APPLICATION_NAME_PATTERN = /^[a-z][a-z_0-9]{1,39}$/;
export const APPLICATION_NAME_MAX_LENGTH = 40;
export const APPLICATION_NAME_ENTRY_LIMIT = 43;

export type ApplicationNameProblem = 'invalidLengthName' | 'invalidName' | 'badNameWithRight';

/**
 * Whether `name` is exactly one of the patterns or matches one of them as a whole regular expression. Patterns run
 * on Terrain's linear engine (the Java syntax of a configuration's patterns): read at every request of their holder,
 * a careless `(a|a)*b` on the backtracking engine held the server for good.
 */
export function matchesCreatorPattern(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    if (pattern === name) return true;
    const compiled = compileJavaRegex(pattern);
    // A pattern that is not a valid expression only matches itself.
    return compiled.ok && compiled.regex.matches(name);
  });
}

/**
 * Whether a creator pattern may be granted: the server refuses one that is not a regular expression, and the rights
 * table marks it before sending.
 */
export function isValidCreatorPattern(pattern: string): boolean {
  return compileJavaRegex(pattern).ok;
}

export interface CreatorRights {
  isPlatformAdmin: boolean;
  patterns: readonly string[];
}

/** The first problem with a name the user wants to create or update, if any. */
export function checkApplicationName(rawName: string, rights: CreatorRights): ApplicationNameProblem | undefined {
  const name = rawName.trim();
  if (name.length < 2 || name.length > APPLICATION_NAME_MAX_LENGTH) return 'invalidLengthName';
  if (!APPLICATION_NAME_PATTERN.test(name)) return 'invalidName';
  if (!rights.isPlatformAdmin && !matchesCreatorPattern(name, rights.patterns)) return 'badNameWithRight';
  return undefined;
}

/** The pattern a platform administrator holds with the flag: every application name. */
export const EVERY_APPLICATION = '.*';

/**
 * A platform administrator's creator patterns once the flag is granted or revoked: the flag goes with the
 * every-application pattern, which alone makes its holder manage every application.
 */
export function platformAdminPatterns(patterns: readonly string[], grant: boolean): string[] {
  const next = new Set(patterns);
  if (grant) next.add(EVERY_APPLICATION);
  else next.delete(EVERY_APPLICATION);
  return [...next];
}
