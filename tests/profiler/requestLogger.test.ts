import pino from 'pino';
import { createRequestLogger, LogBuffer, NULL_LOGGER } from '../../src/profiler/requestLogger';

/** A pino logger writing JSON lines into an array. */
function capturing(level: string): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (s: string) => { lines.push(JSON.parse(s) as Record<string, unknown>); } });
  return { logger, lines };
}

describe('createRequestLogger(base, reqId, buffer)', () => {
  test('the buffer keeps debug and up; the base logger gets only what its level lets through', () => {
    const { logger, lines } = capturing('info');
    const buffer = new LogBuffer();
    const log = createRequestLogger(logger, 'a1b2c3', buffer);
    log.trace('t');
    log.debug('d');
    log.info({ n: 1 }, 'i');
    log.error(new Error('boom'));
    expect(buffer.records.map((r) => [r.label, r.msg])).toEqual([['debug', 'd'], ['info', 'i'], ['error', 'boom']]);
    expect(lines.map((l) => [l.level, l.msg, l.reqId])).toEqual([[30, 'i', 'a1b2c3'], [50, 'boom', 'a1b2c3']]);
    expect(buffer.records[1].context).toEqual({ n: 1 });
    expect((buffer.records[2].context.err as { message: string }).message).toBe('boom');
  });

  test('children of the request logger write to both, with their bindings', () => {
    const { logger, lines } = capturing('debug');
    const buffer = new LogBuffer();
    createRequestLogger(logger, 'a1b2c3', buffer).child({ component: 'books' }).warn('careful');
    expect(buffer.records).toEqual([{ time: expect.any(Number), level: 40, label: 'warn', msg: 'careful', context: { component: 'books' } }]);
    expect(lines[0]).toMatchObject({ component: 'books', reqId: 'a1b2c3', msg: 'careful' });
  });

  test('the base logger\'s own output is unchanged: other loggers are not teed', () => {
    const { logger, lines } = capturing('info');
    const buffer = new LogBuffer();
    createRequestLogger(logger, 'a1b2c3', buffer);
    logger.info('app');
    expect(buffer.records).toEqual([]);
    expect(lines.map((l) => l.msg)).toEqual(['app']);
  });

  test('secret-looking fields and name=value pairs are redacted in the buffer', () => {
    const buffer = new LogBuffer();
    createRequestLogger(NULL_LOGGER, 't', buffer).info({ password: 'p', user: { apiKey: 'k', name: 'bob' } }, 'callback ?token=abc done');
    expect(buffer.records[0].context).toEqual({ password: '******', user: { apiKey: '******', name: 'bob' } });
    expect(buffer.records[0].msg).toBe('callback ?token=****** done');
  });

  test('without a kernel logger, records still reach the buffer', () => {
    const buffer = new LogBuffer();
    createRequestLogger(NULL_LOGGER, 't', buffer).debug('only here');
    expect(buffer.records.map((r) => r.msg)).toEqual(['only here']);
  });

  test('the buffer keeps at most its size and counts what it dropped', () => {
    const buffer = new LogBuffer(2);
    const log = createRequestLogger(NULL_LOGGER, 't', buffer);
    for (let i = 0; i < 5; i++) log.info(`m${i}`);
    expect(buffer.records.map((r) => r.msg)).toEqual(['m0', 'm1']);
    expect(buffer.dropped).toBe(3);
  });

  test('a multistream destination still gets the level it filters on', () => {
    const lines: string[] = [];
    const warnOnly = pino({ level: 'debug' }, pino.multistream([{ level: 'warn', stream: { write: (s: string) => { lines.push(s); } } }]));
    const buffer = new LogBuffer();
    const log = createRequestLogger(warnOnly, 't', buffer);
    log.info('quiet');
    log.warn('loud');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['loud']);
    expect(buffer.records.map((r) => r.msg)).toEqual(['quiet', 'loud']);
  });
});
