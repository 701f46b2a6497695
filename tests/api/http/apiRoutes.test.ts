/**
 * `apiRoutes` validates its options once, with the one option error format
 * (`Invalid option "api.<path>": … (got …)`, did-you-mean for a mistyped key).
 */
import { z } from 'zod';
import { apiRoutes, defineResource, relation, type ApiOptions } from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';

const store = new MemoryState();
const author = defineResource({
  shortName: 'Author', schema: z.object({ name: z.string() }), provider: store, processor: store,
});
const book = defineResource({
  shortName: 'Book', schema: z.object({ title: z.string(), author: relation('Author') }),
  provider: store, processor: store,
});
const routes = (options: unknown) => (): unknown => apiRoutes(options as ApiOptions);

describe('apiRoutes options', () => {
  it('builds the routes of valid options under the entrypoint given', () => {
    const collection = apiRoutes({ resources: [author, book], entrypoint: '/v1' });
    expect(collection.get('api_entrypoint')?.path).toBe('/v1');
    expect(collection.get('api_doc')?.path).toBe('/v1/docs.jsonld');
  });

  it('names a mistyped option and the option it meant', () => {
    expect(routes({ resources: [author, book], entrypont: '/v1' }))
      .toThrow('Invalid option "api.entrypont": unknown option; did you mean "entrypoint"?');
  });

  it.each([
    ['resources that are not a list', { resources: {} },
      'Invalid option "api.resources": expected an array of resources (got {}).'],
    ['a resource not from defineResource()', { resources: [{ shortName: 'Book' }] },
      'Invalid option "api.resources[0]": expected what defineResource() returns (got {"shortName":"Book"}).'],
    ['an entrypoint that is not a path', { resources: [author], entrypoint: 'api/' },
      'Invalid option "api.entrypoint": expected a path such as "/api" (got "api/").'],
    ['a stateContext that is not a function', { resources: [author], stateContext: 'sql' },
      'Invalid option "api.stateContext": expected a function (req) => StateContext (got "sql").'],
    ['two resources with one short name', { resources: [author, author] },
      'Invalid option "api.resources[1]": expected one resource per short name (got "Author").'],
    ['a relation to a resource the API does not have', { resources: [book] },
      'Invalid option "resources.Book.schema.author": relation() names no resource of the API (known: Book) '
        + '(got "Author").'],
  ])('rejects %s', (_, options, message) => {
    expect(routes(options)).toThrow(message);
  });
});
