import type { Request } from 'express';
import { z } from 'zod';
import { functionOption, optionsObject, stringList } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { buildRequestMatcher, RequestFacts, RequestMatcher, requestMatcherShape } from './RequestMatcher';
import { AccessDecision, isGranted } from './SecurityState';

/**
 * One `access_control` rule: match conditions, then what access needs. With both `roles` and
 * `allowIf`, either grants access (Symfony: "like an OR expression"); with neither, the rule
 * grants everyone (it only stops later rules from matching).
 */
export const accessControlRuleSchema = optionsObject({
  ...requestMatcherShape,
  /**
   * Roles or attributes, any one of which grants access: roles (hierarchy applied),
   * `PUBLIC_ACCESS`, `IS_AUTHENTICATED`, `IS_AUTHENTICATED_FULLY`.
   * @example ['ROLE_ADMIN']
   */
  roles: stringList.optional(),
  /**
   * Grants access when it returns true (Symfony `allow_if`, a function instead of an expression).
   * It runs after authentication: `req.security` is set.
   * @throws Error the kernel renders as a 500
   */
  allowIf: functionOption<(req: Request) => boolean>('a function (req) => boolean').optional(),
});

/** The `access_control` list, in order: {@link AccessMap}'s input. */
export const accessControlSchema = z.array(accessControlRuleSchema, { error: 'expected an array' });

/** One `access_control` rule (see {@link accessControlRuleSchema}). */
export type AccessControlRule = z.input<typeof accessControlRuleSchema>;

interface CompiledRule {
  readonly name: string;
  readonly matcher: RequestMatcher;
  readonly roles: readonly string[];
  readonly allowIf?: (req: Request) => boolean;
}

/**
 * The `access_control` list (Symfony `AccessMap` and `AccessListener`): the first rule whose
 * conditions match the request decides.
 */
export class AccessMap {
  private readonly rules: readonly CompiledRule[];

  /**
   * @param rules - in order; the first match wins
   * @param option - the option path to blame in errors @default 'accessControl'
   * @throws KernelConfigError e.g. `Invalid option "accessControl[0].path": not a valid regular expression…`
   */
  constructor(rules: readonly AccessControlRule[] = [], option = 'accessControl') {
    this.rules = parseOptions(accessControlSchema, rules, option).map((r, i) => {
      const matcher = buildRequestMatcher(r);
      return { name: `${option}[${i}] (${matcher.description})`, matcher, roles: r.roles ?? [], allowIf: r.allowIf };
    });
  }

  /**
   * Finds the rule for a request and decides it for the current user.
   * @returns the decision, or null when no rule matches (access is then granted)
   * @throws Error when an `allowIf` throws
   */
  decide(req: Request, facts: RequestFacts): AccessDecision | null {
    const rule = this.rules.find((r) => r.matcher.matches(facts));
    if (rule === undefined) return null;
    const attributes = rule.allowIf === undefined ? rule.roles : [...rule.roles, 'allowIf'];
    const granted = attributes.length === 0
      || rule.roles.some((role) => isGranted(req.security, role))
      || (rule.allowIf !== undefined && rule.allowIf(req) === true);
    return { source: 'access_control', rule: rule.name, attributes, result: granted ? 'granted' : 'denied' };
  }
}
