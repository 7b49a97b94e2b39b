import type { FastifyRequest } from 'fastify';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { formParts } from './formParts.ts';
import { multipartFailure } from './multipartFailure.ts';

/** A selection is a few kilobytes of JSON; a larger field is no selection a script means. */
const MAX_FIELD_BYTES = 1024 * 1024;

/**
 * Text fields of a request's body, however it was sent: the original's front end sent the selection of a DELETE
 * as FormData, scripts send it url-encoded or as JSON (where it may be an object, read as its JSON text). Fields
 * absent (or no body at all) are left out. Files in a form are read past, never kept.
 */
export async function bodyFields<Name extends string>(
  request: FastifyRequest,
  names: readonly Name[],
): Promise<Partial<Record<Name, string>>> {
  const wanted = new Set<string>(names);
  const fields: Partial<Record<Name, string>> = {};
  if (request.isMultipart()) {
    try {
      for await (const part of formParts(request, { limits: { fieldSize: MAX_FIELD_BYTES } })) {
        if (part.type === 'file') {
          part.file.resume();
          continue;
        }
        if (!wanted.has(part.fieldname)) continue;
        if (part.valueTruncated) throw new Refusal('PAYLOAD_TOO_LARGE');
        fields[part.fieldname as Name] = String(part.value);
      }
    } catch (error) {
      throw multipartFailure(error);
    }
    return fields;
  }
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return fields;
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    fields[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return fields;
}

/**
 * The one value of a parameter a caller may send under several names or in several places: undefined when none is
 * given, a refusal when two are given and differ (which of them the caller meant cannot be known).
 */
export function givenOnce(candidates: Record<string, string | undefined>): string | undefined {
  let given: [string, string] | undefined;
  for (const [name, value] of Object.entries(candidates)) {
    if (value === undefined) continue;
    if (given && given[1] !== value) throw new Refusal('CONFLICTING_PARAMETERS', { first: given[0], second: name });
    given ??= [name, value];
  }
  return given?.[1];
}
