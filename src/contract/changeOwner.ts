/**
 * The header naming whose change a request carries, sent by the outbox: the login, URI-encoded (a header holds
 * Latin-1 only). A request whose session is another person's is refused with 409 CHANGE_OF_ANOTHER_USER, so that a
 * change made by one person is never applied as another's (someone signed in on the same tablet meanwhile).
 */
export const OWNER_HEADER = 'X-Terrain-Owner';

export const ownerHeaderValue = (login: string): string => encodeURIComponent(login);

/** The login the header names, or undefined when it is malformed. */
export function ownerOf(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
