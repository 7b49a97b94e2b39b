import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ErrorBodySchema } from '../../src/contract/errors.ts';

/** A JSON answer that its route's response schema does not describe. */
export interface AnswerMismatch {
  method: string;
  route: string;
  status: number;
  /** The first disagreement: where in the answer, and what the schema expected there. */
  path: string;
  problem: string;
}

/**
 * Checks every JSON answer against its route's response schema for its status, before Fastify serializes it: the
 * serializer drops fields the schema lacks, so a service answering more (or other) than the contract says would go
 * unnoticed. Used by the tests; a production server does not pay for it.
 *
 * The answer is checked as the client will read it (through JSON: dates as text, undefined fields gone), and every
 * object of the schema with a fixed list of properties is taken as closed: an extra field is a mismatch, since the
 * serializer would have dropped it. A success
 * without a schema for its status is a mismatch; a refusal without one must still be an error body. Routes with no
 * response schema at all (the OpenAPI document itself) and answers already serialized (files, streams) are not seen.
 */
export function registerAnswerCheck(app: FastifyInstance, report: (mismatch: AnswerMismatch) => void) {
  app.addHook('preSerialization', async (request, reply, payload) => {
    const responses = request.routeOptions.schema?.response as Record<string, TSchema> | undefined;
    if (!responses) return payload;
    const status = reply.statusCode;
    const schema =
      responses[status] ?? responses[`${Math.floor(status / 100)}xx`] ?? (status >= 400 ? ErrorBodySchema : undefined);
    const where = { method: request.method, route: request.routeOptions.url ?? request.url, status };
    if (!schema) {
      report({ ...where, path: '', problem: 'no response schema for this status' });
      return payload;
    }
    const mismatch = answerMismatch(schema, JSON.parse(JSON.stringify(payload)));
    if (mismatch) report({ ...where, ...mismatch });
    return payload;
  });
}

/**
 * Where an answer read as JSON departs from its schema (objects closed as above), or null: the check of every
 * answer, and of those a route writes as text (a list written as it is read), which the hook does not see.
 */
export function answerMismatch(schema: TSchema, json: unknown): { path: string; problem: string } | null {
  const strict = closed(schema);
  if (Value.Check(strict, json)) return null;
  const [first] = Value.Errors(strict, json);
  return { path: first?.instancePath ?? '', problem: first?.message ?? 'does not match' };
}

const closedCopies = new WeakMap<object, TSchema>();

/** The schema with `additionalProperties: false` on each object that lists its properties and says nothing of others. */
function closed(schema: TSchema): TSchema {
  let copy = closedCopies.get(schema);
  if (!copy) {
    copy = closeObjects(JSON.parse(JSON.stringify(schema))) as TSchema;
    closedCopies.set(schema, copy);
  }
  return copy;
}

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const holdsSchemas = ['properties', 'patternProperties', '$defs'].includes(key);
    copy[key] = holdsSchemas
      ? Object.fromEntries(Object.entries(value as object).map(([name, inner]) => [name, closeObjects(inner)]))
      : closeObjects(value);
  }
  if (copy.properties && copy.additionalProperties === undefined && copy.patternProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}
