import type { ApplicationModel } from './model';

/**
 * The stored form of a model: JSON with object keys sorted at every level, so that the same configuration always
 * gives the same text (the server can compare versions byte for byte, the client can key its cache on it). Arrays
 * keep their order, which carries meaning. `undefined` never occurs in a model; absent things are `null`.
 */
export function serializeModel(model: ApplicationModel): string {
  return stableJson(model);
}

/** JSON with object keys sorted: equal for equal parts of a model, whether parsed or read back from storage. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Reads a stored model back. The text is trusted to come from {@link serializeModel} of the same model version. */
export function deserializeModel(text: string): ApplicationModel {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || !('formatVersion' in value) || !('data' in value)) {
    throw new Error('Not a serialized application model');
  }
  return value as ApplicationModel;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
