import type { MapNode } from './configNode';
import { atKey, type Problems } from './problems';

/** Names and versions of the format (§2.1). */
export const APPLICATION_NAME = /^[a-z][a-z_0-9]{1,39}$/;
export const IDENTIFIER = /^[a-z][a-zA-Z_0-9]{1,49}$/;
export const DOMAIN_TAG_PATTERN = '^[a-z][a-z_0-9]*[a-z0-9]$';
export const DOMAIN_TAG = new RegExp(DOMAIN_TAG_PATTERN);

/**
 * Application versions in Java `Runtime.Version` syntax (`3.0.1`, `1.0-SNAPSHOT`, `2+7`), except that a trailing
 * zero element is accepted (`1.0.0`), which Java refuses although authors expect it to work.
 */
export const APPLICATION_VERSION =
  /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*(-[a-zA-Z0-9]+)?(\+(0|[1-9][0-9]*)?)?(-[-a-zA-Z0-9.]+)?$/;

/** Keys of user-named maps (data, components, validations, form fields…) must be identifiers; one error per map. */
export function checkIdentifiers(map: MapNode, path: string, problems: Problems): void {
  const invalid = map.entries.filter((entry) => !IDENTIFIER.test(entry.key));
  if (invalid.length > 0) {
    problems.report(
      'INVALID_IDENTIFICATEURS',
      path,
      { invalidIdentificateurs: invalid.map((entry) => entry.key) },
      atKey(map, invalid[0]),
    );
  }
}
