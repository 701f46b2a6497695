import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseStack, sourceExcerpt, withExcerpts } from '../../src/profiler/stackFrames';

const HERE = __filename;

describe('parseStack(stack, message)', () => {
  test('reads no file: frames carry file and line only', () => {
    const frames = parseStack(`Error: x\n    at f (${HERE}:10:1)`, 'x');
    expect(frames[0]).toStrictEqual({ function: 'f', file: HERE, line: 10, column: 1, vendor: false });
  });

  test('withExcerpts copies the frames and leaves the given ones (and malformed stored ones) alone', () => {
    const frames = parseStack(`Error: x\n    at f (${HERE}:10:1)`, 'x');
    const stored = [
      ...frames, { file: HERE, line: 2.5, vendor: false }, { vendor: false, file: 42 as unknown as string, line: 1 },
    ];
    const shown = withExcerpts(stored);
    expect(shown[0].excerpt?.firstLine).toBe(7);
    expect(frames[0].excerpt).toBeUndefined();
    expect(shown.slice(1).map((f) => f.excerpt)).toEqual([undefined, undefined]);
  });

  test('parses V8 frames with function, file, line and column, and marks vendor frames', () => {
    const stack = [
      'Error: Kaboom',
      `    at boom (${HERE}:5:11)`,
      `    at ${HERE}:6:1`,
      '    at Layer.handleRequest (/app/node_modules/router/lib/layer.js:152:17)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at async Promise.all (index 0)',
    ].join('\n');
    const frames = parseStack(stack, 'Kaboom');
    expect(frames.map((f) => [f.function, f.file, f.line, f.column, f.vendor])).toEqual([
      ['boom', HERE, 5, 11, false],
      [undefined, HERE, 6, 1, false],
      ['Layer.handleRequest', '/app/node_modules/router/lib/layer.js', 152, 17, true],
      ['process.processTicksAndRejections', 'node:internal/process/task_queues', 95, 5, true],
      [undefined, undefined, undefined, undefined, true],
    ]);
    expect(frames[4].text).toBe('async Promise.all (index 0)');
  });

  test('shows the frame\'s line ±3 from the file, the frame\'s line among them', () => {
    const [frame] = withExcerpts(parseStack(`Error: x\n    at f (${HERE}:10:1)`, 'x'));
    expect(frame.excerpt?.firstLine).toBe(7);
    expect(frame.excerpt?.lines).toHaveLength(7);
    expect(frame.excerpt?.lines[3]).toBe(sourceExcerpt(HERE, 10, 0)?.lines[0]);
  });

  test('reads file:// URLs of ES modules', () => {
    const [frame] = withExcerpts(parseStack(`Error: x\n    at f (${pathToFileURL(HERE).href}:1:1)`, 'x'));
    expect(frame.file).toBe(HERE);
    expect(frame.excerpt?.firstLine).toBe(1);
  });

  test('a message cannot add frames: only the stack after it is read', () => {
    const message = `oops\n    at evil (${path.resolve('/etc/passwd')}:1:1)`;
    const error = new Error(message);
    const frames = parseStack(error.stack ?? '', message);
    expect(frames.some((f) => f.file === '/etc/passwd')).toBe(false);
    expect(frames[0].file).toBe(HERE);
  });

  test('reads only source files: no excerpt for other files, missing files or lines past the end', () => {
    expect(withExcerpts(parseStack('Error: x\n    at f (/etc/passwd:1:1)', 'x'))[0].excerpt).toBeUndefined();
    expect(withExcerpts(parseStack('Error: x\n    at f (/nonexistent/file.js:1:1)', 'x'))[0].excerpt).toBeUndefined();
    expect(sourceExcerpt(HERE, 1_000_000)).toBeUndefined();
  });

  test('application frames get excerpts first, at most maxExcerpts', () => {
    const stack = ['Error: x', '    at a (/app/node_modules/x/index.js:1:1)', ...Array.from({ length: 5 }, (_, i) => `    at f${i} (${HERE}:${i + 1}:1)`)].join('\n');
    const frames = withExcerpts(parseStack(stack, 'x'), { maxExcerpts: 3 });
    expect(frames.filter((f) => f.excerpt !== undefined).map((f) => f.function)).toEqual(['f0', 'f1', 'f2']);
  });
});

describe('withExcerpts(frames, { root }): only project files are read', () => {
  let outside: string;
  let inside: string;
  beforeAll(() => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.js'), 'const SECRET = "outside-root-secret";\n');
    inside = fs.mkdtempSync(path.join(process.cwd(), 'tmp-ek-root-'));
    fs.writeFileSync(path.join(inside, 'app.js'), 'const ok = "inside-root";\n');
    fs.symlinkSync(path.join(outside, 'secret.js'), path.join(inside, 'link.js'));
  });
  afterAll(() => {
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(inside, { recursive: true, force: true });
  });
  const excerptOf = (file: string, root?: string) =>
    withExcerpts([{ file, line: 1, vendor: false }], root === undefined ? {} : { root })[0].excerpt;

  test('a frame naming a file outside the application root (a forged stored profile) shows no excerpt', () => {
    expect(excerptOf(path.join(outside, 'secret.js'))).toBeUndefined();
  });

  test('a file under the root is shown, the root defaulting to process.cwd()', () => {
    expect(excerptOf(path.join(inside, 'app.js'))?.lines).toEqual(['const ok = "inside-root";', '']);
    expect(excerptOf(path.join(inside, 'app.js'), outside)).toBeUndefined();
    expect(excerptOf(path.join(outside, 'secret.js'), outside)?.lines[0]).toContain('outside-root-secret');
  });

  test('neither a symbolic link out of the root nor a path with ".." gets out', () => {
    expect(excerptOf(path.join(inside, 'link.js'))).toBeUndefined();
    expect(excerptOf(`${inside}/../${path.relative(path.dirname(inside), outside)}/secret.js`)).toBeUndefined();
  });

  test('dependencies in node_modules are still shown', () => {
    const dep = require.resolve('express');
    expect(dep).toContain(`${path.sep}node_modules${path.sep}`);
    expect(excerptOf(dep)).toBeDefined();
  });
});
