/**
 * The usage charter rule, shared by the server (which refuses data access) and the interface (which shows the
 * charter step). A charter counts as signed when the user accepted it after its current version was uploaded:
 * uploading a new charter asks everyone to accept again.
 */
export interface CharterSigning {
  /** The user accepted some version of the charter. */
  hasSignedCharte: boolean;
  /** The user accepted the current version, or there is nothing to accept. */
  hasSignedLastCharte: boolean;
  /** The user must accept the charter before reaching the data. */
  mustSignCharter: boolean;
}

/** The charter is kept as the additional file of this type (one per application). */
export const CHARTER_TYPE = '__charter__';
/** Both spellings name the charter: ours, and the original's (`__charte__`, French). */
export const CHARTER_TYPES: readonly string[] = [CHARTER_TYPE, '__charte__'];
/**
 * Whether an additional-file type is the charter: listings of additional files leave it out, and uploads of it
 * follow the charter's rules (managers only, a PDF). Configured types never collide: they start with a letter.
 */
export const isCharterType = (fileType: string | null | undefined) =>
  fileType != null && CHARTER_TYPES.includes(fileType);

/**
 * `acceptedAt` is the user's recorded acceptance (`chartes[applicationId]`), `uploadedAt` the time the current
 * charter was stored (none: the application has no charter). Managers, user managers, creators and platform
 * administrators (`exempt`) never have to sign.
 */
export function charterSigning(
  acceptedAt: string | undefined,
  uploadedAt: Date | string | null | undefined,
  exempt: boolean,
): CharterSigning {
  const accepted = acceptedAt === undefined ? NaN : Date.parse(acceptedAt);
  const hasSignedCharte = !Number.isNaN(accepted);
  const hasSignedLastCharte = uploadedAt == null || (hasSignedCharte && accepted > new Date(uploadedAt).getTime());
  return { hasSignedCharte, hasSignedLastCharte, mustSignCharter: !exempt && !hasSignedLastCharte };
}

/**
 * Whether the device must still show the charter step. The server's answer (`mustSignCharter`, with the upload
 * time of the charter it was about) may be older than what happened on the device since: an acceptance
 * remembered on the user (`acceptedAt`), or one waiting in the outbox for that same charter version — accepted
 * offline, or sent but not yet seen in a fresh answer. Either lets the user in.
 */
export function mustSignOnDevice(
  view: { mustSignCharter: boolean; charterUploadedAt?: string },
  acceptedAt: string | undefined,
  acceptedVersionsWaiting: readonly string[],
): boolean {
  if (!view.mustSignCharter) return false;
  if (view.charterUploadedAt !== undefined && acceptedVersionsWaiting.includes(view.charterUploadedAt)) return false;
  return charterSigning(acceptedAt, view.charterUploadedAt, false).mustSignCharter;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** A PDF starts with `%PDF-`: what the device checks before sending, and what the server checks on receipt. */
export const looksLikePdf = (bytes: Uint8Array) => PDF_MAGIC.every((byte, i) => bytes[i] === byte);
