/**
 * The OA_ functions OpenADOM puts in every expression's context: composite keys from the row, label escaping,
 * and raising one of the configuration's named exceptions (OA_groovyExceptions) with its translated message.
 */
import { ExpressionError } from './errors';
import { groovyToString, isGroovyMap, isStringLike, mapEntries, mapGet, textOf } from './groovyValues';
import { badArgument, stringArg } from './methodSupport';
import { compositeKey, escapeLabel, manyCompositeKey } from './naturalKeys';
import { isGroovyNumber, javaTrim, numberKind, toDouble } from './numbers';
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

/** A value made JSON-friendly for error params (numbers other than plain ones become their text). */
function toParam(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean')
    return value ?? null;
  if (isGroovyNumber(value))
    return numberKind(value) === 'Integer' || numberKind(value) === 'Double' ? toDouble(value) : groovyToString(value);
  if (Array.isArray(value)) return value.map(toParam);
  if (isGroovyMap(value))
    return Object.fromEntries(mapEntries(value).map((entry) => [groovyToString(entry.key), toParam(entry.value)]));
  return groovyToString(value);
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
      const exception = stringArg(args, 0, 'OA_buildException');
      const params = args.length > 1 ? args[1] : null;
      if (params !== null && !isGroovyMap(params)) throw badArgument('OA_buildException', 1, 'a map', params);
      const messages =
        rt.context.groovyExceptions && Object.prototype.hasOwnProperty.call(rt.context.groovyExceptions, exception)
          ? rt.context.groovyExceptions[exception]
          : null;
      throw new ExpressionError('groovyException', exception, {
        exception,
        messages,
        params: params === null ? {} : toParam(params),
      });
    },
  },
};

export function isHelperName(name: string): name is HelperName {
  return Object.prototype.hasOwnProperty.call(HELPERS, name);
}
