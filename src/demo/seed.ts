import type { Resource } from '../api/resource/defineResource';
import type { StateProcessor } from '../api/state/types';

/** The demo's first authors and books (ids 1, 2, 3 of each). */
export const DEMO_AUTHORS = [
  { name: 'Frank Herbert', birthDate: '1920-10-08' },
  { name: 'Dan Simmons', birthDate: '1948-04-04' },
  { name: 'Stanisław Lem', birthDate: '1921-09-12' },
] as const;

export const DEMO_BOOKS = [
  { title: 'Dune', isbn: '9780441172719', publishedAt: '1965-08-01', price: 9.99, featured: true, author: 1 },
  { title: 'Hyperion', isbn: '9780553283686', publishedAt: '1989-05-26', price: 8.99, featured: false, author: 2 },
  { title: 'Solaris', isbn: '9780156027601', publishedAt: '1961-01-01', price: 12.5, featured: false, author: 3 },
] as const;

/**
 * Fills an empty in-memory store with {@link DEMO_AUTHORS} and {@link DEMO_BOOKS} (the SQL
 * store's demo migration inserts the same rows). Runs synchronously for a `MemoryState`, whose
 * calls finish before they return.
 * @param resources - the demo's resources (Book, Author)
 */
export function seedDemoData(store: StateProcessor, resources: readonly Resource[]): void {
  const meta = (name: string) => resources.find((r) => r.shortName === name)!.metadata;
  for (const a of DEMO_AUTHORS) void store.create(meta('Author'), a);
  for (const b of DEMO_BOOKS) void store.create(meta('Book'), b);
}
