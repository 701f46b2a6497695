import { frozenList, frozenRecord } from '../../src/support/frozen';

describe('frozenList / frozenRecord', () => {
  test('keep a frozen value as is', () => {
    const list = Object.freeze(['GET']);
    const record = Object.freeze({ Allow: 'GET' });
    expect(frozenList(list)).toBe(list);
    expect(frozenRecord(record)).toBe(record);
  });

  test('copy a value that can still change, so later changes reach neither copy', () => {
    const list = ['GET'];
    const record: Record<string, string> = { Allow: 'GET' };
    const l = frozenList(list);
    const r = frozenRecord(record);
    list.push('POST');
    record.Allow = 'POST';
    expect(l).toEqual(['GET']);
    expect(r).toEqual({ Allow: 'GET' });
    expect(Object.isFrozen(l) && Object.isFrozen(r)).toBe(true);
  });
});
