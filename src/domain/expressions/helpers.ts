/**
 * The OA_ functions OpenADOM puts in every expression's context: composite keys from the row, label escaping,
 * and raising one of the configuration's named exceptions (OA_groovyExceptions) with its translated message.
 */
import { groovyExceptionOf, raiseGroovyException } from './groovyException';
import { isStringLike, mapGet, textOf } from './groovyValues';
import { badArgument, stringArg } from './methodSupport';
import { compositeKey, escapeLabel, manyCompositeKey } from './naturalKeys';
import { javaTrim } from './numbers';
import type { Runtime } from './runtime';

export type HelperName = 'OA_buildCompositeKey' | 'OA_buildManyCompositeKey' | 'OA_escapeLabel' | 'OA_buildException';

interface Helper {
  readonly min: number;
  readonly max: number;
  invoke(rt: Runtime, args: readonly unknown[]): unknown;
}

/** Helpers of the original that this engine does not provide; using one is a compile error naming it. */
export const UNSUPPORTED_HELPERS: ReadonlySet<string> = new Set(['OA_naturalKeyBuilder']);

/** The texts of the named datum components (missing or null → ''), as the key builders read them. */
function datumTexts(rt: Runtime, args: readonly unknown[], name: string): string[] {
  const names = args[0];
  if (!Array.isArray(names)) throw badArgument(name, 0, 'a list of component names', names);
  const datum = rt.context.datum ?? {};
  rt.tick(names.length);
  return names.map((component, k) => {
    if (!isStringLike(component)) throw badArgument(name, k, 'a component name', component);
    const value = mapGet(datum, textOf(component));
    return value === null ? '' : rt.text(value);
  });
}

export const HELPERS: Readonly<Record<HelperName, Helper>> = {
  OA_buildCompositeKey: {
    min: 1,
    max: 1,
    invoke: (rt, args) => compositeKey(datumTexts(rt, args, 'OA_buildCompositeKey').map(javaTrim)),
  },
  OA_buildManyCompositeKey: {
    min: 1,
    max: 1,
    invoke: (rt, args) => manyCompositeKey(datumTexts(rt, args, 'OA_buildManyCompositeKey')),
  },
  OA_escapeLabel: {
    min: 1,
    max: 1,
    invoke: (_rt, args) => escapeLabel(stringArg(args, 0, 'OA_escapeLabel')),
  },
  OA_buildException: {
    min: 1,
    max: 2,
    invoke: (rt, args) => {
      throw raiseGroovyException(rt, groovyExceptionOf(args, 'OA_buildException'));
    },
  },
};

export function isHelperName(name: string): name is HelperName {
  return Object.prototype.hasOwnProperty.call(HELPERS, name);
}
