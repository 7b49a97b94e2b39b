import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { holdsNulCharacter } from '../domain/text/nulCharacter.ts';

export type JsonParameterReading<T> =
  { ok: true; value: T } | { ok: false; reason: 'notJson' | 'badShape'; path?: string };

/**
 * JSON carried inside a query string or a form field (`params`, `repositoryId`…), read against its schema: the
 * request schemas of the routes cannot see inside such a string, and a field of the wrong type must be refused
 * there, not met as a number where a date was expected deep inside a service.
 */
export function readJsonParameter<S extends TSchema>(
  schema: S,
  text: string | undefined,
): JsonParameterReading<Static<S> | undefined> {
  if (text === undefined || text === '' || text === 'undefined') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'notJson' };
  }
  return checkJson(schema, value);
}

/** A JSON value already parsed (a body a route reads in more than one shape) checked against its schema. */
export function checkJson<S extends TSchema>(schema: S, value: unknown): JsonParameterReading<Static<S>> {
  if (holdsNulCharacter(value)) return { ok: false, reason: 'badShape', path: '' };
  if (Value.Check(schema, value)) return { ok: true, value: value as Static<S> };
  const [first] = Value.Errors(schema, value);
  return { ok: false, reason: 'badShape', path: first?.instancePath ?? '' };
}
