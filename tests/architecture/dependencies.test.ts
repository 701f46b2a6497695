/**
 * The direction of the imports inside src/ (docs/ARCHITECTURE.md, "Floors"): each module imports
 * only from its own floor or the floors below, so every layer works without the kernel and the
 * routing component without HTTP. Read from the sources with TypeScript's parser, so a new import
 * that points up fails here, naming the file and the import.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '..', '..', 'src');

/** The floors, lowest first: a folder of src/ (or a root file) may import from its floor and below. */
const FLOORS: readonly (readonly string[])[] = [
  ['support', 'errors', 'config'],
  ['routing'],
  ['http', 'storage'],
  ['cors', 'session', 'security', 'locale', 'timezone', 'profiler'],
  ['api'],
  ['admin'],
  ['kernel'],
  ['index.ts', 'demo', 'cli', 'testing'],
];

interface Import {
  /** The importing file, relative to src/. */
  from: string;
  /** What it imports: a path relative to src/ for relative specifiers, else the package name. */
  target: string;
  /** True for the folder or root file of src/ it lands in; false for a package. */
  local: boolean;
  /** `import type`, `export type`, all-type named imports and `import('…')` types: gone at run time. */
  typeOnly: boolean;
  /** `import('…')` and `require('…')` calls: loaded when the call runs, not with the file. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Whether every binding an import or export declaration names is type-only. */
function allTypes(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    return node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause)
      && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly));
  }
  const clause = node.importClause;
  if (clause === undefined) return false; // `import './x'`: run for its effects
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return clause.name === undefined && named !== undefined && ts.isNamedImports(named)
    && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** Every import, export-from, `require()`, `import()` and `import('…')` type of one file. */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const from = path.relative(SRC, file);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic = false): void => {
    const local = specifier.startsWith('.');
    const target = local ? path.relative(SRC, path.resolve(path.dirname(file), specifier)) : specifier;
    found.push({ from, target, local, typeOnly, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, allTypes(node));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)
      && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
      && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword
        || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      add(node.arguments[0].text, false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The folder of src/ a path relative to src/ lies in (or the root file's name). */
const area = (relative: string): string => relative.split(path.sep)[0];
const floorOf = (relative: string): number => FLOORS.findIndex((floor) => floor.includes(area(relative)));
const shown = (i: Import): string => `${i.from} -> ${i.target}${i.typeOnly ? ' (type)' : ''}`;

const IMPORTS = sourceFiles(SRC).flatMap(importsOf);
const LOCAL = IMPORTS.filter((i) => i.local);
const LOWER = [
  'routing', 'http', 'config', 'errors', 'support', 'storage',
  'cors', 'session', 'security', 'locale', 'timezone', 'profiler',
];

describe('imports between the parts of src/', () => {
  test('the reader finds the imports (a broken reader would pass every rule)', () => {
    expect(LOCAL.length).toBeGreaterThan(300);
    expect(LOCAL.map(shown)).toContain(`kernel${path.sep}createKernel.ts -> cors${path.sep}corsLayer`);
  });

  test('every folder and root file of src/ is on a floor', () => {
    const areas = new Set([...IMPORTS.map((i) => area(i.from)), ...LOCAL.map((i) => area(i.target))]);
    expect([...areas].filter((a) => floorOf(a) === -1)).toEqual([]);
  });

  test('every import points to its own floor or one below (types included)', () => {
    expect(LOCAL.filter((i) => floorOf(i.target) > floorOf(i.from)).map(shown)).toEqual([]);
  });

  test.each(LOWER)('nothing under src/%s imports src/kernel, src/demo or src/cli', (folder) => {
    const up = LOCAL.filter((i) => area(i.from) === folder && ['kernel', 'demo', 'cli'].includes(area(i.target)));
    expect(up.map(shown)).toEqual([]);
  });

  test('src/routing loads nothing outside routing, errors and support, and no HTTP package', () => {
    const routing = IMPORTS.filter((i) => area(i.from) === 'routing' && !i.typeOnly);
    const outside = routing.filter((i) => i.local && !['routing', 'errors', 'support'].includes(area(i.target)));
    const httpPackage = /^(express|express-session|cors|helmet|proxy-addr|node:http)$/;
    const http = routing.filter((i) => !i.local && httpPackage.test(i.target));
    expect([...outside, ...http].map(shown)).toEqual([]);
  });

  test('the kernel does not load src/api: resources reach it as routes', () => {
    const api = LOCAL.filter((i) => area(i.from) === 'kernel' && area(i.target) === 'api');
    expect(api.map(shown)).toEqual([]);
  });

  test('the back office is a layer on top: neither src/kernel nor src/api imports src/admin', () => {
    const admin = LOCAL.filter((i) => ['kernel', 'api'].includes(area(i.from)) && area(i.target) === 'admin');
    expect(admin.map(shown)).toEqual([]);
  });

  test('the back office reaches src/api through its entries: src/api, src/api/internals, and src/api/sql for types or by import()', () => {
    // express-kernel/api at load time, and the request path's pieces it reuses (not a package
    // entry); the SQL store's entry only when the audit log's migration runs
    const api = path.join('api', 'index');
    const internals = path.join('api', 'internals');
    const sql = path.join('api', 'sql');
    const used = LOCAL.filter((i) => area(i.from) === 'admin' && area(i.target) === 'api');
    expect(used.length).toBeGreaterThan(10);
    const outside = used.filter((i) => !(i.target === 'api' || i.target === api || i.target === internals
      || ((i.target === sql || i.target === path.join(sql, 'index')) && (i.typeOnly || i.dynamic))));
    expect(outside.map(shown)).toEqual([]);
  });

  test('only src/cli and src/demo itself import src/demo', () => {
    const demo = LOCAL.filter((i) => area(i.target) === 'demo' && !['demo', 'cli'].includes(area(i.from)));
    expect(demo.map(shown)).toEqual([]);
  });
});
