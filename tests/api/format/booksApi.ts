/**
 * The format suites' API: the demo's Book (with the given operations) and Author (Get only) on a
 * demo store, served by `apiRoutes` with the given formats; a fresh one per test, on every store.
 */
import { apiRoutes, defineResource, Get, type ApiOptions, type OperationDeclaration } from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { authorSchema, bookSchema, type DemoStore } from '../../../src/demo/resources';
import type { OpenDemoStore, OpenedDemoStore } from '../http/demoOnEveryStore';

/** A kernel serving Book and Author of `store` through `apiRoutes({ formats })`. */
export function booksApiOn(
  store: DemoStore, operations: OperationDeclaration[], formats: ApiOptions['formats'],
): Kernel {
  const author = defineResource({ shortName: 'Author', schema: authorSchema, provider: store.provider, operations: [Get()] });
  const book = defineResource({
    shortName: 'Book', schema: bookSchema, provider: store.provider, processor: store.processor, operations,
  });
  return createKernel({ routes: apiRoutes({ resources: [book, author], formats }), debug: false });
}

/**
 * Opens a store and builds its kernel before each test, closes the store after; `kernel()` is the
 * current test's.
 */
export function booksApiPerTest(
  open: OpenDemoStore, operations: OperationDeclaration[], formats: ApiOptions['formats'],
): { kernel(): Kernel } {
  let opened: OpenedDemoStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = booksApiOn(opened.store, operations, formats);
  });
  afterEach(() => opened.close());
  return { kernel: () => kernel };
}
