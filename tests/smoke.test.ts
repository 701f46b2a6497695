import { VERSION } from '../src/index';
test('exports a version', () => { expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/); });
