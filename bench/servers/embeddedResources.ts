/**
 * The `api` section's embedded cell (issue 25): the demo's `books` and `authors` tables served a
 * second time, under `/bench`, by a Book whose normalization groups reach the Author's name and
 * birth date, so each book of a page embeds its author as a document (API Platform's readable
 * link) instead of an IRI. The authors of a page are read in one batch by the store.
 */
import { z } from 'zod';
import { apiRoutes, defineResource, GetCollection, Get, groups, readOnly, relation, type Resource } from '../../src/api';
import type { DemoStore } from '../../src/demo/resources';
import type { RouteCollection } from '../../src/routing/RouteCollection';

const READ = ['book:read'];

/** The two resources on the demo's tables (read-only: GetCollection and Get). */
export function embeddedBenchResources(store: DemoStore): Resource[] {
  const author = defineResource({
    shortName: 'EmbeddedAuthor',
    table: 'authors',
    routePrefix: '/bench/authors',
    schema: z.object({
      id: readOnly(z.int()),
      name: groups(z.string(), READ),
      birthDate: groups(z.iso.date().nullable().optional(), READ),
    }),
    provider: store.provider,
    processor: store.processor,
    operations: [GetCollection(), Get()],
  });
  const book = defineResource({
    shortName: 'EmbeddedBook',
    table: 'books',
    routePrefix: '/bench/books',
    schema: z.object({
      id: readOnly(z.int()),
      title: groups(z.string(), READ),
      isbn: groups(z.string().nullable().optional(), READ),
      publishedAt: groups(z.iso.date().nullable().optional(), READ),
      price: groups(z.number().nullable().optional(), READ),
      featured: groups(z.boolean().default(false), READ),
      author: groups(relation('EmbeddedAuthor').nullable().optional(), READ),
    }),
    normalizationContext: { groups: READ },
    provider: store.provider,
    processor: store.processor,
    operations: [GetCollection(), Get()],
  });
  return [book, author];
}

/** The routes of {@link embeddedBenchResources}, named `bench_*`, entrypoint `/bench`, no OpenAPI docs. */
export function embeddedBenchRoutes(store: DemoStore): RouteCollection {
  return apiRoutes({ resources: embeddedBenchResources(store), entrypoint: '/bench', docs: false })
    .addNamePrefix('bench_');
}
