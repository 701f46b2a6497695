import { RoutingArgumentError } from './errors';

/** What a deprecated alias says when used (Symfony `Alias::getDeprecation`). */
export interface AliasDeprecation {
  /** The package that deprecates the alias. @example 'acme/blog' */
  readonly package: string;
  /** The version that deprecated it. @example '1.2' */
  readonly version: string;
  /** The message, with `%alias_id%` replaced by the alias's name. */
  readonly message: string;
}

const DEFAULT_MESSAGE = 'The "%alias_id%" route alias is deprecated. You should stop using it, as it will be removed ' +
  'in the future.';

/**
 * Another name for a route (Symfony `Symfony\Component\Routing\Alias`), made with
 * `RouteCollection.addAlias(name, target)`. The target may be another alias.
 */
export class Alias {
  private deprecation: { package: string; version: string; message: string } | undefined;

  /** @param id - the name of the route (or alias) this alias points to */
  constructor(readonly id: string) {}

  /** The target's name (Symfony `getId`). */
  getId(): string {
    return this.id;
  }

  /** A copy pointing to another target, deprecation included (Symfony `withId`). */
  withId(id: string): Alias {
    const copy = new Alias(id);
    copy.deprecation = this.deprecation;
    return copy;
  }

  /**
   * Marks the alias as deprecated: using it (generating a URL through it) logs the message.
   * @param pkg - the package name
   * @param version - the version that deprecated it
   * @param message - a template with `%alias_id%`; '' for Symfony's default message
   * @returns this alias
   * @throws RoutingArgumentError when the message has a line break or `*\/`, or lacks `%alias_id%`
   */
  setDeprecated(pkg: string, version: string, message: string): this {
    if (message !== '') {
      if (/[\r\n]|\*\//.test(message)) throw new RoutingArgumentError('Invalid characters found in deprecation ' +
        'template.');
      if (!message.includes('%alias_id%')) {
        throw new RoutingArgumentError('The deprecation template must contain the "%alias_id%" placeholder.');
      }
    }
    this.deprecation = { package: pkg, version, message: message === '' ? DEFAULT_MESSAGE : message };
    return this;
  }

  /** True after {@link setDeprecated}. */
  isDeprecated(): boolean {
    return this.deprecation !== undefined;
  }

  /**
   * @param name - the alias's name, put in place of `%alias_id%`
   * @returns the deprecation, or undefined when the alias is not deprecated
   */
  getDeprecation(name: string): AliasDeprecation | undefined {
    const d = this.deprecation;
    return d === undefined ? undefined : { ...d, message: d.message.replaceAll('%alias_id%', name) };
  }
}
