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
    const stored = [...frames, { file: HERE, line: 2.5, vendor: false }, { vendor: false, file: 42 as unknown as string, line: 1 }];
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
