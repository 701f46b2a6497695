import { z } from 'zod';
import { stringList } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

/** Which roles each role includes (Symfony `security.role_hierarchy`): {@link RoleHierarchyMap}. */
export const roleHierarchySchema = z.record(z.string(), stringList.readonly(), { error: 'expected an object' })
  .readonly();

/** Which roles each role includes, e.g. `{ ROLE_ADMIN: ['ROLE_USER'] }`. */
export type RoleHierarchyMap = z.input<typeof roleHierarchySchema>;

/**
 * Expands roles through the hierarchy (Symfony `RoleHierarchy::getReachableRoleNames`). The
 * transitive closure is computed once, at construction; cycles are harmless.
 */
export class RoleHierarchy {
  private readonly reachable: ReadonlyMap<string, readonly string[]>;

  /**
   * @param hierarchy - each role's included roles @example { ROLE_ADMIN: ['ROLE_USER'] }
   * @param option - the option name to blame in errors @default 'roleHierarchy'
   * @throws KernelConfigError `Invalid option "roleHierarchy.ROLE_ADMIN": expected an array…`
   */
  constructor(hierarchy: RoleHierarchyMap = {}, option = 'roleHierarchy') {
    const direct = new Map<string, string[]>();
    for (const [role, included] of Object.entries(parseOptions(roleHierarchySchema, hierarchy, option))) {
      direct.set(role, [...included]);
    }
    const reachable = new Map<string, readonly string[]>();
    for (const role of direct.keys()) {
      const seen = new Set<string>();
      const queue = [...(direct.get(role) ?? [])];
      while (queue.length > 0) {
        const r = queue.shift() as string;
        if (seen.has(r)) continue;
        seen.add(r);
        queue.push(...(direct.get(r) ?? []));
      }
      reachable.set(role, Object.freeze([...seen]));
    }
    this.reachable = reachable;
  }

  /**
   * @param roles - the roles granted directly
   * @returns those roles, then every role they include, without duplicates
   */
  reachableRoles(roles: readonly string[]): string[] {
    const out = new Set(roles);
    for (const role of roles) for (const r of this.reachable.get(role) ?? []) out.add(r);
    return [...out];
  }
}
