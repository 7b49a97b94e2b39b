import { locate, type ConfigNode, type MapEntry, type SourceText } from './configNode';
import type { ConfigurationError, ConfigurationErrorCode } from './errorCodes';
import type { ConfigurationWarning, ConfigurationWarningCode } from './warningCodes';

/** Where an error points: a node, or a map key (errors about a key point at the key, not at its value). */
export type ProblemTarget = ConfigNode | { source: SourceText; offset: number };

export function atKey(owner: ConfigNode, entry: MapEntry): ProblemTarget {
  return { source: owner.source, offset: entry.keyOffset };
}

/**
 * Collects every problem of a validation run; validators report and go on, so that users see all errors at once.
 * Warnings are kept apart: they never make the configuration invalid.
 */
export class Problems {
  readonly errors: ConfigurationError[] = [];
  readonly warnings: ConfigurationWarning[] = [];

  report(code: ConfigurationErrorCode, path: string, params: Record<string, unknown>, target?: ProblemTarget): void {
    this.errors.push({ code, path, params, ...(target ? locate(target.source, target.offset) : {}) });
  }

  warn(code: ConfigurationWarningCode, path: string, params: Record<string, unknown>, target?: ProblemTarget): void {
    this.warnings.push({ code, path, params, ...(target ? locate(target.source, target.offset) : {}) });
  }

  get count(): number {
    return this.errors.length;
  }
}

/** Paths are written as the original writes them in error params: segments joined by " > ". */
export function childPath(path: string, segment: string | number): string {
  return path === '' ? String(segment) : `${path} > ${segment}`;
}
