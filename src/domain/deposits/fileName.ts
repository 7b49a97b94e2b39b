import { compileJavaDatePattern } from '../configuration/javaDatePattern';
import { toIsoLocalDateTime } from '../configuration/localDateTime';
import type { Submission } from '../configuration/model';
import { runnableRegex } from '../regex';

/** What a deposit's file name says, when it follows `OA_fileName`. */
export interface FileNameScope {
  /** Reference-scope component → the text the name gives for it. */
  scope: Record<string, string>;
  /** ISO local date-times. */
  from?: string;
  to?: string;
}

/** Date writings accepted in file names, the time scope's own pattern first. */
const FALLBACK_PATTERNS = ['dd-MM-yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd', 'dd_MM_yyyy', 'ddMMyyyy', 'yyyyMMdd'];

function readDate(text: string, patterns: string[]): string | undefined {
  for (const source of patterns) {
    const compiled = compileJavaDatePattern(source);
    if (!compiled.ok) continue;
    const value = compiled.pattern.parse(text);
    if (value) return toIsoLocalDateTime(value);
  }
  return undefined;
}

/**
 * Reads the scope and the period from a file name with the submission's pattern: capture group n fills
 * `matchPatternScopes[n-1]` (a scope component, `__START_DATE__` or `__END_DATE__`). Undefined when the name does
 * not match.
 */
export function readFileName(submission: Submission, fileName: string): FileNameScope | undefined {
  const rule = submission.fileName;
  if (!rule) return undefined;
  const match = runnableRegex(rule.pattern).matchGroups(fileName);
  if (!match) return undefined;
  const patterns = [...(submission.timeScope ? [submission.timeScope.pattern] : []), ...FALLBACK_PATTERNS];
  const result: FileNameScope = { scope: {} };
  rule.matchPatternScopes.forEach((name, index) => {
    const text = match[index + 1];
    if (text === undefined) return;
    if (name === '__START_DATE__') result.from = readDate(text, patterns);
    else if (name === '__END_DATE__') result.to = readDate(text, patterns);
    else result.scope[name] = text;
  });
  return result;
}
