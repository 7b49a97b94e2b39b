import { describe, expect, it } from 'vitest';
import { noRoleChanges, pendingRoleCount, roleCalls, shownRole, toggleRole } from './roleChanges';

describe('role changes', () => {
  it('collects additions and removals per role, removals sent first', () => {
    let changes = toggleRole(noRoleChanges(), 'userManager', 'ana', false, true);
    changes = toggleRole(changes, 'applicationManager', 'bob', true, false);
    expect(pendingRoleCount(changes)).toBe(2);
    expect(shownRole(changes, 'userManager', 'ana', false)).toBe(true);
    expect(shownRole(changes, 'applicationManager', 'bob', true)).toBe(false);
    expect(roleCalls(changes)).toEqual([
      { role: 'applicationManager', login: 'bob', grant: false },
      { role: 'userManager', login: 'ana', grant: true },
    ]);
  });

  it('cancels an addition when the box is unchecked again', () => {
    let changes = toggleRole(noRoleChanges(), 'userManager', 'ana', false, true);
    changes = toggleRole(changes, 'userManager', 'ana', false, false);
    expect(pendingRoleCount(changes)).toBe(0);
    expect(roleCalls(changes)).toEqual([]);
  });
});
