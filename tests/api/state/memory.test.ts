/**
 * The state contract's conformance suite against MemoryState, the reference in-memory store
 * (the same cases and property as the SQL store on SQLite and PostgreSQL).
 */
import { MemoryState } from '../../../src/api/state/MemoryState';
import { describeStateConformance } from './conformance';

describe('MemoryState', () => {
  describeStateConformance(() => {
    const state = new MemoryState();
    return Promise.resolve({ provider: state, processor: state, close: () => Promise.resolve() });
  });
});
