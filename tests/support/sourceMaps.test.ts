import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { originalPosition, sourceMappedStack } from '../../src/support/sourceMaps';

// line 4 of the source throws; the compiled file puts it elsewhere ("use strict", no type import)
const SOURCE = "import type { Request } from 'express';\n\nexport function f(_req: Request): never {\n  throw new Error('x');\n}\n";

describe('sourceMappedStack(stack, message)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-source-maps-'));
  const compile = (name: string, inline: boolean): { js: string; line: number; column: number } => {
    const fileName = path.join(dir, `${name}.ts`);
    const out = ts.transpileModule(SOURCE, {
      fileName,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: !inline, inlineSourceMap: inline,
      },
    });
    const js = path.join(dir, `${name}.js`);
    fs.writeFileSync(js, out.outputText);
    if (!inline) fs.writeFileSync(`${js}.map`, out.sourceMapText!);
    const lines = out.outputText.split('\n');
    const line = lines.findIndex((l) => l.includes('throw new Error')) + 1;
    return { js, line, column: lines[line - 1].indexOf('throw') + 1 };
  };
  const external = compile('external', false);
  const inline = compile('inline', true);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('points frames of a compiled file at the .ts source, through the .js.map beside it', () => {
    expect(external.line).not.toBe(4);
    const stack = `Error: x\n    at f (${external.js}:${external.line}:${external.column})\n    at ${external.js}:${external.line}:${external.column}`;
    expect(sourceMappedStack(stack, 'x')).toBe(`Error: x\n    at f (${path.join(dir, 'external.ts')}:4:3)\n    at ${path.join(dir, 'external.ts')}:4:3`);
  });

  test('reads inline (data: URL) maps and file:// frames', () => {
    const stack = `Error: x\n    at f (${pathToFileURL(inline.js).href}:${inline.line}:${inline.column})`;
    expect(sourceMappedStack(stack, 'x')).toBe(`Error: x\n    at f (${path.join(dir, 'inline.ts')}:4:3)`);
  });

  test('leaves frames without a map, Node\'s own, and already mapped .ts frames as they are', () => {
    const plain = path.join(dir, 'plain.js');
    fs.writeFileSync(plain, 'module.exports = 1;\n');
    const stack = [
      'Error: x',
      `    at g (${plain}:1:1)`,
      `    at h (${path.join(dir, 'missing.js')}:3:4)`,
      `    at k (${path.join(dir, 'external.ts')}:4:3)`,
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at async Promise.all (index 0)',
    ].join('\n');
    expect(sourceMappedStack(stack, 'x')).toBe(stack);
  });

  test('a message that looks like a frame is kept as written', () => {
    const message = `oops\n    at evil (${external.js}:${external.line}:${external.column})`;
    const stack = `Error: ${message}\n    at f (${external.js}:${external.line}:${external.column})`;
    expect(sourceMappedStack(stack, message)).toBe(`Error: ${message}\n    at f (${path.join(dir, 'external.ts')}:4:3)`);
  });

  test('originalPosition gives undefined for a file without a map', () => {
    expect(originalPosition(path.join(dir, 'missing.js'), 1, 1)).toBeUndefined();
    expect(originalPosition(external.js, external.line, external.column)).toEqual({ file: path.join(dir, 'external.ts'), line: 4, column: 3 });
  });
});
