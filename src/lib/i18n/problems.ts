import type { I18n, MessageDescriptor } from '@lingui/core';
import type { StreamProblem } from '@/domain/streaming/events';
import { configurationErrorMessages, configurationErrorValues } from '../messages/configurationErrors';
import { configurationWarningMessages } from '../messages/configurationWarnings';
import { csvErrorMessages, csvErrorValues } from '../messages/csvErrors';
import { exceptionMessages, translationMissing } from '../messages/exceptionMessages';

/** A problem that comes with a code and parameters (configuration errors, stream errors, CSV errors…). */
export type CodedProblem = Pick<StreamProblem, 'code' | 'params'> & {
  path?: string;
  line?: number;
  column?: number | string;
  lineNumber?: number;
  value?: string;
};

/**
 * The translated sentence of a problem, whichever catalogue its code belongs to (CSV, configuration errors and
 * warnings, server).
 */
export function describeProblem(
  i18n: I18n,
  problem: CodedProblem,
  /** Titles of the application's entries, when known: CSV errors name references by them. */
  entryTitle?: (name: string) => string,
): string {
  const params = problem.params ?? {};
  const csv = csvErrorMessages[problem.code as keyof typeof csvErrorMessages];
  let message: MessageDescriptor;
  if (csv) {
    const values = csvErrorValues(
      {
        params,
        lineNumber: problem.lineNumber,
        column: typeof problem.column === 'string' ? problem.column : undefined,
        value: problem.value,
      },
      i18n.locale,
      entryTitle,
    );
    message = { ...csv, values };
  } else {
    const descriptor =
      configurationErrorMessages[problem.code as keyof typeof configurationErrorMessages] ??
      configurationWarningMessages[problem.code as keyof typeof configurationWarningMessages] ??
      exceptionMessages[problem.code];
    const values = configurationErrorValues({
      params,
      path: problem.path,
      line: problem.line,
      column: typeof problem.column === 'number' ? problem.column : undefined,
    });
    message = descriptor ? { ...descriptor, values } : { ...translationMissing, values: { code: problem.code } };
  }
  return i18n._(message);
}
