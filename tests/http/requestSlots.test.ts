import type { Request } from 'express';
import request from 'supertest';
import { createKernel, Route, RouteCollection } from '../../src';
import { defineRequestSlot, requestSlotNames } from '../../src/http/requestSlots';
import { LOCALE_CONTEXT } from '../../src/locale/localeLayer';
import { SESSION_PENDING, SESSION_STATE } from '../../src/session/previousSession';

type WithExample = Request & { exampleSlot?: number; unslotted?: number };

/** A kernel whose one route sets `name` on the request and says where the value went. */
function kernelSetting(name: 'exampleSlot' | 'unslotted') {
  const routes = new RouteCollection();
  routes.add('set', new Route('/set', {
    controller: (req, res) => {
      (req as WithExample)[name] = 42;
      const state = req.kernel as unknown as Record<string, unknown>;
      res.json({ own: Object.hasOwn(req, name), inState: state[name] ?? null, read: (req as WithExample)[name] });
    },
  }));
  return createKernel({ routes, environment: 'test' });
}

describe('defineRequestSlot(name)', () => {
  test('every request property the built-in layers set is a slot, each defined by its own layer module', () => {
    expect(requestSlotNames()).toEqual(expect.arrayContaining([
      'cors', 'user', 'security', 'storedObject', 'denormalized', 'locale', 'localeInfo', 'timeZone', 'timeZoneInfo',
      'sessionUnavailable', SESSION_STATE, SESSION_PENDING, LOCALE_CONTEXT,
    ]));
  });

  test('inside a kernel a defined slot is kept in req.kernel, not as an own property of the request', async () => {
    defineRequestSlot('exampleSlot');
    const res = await request(kernelSetting('exampleSlot')).get('/set');
    expect(res.body).toEqual({ own: false, inState: 42, read: 42 });
  });

  test('a name never defined stays a plain property of the request', async () => {
    const res = await request(kernelSetting('unslotted')).get('/set');
    expect(res.body).toEqual({ own: true, inState: null, read: 42 });
  });

  test('defining a name twice keeps one slot', () => {
    defineRequestSlot('twiceSlot');
    defineRequestSlot('twiceSlot');
    expect(requestSlotNames().filter((n) => n === 'twiceSlot')).toHaveLength(1);
  });

  test.each(['kernel', 'log', 'secure'])('refuses %s, which the kernel defines itself', (name) => {
    expect(() => defineRequestSlot(name)).toThrow(TypeError);
  });
});
