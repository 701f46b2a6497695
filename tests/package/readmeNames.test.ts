/**
 * What the README names exists (issue 29): each in-page link (`[…](#anchor)`) leads to one of its
 * headings, and each identifier it presents as importable is exported by the package entry it
 * names. "Importable" is read three ways: the names of an `import { … } from 'express-kernel…'`
 * in a code block, each backticked name of a row of the "Entry points" table (by that row's
 * entry), and any backticked name in the prose that some source file exports (so a reader takes
 * it for API) but no entry point does (`JSON_MAX_DEPTH` was one).
 *
 * The entries' exports are read with the TypeScript compiler from `src/` (types included), at the
 * paths package.json's `exports` map to: no build needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { scaled } from '../helpers/timeScale';
import { REPO } from './consumerProject';

const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** The README's lines, each with whether it is inside a fenced code block. */
function readmeLines(text: string): Array<{ text: string; code: boolean; line: number }> {
  let code = false;
  return text.split('\n').map((t, i) => {
    const fence = t.trimStart().startsWith('```');
    if (fence) code = !code;
    return { text: t, code: code || fence, line: i + 1 };
  });
}

/**
 * GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`
 * (a repeated heading gets `-1`, `-2`… after it).
 */
function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings, repeated ones numbered as GitHub does. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const { text: t, code } of readmeLines(text)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(t);
    if (code || heading === null) continue;
    const base = headingAnchor(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

test('every in-page link of the README leads to one of its headings', () => {
  const known = anchors(README);
  const links = readmeLines(README).filter((l) => !l.code)
    // a link inside a code span (`[…](#anchor)`) is text, not a link
    .flatMap((l) => [...l.text.replace(/`[^`]*`/g, '').matchAll(/\]\(#([^)\s]+)\)/g)]
      .map((m) => ({ anchor: m[1], line: l.line })));
  expect(links.length).toBeGreaterThan(10);
  expect(links.filter((l) => !known.has(decodeURIComponent(l.anchor)))).toEqual([]);
});

test('headingAnchor writes the anchors GitHub writes', () => {
  expect(headingAnchor('HTTP cache: `cacheHeaders`, `Cache-Tags` and Varnish'))
    .toBe('http-cache-cacheheaders-cache-tags-and-varnish');
  expect(headingAnchor('Storing resources in SQLite or PostgreSQL: `express-kernel/api/sql`'))
    .toBe('storing-resources-in-sqlite-or-postgresql-express-kernelapisql');
  expect(headingAnchor('Relations')).toBe('relations');
});

/** Each package entry (`express-kernel`, `express-kernel/api`…) with the names it exports, types included. */
function entryExports(): Map<string, Set<string>> {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const files = new Map<string, string>();
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    files.set(key === '.' ? 'express-kernel' : `express-kernel${key.slice(1)}`, path.join(REPO, source));
  }
  const program = ts.createProgram([...files.values()], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const result = new Map<string, Set<string>>();
  for (const [entry, file] of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    result.set(entry, new Set(checker.getExportsOfModule(module).map((s) => s.name)));
  }
  return result;
}

/** The names `src/` files export (`export const X`, `export function X`…): what a reader takes for API. */
function sourceExports(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const declared = /^export (?:declare )?(?:abstract )?(?:const|let|function|class|interface|type|enum) (\w+)/gm;
        for (const m of fs.readFileSync(file, 'utf8').matchAll(declared)) names.add(m[1]);
      }
    }
  };
  walk(path.join(REPO, 'src'));
  return names;
}

describe('each identifier the README presents as importable is exported by its entry point', () => {
  let exportsOf = new Map<string, Set<string>>();
  beforeAll(() => { exportsOf = entryExports(); }, scaled(120_000));

  test("the names of every `import { … } from 'express-kernel…'` in its code blocks", () => {
    const imports = [...README.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(express-kernel[^']*)'/g)];
    expect(imports.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const [, names, entry] of imports) {
      const exported = exportsOf.get(entry);
      for (const name of names.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0])) {
        if (name !== '' && exported?.has(name) !== true) missing.push(`${name} from '${entry}'`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('the names of each row of the "Entry points" table, by the entry the row names', () => {
    const table = README.slice(README.indexOf('## Entry points'), README.indexOf('Some features need a package'));
    const missing: string[] = [];
    let rows = 0;
    for (const row of table.matchAll(/^\| `(express-kernel[^`]*)`([^|]*)\| (.*) \|$/gm)) {
      rows++;
      const entries = [row[1], ...[...row[2].matchAll(/`\/(\w+)`/g)].map((m) => `express-kernel/${m[1]}`)];
      for (const [, name] of row[3].matchAll(/`(\w+)`/g)) {
        if (!entries.some((e) => exportsOf.get(e)?.has(name))) missing.push(`${name} (${entries.join(', ')})`);
      }
    }
    expect(rows).toBeGreaterThan(8);
    expect(missing).toEqual([]);
  });

  test('no backticked name in the prose is a source export that no entry point exports', () => {
    const everywhere = new Set([...exportsOf.values()].flatMap((names) => [...names]));
    const internal = sourceExports();
    // the format names, strings (`formats: ['jsonld']`), which the format modules happen to be named after
    const formatNames = new Set(['jsonld', 'jsonhal', 'json', 'jsonapi', 'csv', 'xml']);
    const named = readmeLines(README).filter((l) => !l.code)
      .flatMap((l) => [...l.text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)].map((m) => ({ name: m[1], line: l.line })));
    expect(named.length).toBeGreaterThan(300);
    const unexported = named
      .filter(({ name }) => internal.has(name) && !everywhere.has(name) && !formatNames.has(name));
    expect(unexported).toEqual([]);
  });
});
