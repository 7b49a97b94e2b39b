import type { I18n, MessageDescriptor } from '@lingui/core';
import type { StreamProblem } from '@/domain/streaming/events';
import { configurationErrorMessages, configurationErrorValues } from '../messages/configurationErrors';
import { exceptionMessages, translationMissing } from '../messages/exceptionMessages';

/** A problem that comes with a code and parameters (configuration errors, stream errors, CSV errors…). */
export type CodedProblem = Pick<StreamProblem, 'code' | 'params'> & { path?: string; line?: number; column?: number | string };

/** The translated sentence of a problem, whichever catalogue its code belongs to. */
export function describeProblem(i18n: I18n, problem: CodedProblem): string {
  const values = configurationErrorValues({
    params: problem.params ?? {},
    path: problem.path,
    line: problem.line,
    column: typeof problem.column === 'number' ? problem.column : undefined,
  });
  const descriptor = configurationErrorMessages[problem.code as keyof typeof configurationErrorMessages] ?? exceptionMessages[problem.code];
  const message: MessageDescriptor = descriptor ? { ...descriptor, values } : { ...translationMissing, values: { code: problem.code } };
  return i18n._(message);
}
