import type { Request } from 'express';
import { compileRequestMatcher, RequestFacts, RequestMatcher, RequestMatcherOptions } from './RequestMatcher';
import { AccessDecision, isGranted } from './SecurityState';
import { arrayOption, functionOption, knownKeys, objectOption, stringListOption } from '../config/optionValidation';

/**
 * One `access_control` rule: match conditions, then what access needs. With both `roles` and
 * `allowIf`, either grants access (Symfony: "like an OR expression"); with neither, the rule
 * grants everyone (it only stops later rules from matching).
 */
export interface AccessControlRule extends RequestMatcherOptions {
  /**
   * Roles or attributes, any one of which grants access: roles (hierarchy applied),
   * `PUBLIC_ACCESS`, `IS_AUTHENTICATED`, `IS_AUTHENTICATED_FULLY`.
   * @example ['ROLE_ADMIN']
   */
  roles?: string[];
  /**
   * Grants access when it returns true (Symfony `allow_if`, a function instead of an expression).
   * It runs after authentication: `req.security` is set.
   * @throws Error the kernel renders as a 500
   */
  allowIf?: (req: Request) => boolean;
}

interface CompiledRule {
  readonly name: string;
  readonly matcher: RequestMatcher;
  readonly roles: readonly string[];
  readonly allowIf?: (req: Request) => boolean;
}

const RULE_KEYS = ['path', 'host', 'methods', 'ips', 'roles', 'allowIf'];

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
    this.rules = arrayOption(rules, option).map((raw, i) => {
      const at = `${option}[${i}]`;
      const r = objectOption(raw, at);
      knownKeys(r, RULE_KEYS, at);
      const matcher = compileRequestMatcher(r, at);
      return {
        name: `${at} (${matcher.description})`,
        matcher,
        roles: r.roles === undefined ? [] : stringListOption(r.roles, `${at}.roles`),
        allowIf: r.allowIf === undefined ? undefined : functionOption<(req: Request) => boolean>(r.allowIf, `${at}.allowIf`, 'a function (req) => boolean'),
      };
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
