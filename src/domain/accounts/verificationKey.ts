/**
 * Keys mailed to users: 10 characters from an alphabet without the look-alikes O/0 and I/1, so a key read on a
 * phone and typed on a tablet survives the trip.
 */
export const VERIFICATION_KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const VERIFICATION_KEY_LENGTH = 10;

export function generateVerificationKey(): string {
  // 256 is a multiple of 32, so taking bytes modulo the alphabet size keeps every character equally likely.
  const bytes = new Uint8Array(VERIFICATION_KEY_LENGTH);
  globalThis.crypto.getRandomValues(bytes);
  let key = '';
  for (const byte of bytes) key += VERIFICATION_KEY_ALPHABET[byte % VERIFICATION_KEY_ALPHABET.length];
  return key;
}

/** Users may type a key in lower case or with spaces around it; what counts is the ten characters. */
export function normalizeVerificationKey(input: string): string {
  return input.trim().toUpperCase();
}

export function isWellFormedVerificationKey(input: string): boolean {
  const key = normalizeVerificationKey(input);
  if (key.length !== VERIFICATION_KEY_LENGTH) return false;
  for (const char of key) if (!VERIFICATION_KEY_ALPHABET.includes(char)) return false;
  return true;
}
