/**
 * Errors are values until the edge: the domain returns them, the server maps them to statuses, the UI to
 * translated text through the catalogs in `locales/`. `params` are the values a message interpolates.
 */
export interface DomainError<Code extends string = string> {
  code: Code;
  params: Record<string, unknown>;
  /** Location inside a configuration, segments joined by " > " (as the original validator writes them). */
  path?: string;
  /** 1-based source position when the error comes from a text (YAML, expression, CSV). */
  line?: number;
  column?: number;
  /** The file inside an uploaded archive that the position refers to (zip configurations: `OA_data/pem.yaml`). */
  file?: string;
}

export type Result<Value, Error = DomainError> = { ok: true; value: Value } | { ok: false; errors: Error[] };
