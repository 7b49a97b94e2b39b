export interface PickerUser {
  id: string;
  login: string;
  email: string;
}

/**
 * The users a search offers (those not chosen whose login or e-mail contains `text`, case ignored): whole matches
 * first, then beginnings, then the rest, each in the order given. A login contained in many others ("li" in "alice",
 * "julie", …) is still offered first once typed whole, whatever the number of users.
 */
export function offeredUsers<User extends PickerUser>(users: readonly User[], chosen: readonly string[], text: string) {
  const search = text.trim().toLowerCase();
  if (search === '') return [];
  const taken = new Set(chosen);
  const rank = (user: PickerUser) => {
    const [login, email] = [user.login.toLowerCase(), user.email.toLowerCase()];
    if (login === search || email === search) return 0;
    if (login.startsWith(search) || email.startsWith(search)) return 1;
    return login.includes(search) || email.includes(search) ? 2 : -1;
  };
  return users
    .filter((user) => !taken.has(user.id))
    .map((user) => ({ user, rank: rank(user) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.user);
}
