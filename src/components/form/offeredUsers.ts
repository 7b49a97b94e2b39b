export interface PickerUser {
  id: string;
  login: string;
  /** Sent to platform administrators only (and to each user for themself): others choose by login. */
  email?: string;
}

/**
 * Whether the list holds the addresses of others, so that a search by address is worth offering: a platform
 * administrator's does; anyone else's holds their own address at most.
 */
export const addressesShown = (users: readonly PickerUser[]) =>
  users.filter((user) => user.email !== undefined).length > 1;

/**
 * The users a search offers (those not chosen whose login or e-mail, when sent, contains `text`, case ignored):
 * whole matches first, then beginnings, then the rest, each in the order given. A login contained in many others
 * ("li" in "alice", "julie", …) is still offered first once typed whole, whatever the number of users.
 */
export function offeredUsers<User extends PickerUser>(users: readonly User[], chosen: readonly string[], text: string) {
  const search = text.trim().toLowerCase();
  if (search === '') return [];
  const taken = new Set(chosen);
  const rank = (user: PickerUser) => {
    const texts = [user.login, ...(user.email === undefined ? [] : [user.email])].map((t) => t.toLowerCase());
    if (texts.some((t) => t === search)) return 0;
    if (texts.some((t) => t.startsWith(search))) return 1;
    return texts.some((t) => t.includes(search)) ? 2 : -1;
  };
  return users
    .filter((user) => !taken.has(user.id))
    .map((user) => ({ user, rank: rank(user) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.user);
}
