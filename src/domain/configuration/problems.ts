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
    this.errors.push({
      code,
      path: shown(path),
      params: shownParams(params),
      ...(target ? locate(target.source, target.offset) : {}),
    });
  }

  warn(code: ConfigurationWarningCode, path: string, params: Record<string, unknown>, target?: ProblemTarget): void {
    this.warnings.push({
      code,
      path: shown(path),
      params: shownParams(params),
      ...(target ? locate(target.source, target.offset) : {}),
    });
  }

  get count(): number {
    return this.errors.length;
  }
}

/** Paths are written as the original writes them in error params: segments joined by " > ". */
export function childPath(path: string, segment: string | number): string {
  return path === '' ? String(segment) : `${path} > ${segment}`;
}

/** Characters of a text a problem repeats, items of a list or entries of a map, and levels of nesting: then `…`. */
const TEXT_SHOWN = 300;
const ITEMS_SHOWN = 50;
const DEPTH_SHOWN = 4;

const shown = (text: string) => (text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}…` : text);

/**
 * A problem's values as it repeats them, bounded: a value of megabytes written where it does not belong was sent
 * back whole in the refusal (and built, and translated, on the request thread).
 */
export function shownParams(params: Record<string, unknown>): Record<string, unknown> {
  const bounded = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return shown(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= DEPTH_SHOWN) return '…';
    if (Array.isArray(value)) {
      const items = value.slice(0, ITEMS_SHOWN).map((item) => bounded(item, depth + 1));
      return value.length > ITEMS_SHOWN ? [...items, '…'] : items;
    }
    const entries = Object.entries(value);
    const kept = entries.slice(0, ITEMS_SHOWN).map(([key, item]) => [shown(key), bounded(item, depth + 1)]);
    return Object.fromEntries(entries.length > ITEMS_SHOWN ? [...kept, ['…', '…']] : kept);
  };
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, bounded(value, 0)]));
}
