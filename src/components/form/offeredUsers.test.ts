import { describe, expect, it } from 'vitest';
import { addressesShown, offeredUsers } from './offeredUsers';

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

  it('searches by login alone the users sent without an address', () => {
    const logins = [
      { id: 'a', login: 'anna' },
      { id: 'b', login: 'bob', email: 'anna.b@terrain.test' },
    ];
    expect(offeredUsers(logins, [], 'anna').map((u) => u.id)).toEqual(['a', 'b']);
    expect(offeredUsers(logins, [], 'terrain').map((u) => u.id)).toEqual(['b']);
    expect(offeredUsers([{ id: 'a', login: 'anna' }], [], '@')).toEqual([]);
  });

  it('offers a search by address only when the list holds the addresses of others', () => {
    expect(addressesShown(users)).toBe(true);
    expect(
      addressesShown([
        { id: 'me', login: 'me', email: 'me@terrain.test' },
        { id: 'a', login: 'anna' },
      ]),
    ).toBe(false);
  });
});
