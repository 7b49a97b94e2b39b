/**
 * The name an additional file is stored and downloaded under (spec §5): letters, digits, `_`, `-`, `.` and
 * spaces. Letters are those of any script (researchers name protocols in French). The name is trimmed and composed
 * (Unicode NFC) first; it must hold at least one letter or digit, so that `.`, `..` or blanks never name a file.
 */
export const MAX_ADDITIONAL_FILE_NAME_LENGTH = 255;

const ALLOWED = /^[\p{L}\p{N}_\-. ]+$/u;
const MEANINGFUL = /[\p{L}\p{N}]/u;
/**
 * Names Windows keeps for its devices, whatever follows their first dot: `con.pdf` cannot be written there, and a
 * zip holding one fails to unzip.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/**
 * Trimmed and composed: a name typed, pasted or read from a file chooser (macOS gives decomposed names) comes in
 * either Unicode form, and `é` must be one letter for the rule and for the key.
 */
export function normalizeAdditionalFileName(name: string): string {
  return name.normalize('NFC').trim();
}

/**
 * What two names of one type may not share. Case is ignored: names differing only by case would overwrite each
 * other once unzipped on most desktops. Stored with the file (`name_key`), computed here and not by the database,
 * whose `lower` leaves letters beyond ASCII as they are on the embedded database.
 */
export function additionalFileNameKey(name: string): string {
  return normalizeAdditionalFileName(name).toLowerCase();
}

/** The rule names were stored under before the two below: what a backup may hold, and is restored with. */
export function isRestorableAdditionalFileName(name: string): boolean {
  const normalized = normalizeAdditionalFileName(name);
  return (
    normalized.length > 0 &&
    normalized.length <= MAX_ADDITIONAL_FILE_NAME_LENGTH &&
    ALLOWED.test(normalized) &&
    MEANINGFUL.test(normalized)
  );
}

/**
 * A name a file may be given: restorable, not hidden (a leading `.` hides the file once downloaded on most
 * desktops) and not a device name of Windows.
 */
export function isValidAdditionalFileName(name: string): boolean {
  const normalized = normalizeAdditionalFileName(name);
  return isRestorableAdditionalFileName(normalized) && !normalized.startsWith('.') && !isWindowsDeviceName(normalized);
}

/** Windows ignores the spaces before the first dot too: `aux .txt` is `aux`. */
const isWindowsDeviceName = (name: string) => WINDOWS_DEVICE.test(name.split('.')[0]!.trimEnd());

/**
 * A valid name proposed for a chosen file: characters outside the rule become `_` (a downloaded
 * `protocole (v2).pdf` becomes `protocole _v2_.pdf`), leading dots go and a device name gets a `_` before it, so that
 * choosing a file gives a name that passes.
 */
export function proposedAdditionalFileName(fileName: string): string {
  const cleaned = fileName
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_\-. ]/gu, '_')
    .trim()
    .replace(/^[. ]+/, '');
  const proposed = (isWindowsDeviceName(cleaned) ? `_${cleaned}` : cleaned).slice(0, MAX_ADDITIONAL_FILE_NAME_LENGTH);
  return isValidAdditionalFileName(proposed) ? proposed : '';
}
