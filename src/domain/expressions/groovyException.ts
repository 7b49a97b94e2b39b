/**
 * The configuration's named exceptions (OA_groovyExceptions): raised by `OA_buildException(code, params)` and by
 * `throw new GroovyException(code, params)`, the original's own exception class. Both end as the same
 * `groovyException` error, carrying the code, the messages the configuration gives for it (if any) and the params.
 */
import { ExpressionError } from './errors';
import { GroovyExceptionValue, groovyToString, isGroovyMap, mapEntries } from './groovyValues';
import { badArgument, stringArg } from './methodSupport';
import { isGroovyNumber, numberKind, toDouble } from './numbers';
import type { Runtime } from './runtime';
import type { StaticMethod } from './staticClass';

/** Names the exception class answers to in `new` and `import`. */
export const GROOVY_EXCEPTION_CLASS = 'fr.inra.oresing.domain.groovy.exception.GroovyException';
export const GROOVY_EXCEPTION_NAMES: readonly string[] = ['GroovyException', GROOVY_EXCEPTION_CLASS];

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

/** Reads `(code)` or `(code, params)`, as both the helper and the constructor take them. */
export function groovyExceptionOf(args: readonly unknown[], name: string): GroovyExceptionValue {
  const code = stringArg(args, 0, name);
  const params = args.length > 1 ? args[1] : null;
  if (params !== null && params !== undefined && !isGroovyMap(params)) throw badArgument(name, 1, 'a map', params);
  return new GroovyExceptionValue(code, params ?? null);
}

/** The line error for an exception: the configuration's messages for its code, or null when it has none. */
export function raiseGroovyException(rt: Runtime, exception: GroovyExceptionValue): ExpressionError {
  const declared = rt.context.groovyExceptions;
  const messages =
    declared && Object.prototype.hasOwnProperty.call(declared, exception.code) ? declared[exception.code] : null;
  return new ExpressionError('groovyException', exception.code, {
    exception: exception.code,
    messages,
    params: exception.params === null ? {} : toParam(exception.params),
  });
}

/** `new GroovyException(code)` / `new GroovyException(code, params)`: builds the value; `throw` raises it. */
export const GROOVY_EXCEPTION_CONSTRUCTOR: StaticMethod = {
  name: 'new GroovyException',
  min: 1,
  max: 2,
  invoke: (_rt, args) => groovyExceptionOf(args, 'GroovyException'),
};
