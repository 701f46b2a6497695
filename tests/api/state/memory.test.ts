/**
 * The state contract's conformance suite against MemoryState (src/api/state/MemoryState.ts), the
 * in-memory reference store: the same cases as the SQL store on SQLite and PostgreSQL.
 */
import { MemoryState } from '../../../src/api/state/MemoryState';
import { describeStateConformance } from './conformance';

describe('MemoryState', () => {
  describeStateConformance(() => {
    const state = new MemoryState();
    return Promise.resolve({ provider: state, processor: state, close: () => Promise.resolve() });
  });
});
