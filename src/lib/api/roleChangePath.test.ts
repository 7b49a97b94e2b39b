import { describe, expect, it } from 'vitest';
import { roleChangePath } from './roleChangePath';

describe('roleChangePath', () => {
  it('repeats applicationPattern once per pattern', () => {
    expect(roleChangePath('applicationCreator', { userIdOrLogin: 'ana', applicationPattern: ['a.*', 'b c'] })).toBe(
      '/authorization/applicationCreator?userIdOrLogin=ana&applicationPattern=a.*&applicationPattern=b+c',
    );
  });

  it('names the application of a per-application role', () => {
    expect(roleChangePath('userManager', { userIdOrLogin: 'ana', applicationNameOrId: 'sites' })).toBe(
      '/authorization/userManager?userIdOrLogin=ana&applicationNameOrId=sites',
    );
  });
});
