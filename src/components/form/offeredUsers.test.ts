import { describe, expect, it } from 'vitest';
import { offeredUsers } from './offeredUsers';

const user = (login: string) => ({ id: login, login, email: `${login}@terrain.test` });

describe('offeredUsers', () => {
  // 3,000 logins containing "li", sorted before "li" itself: only the first few are ever shown.
  const users = [
    ...Array.from({ length: 3_000 }, (_, i) => user(`ali${String(i).padStart(4, '0')}`)),
    user('li'),
    user('lise'),
  ];

  it('offers a whole match first, then beginnings, then the rest in their order', () => {
    const offered = offeredUsers(users, [], ' LI ').map((u) => u.login);
    expect(offered).toHaveLength(3_002);
    expect(offered.slice(0, 4)).toEqual(['li', 'lise', 'ali0000', 'ali0001']);
  });

  it('matches e-mails, leaves out the chosen, and offers nothing for an empty search', () => {
    expect(offeredUsers(users, ['li'], 'li@terrain.test').map((u) => u.login)).toEqual([]);
    expect(offeredUsers(users, [], 'lise@terrain').map((u) => u.login)).toEqual(['lise']);
    expect(offeredUsers(users, [], '  ')).toEqual([]);
  });
});
