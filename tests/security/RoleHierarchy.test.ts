import { RoleHierarchy } from '../../src/security/RoleHierarchy';
import { isGranted, SecurityState } from '../../src/security/SecurityState';

describe('RoleHierarchy', () => {
  const h = new RoleHierarchy({ ROLE_SUPER_ADMIN: ['ROLE_ADMIN', 'ROLE_ALLOWED_TO_SWITCH'], ROLE_ADMIN: ['ROLE_USER'], ROLE_A: ['ROLE_B'], ROLE_B: ['ROLE_A'] });

  test('reachableRoles expands transitively, keeping the given roles first', () => {
    expect(h.reachableRoles(['ROLE_SUPER_ADMIN'])).toEqual(['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_ALLOWED_TO_SWITCH', 'ROLE_USER']);
    expect(h.reachableRoles(['ROLE_USER'])).toEqual(['ROLE_USER']);
  });

  test('cycles are harmless', () => {
    expect(h.reachableRoles(['ROLE_A']).sort()).toEqual(['ROLE_A', 'ROLE_B']);
  });

  test('rejects a role whose value is not a list of roles', () => {
    expect(() => new RoleHierarchy({ ROLE_ADMIN: [''] })).toThrow('Invalid option "roleHierarchy.ROLE_ADMIN[0]": expected a non-empty string (got "").');
  });
});

describe('isGranted(state, attribute)', () => {
  const anonymous: SecurityState = { firewall: 'main', user: null, roles: [], authenticator: null, decisions: [] };
  const alice: SecurityState = { firewall: 'main', user: { identifier: 'alice', roles: ['ROLE_USER'] }, roles: ['ROLE_USER'], authenticator: 'http_basic', decisions: [] };
  test.each([
    [anonymous, 'PUBLIC_ACCESS', true], [anonymous, 'IS_AUTHENTICATED', false], [anonymous, 'ROLE_USER', false],
    [alice, 'IS_AUTHENTICATED_FULLY', true], [alice, 'ROLE_USER', true], [alice, 'ROLE_ADMIN', false],
    [undefined, 'PUBLIC_ACCESS', true], [undefined, 'ROLE_USER', false],
  ])('%#: %s', (state, attribute, expected) => {
    expect(isGranted(state, attribute)).toBe(expected);
  });
});
