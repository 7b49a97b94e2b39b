/**
 * The name an additional file is stored and downloaded under (spec §5): letters, digits, `_`, `-`, `.` and
 * spaces. Letters are those of any script (researchers name protocols in French). The name is trimmed first;
 * it must hold at least one letter or digit, so that `.`, `..` or blanks never name a file.
 */
export const MAX_ADDITIONAL_FILE_NAME_LENGTH = 255;

const ALLOWED = /^[\p{L}\p{N}_\-. ]+$/u;
const MEANINGFUL = /[\p{L}\p{N}]/u;

export function normalizeAdditionalFileName(name: string): string {
  return name.trim();
}

/**
 * What two names of one type may not share. Case is ignored: names differing only by case would overwrite each
 * other once unzipped on most desktops. Stored with the file (`name_key`), computed here and not by the database,
 * whose `lower` leaves letters beyond ASCII as they are on the embedded database.
 */
export function additionalFileNameKey(name: string): string {
  return normalizeAdditionalFileName(name).toLowerCase();
}

export function isValidAdditionalFileName(name: string): boolean {
  const trimmed = normalizeAdditionalFileName(name);
  return (
    trimmed.length > 0 &&
    trimmed.length <= MAX_ADDITIONAL_FILE_NAME_LENGTH &&
    ALLOWED.test(trimmed) &&
    MEANINGFUL.test(trimmed)
  );
}

/**
 * A valid name proposed for a chosen file: characters outside the rule become `_` (a downloaded
 * `protocole (v2).pdf` becomes `protocole _v2_.pdf`), so that choosing a file gives a name that passes.
 */
export function proposedAdditionalFileName(fileName: string): string {
  const cleaned = fileName
    .replace(/[^\p{L}\p{N}_\-. ]/gu, '_')
    .trim()
    .slice(0, MAX_ADDITIONAL_FILE_NAME_LENGTH);
  return isValidAdditionalFileName(cleaned) ? cleaned : '';
}
