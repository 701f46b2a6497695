/**
 * A small reader of the project's Dockerfile and a replay of its build outside
 * Docker (there is no Docker engine on these machines). Used by
 * dockerfile.test.ts; not a test file itself.
 *
 * What is replayed, stage by stage, each stage in a folder of its own that
 * stands for its root file system:
 * - WORKDIR, ENV, ARG (with its default), COPY from the build context (the
 *   repository's files, as `git ls-files` lists them, less .dockerignore) and
 *   COPY --from=<stage>;
 * - RUN, through /bin/sh -c (shell form) or directly (exec form) in the
 *   stage's WORKDIR, with the stage's ENV. A RUN that installs system
 *   packages (apt-get install) is not run on this machine: the test checks
 *   instead that each package it names is installed here.
 * Not replayed: the base image itself (the host's Node.js stands in for it),
 * USER (the host may have no such user) and VOLUME; they are returned for the test
 * to check, and {@link unprivilegedCopy} makes a copy of a stage to run as another user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Instruction {
  op: string; // upper case: RUN, COPY, ...
  rest: string; // the rest of the instruction, continuations joined
  line: number; // 1-based line where it starts
}

export interface Stage {
  base: string;
  name: string; // the AS name, or its index
  instructions: Instruction[];
}

/** Splits a Dockerfile into stages of instructions (comments dropped, `\` continuations joined). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split(/\r?\n/);
  let i = 0;
  while (i < lines.length) {
    const start = i;
    let line = lines[i++];
    if (/^\s*(#.*)?$/.test(line)) continue;
    let joined = '';
    // a line ending in a backslash continues on the next non-comment line
    while (/\\\s*$/.test(line)) {
      joined += line.replace(/\\\s*$/, '') + ' ';
      do {
        line = lines[i++] ?? '';
      } while (i < lines.length && /^\s*#/.test(line));
    }
    joined += line;
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(joined);
    if (!m) throw new Error(`Dockerfile line ${start + 1}: cannot read ${JSON.stringify(joined)}`);
    const op = m[1].toUpperCase();
    const rest = m[2].trim();
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      if (!f) throw new Error(`Dockerfile line ${start + 1}: cannot read FROM ${rest}`);
      stages.push({ base: f[1], name: f[2] ?? String(stages.length), instructions: [] });
      continue;
    }
    if (stages.length === 0) {
      if (op === 'ARG') continue; // global ARG before the first FROM
      throw new Error(`Dockerfile line ${start + 1}: ${op} before FROM`);
    }
    stages[stages.length - 1].instructions.push({ op, rest, line: start + 1 });
  }
  return stages;
}

/** Leading `--flag=value` options of RUN/COPY/HEALTHCHECK, and what follows them. */
export function splitFlags(rest: string): { flags: Record<string, string>; body: string } {
  const flags: Record<string, string> = {};
  let body = rest;
  for (;;) {
    const m = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(body);
    if (!m) break;
    flags[m[1]] = m[2] ?? 'true';
    body = body.slice(m[0].length);
  }
  return { flags, body: body.trim() };
}

/** A command in exec form (JSON array) or shell form (run by /bin/sh -c). */
export function commandOf(body: string): string[] {
  const t = body.trim();
  if (t.startsWith('[')) {
    const arr: unknown = JSON.parse(t);
    if (!Array.isArray(arr) || !arr.every((x) => typeof x === 'string')) {
      throw new Error(`not an exec-form command: ${t}`);
    }
    return arr;
  }
  return ['/bin/sh', '-c', t];
}

/** Words of a line, with "..." and '...' quoting and backslash escapes. */
function words(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

/** `ENV A=1 B="x y"` or the old `ENV A 1`. */
export function parseEnv(rest: string): Record<string, string> {
  const env: Record<string, string> = {};
  const w = words(rest);
  if (w.length > 0 && !w[0].includes('=')) {
    const m = /^(\S+)\s+(.*)$/.exec(rest.trim());
    if (m) env[m[1]] = words(m[2]).join(' ');
    return env;
  }
  for (const kv of w) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new Error(`ENV: cannot read ${kv}`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return env;
}

/** $VAR and ${VAR} from the stage's ENV/ARG, as Docker expands them in COPY/WORKDIR/ENV. */
function expand(s: string, vars: Record<string, string>): string {
  return s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a, b) => vars[a ?? b] ?? '');
}

/** The packages an `apt-get install` names (not its options), per RUN command. */
export function aptPackages(command: string): string[] | null {
  if (!/\bapt-get\b[^&|;]*\binstall\b/.test(command)) return null;
  const pkgs: string[] = [];
  for (const part of command.split(/&&|\|\||;/)) {
    const m = /\bapt-get\b(.*?)\binstall\b(.*)$/.exec(part);
    if (!m) continue;
    for (const w of words(m[2])) if (!w.startsWith('-')) pkgs.push(w.replace(/[=].*$/, ''));
  }
  return pkgs;
}

/** .dockerignore as a predicate over context-relative paths (Go filepath.Match plus `**`, with `!` exceptions). */
export function dockerignore(text: string): (rel: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pat = path.posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, '')).replace(/\/+$/, '');
      let re = '';
      for (let i = 0; i < pat.length; i++) {
        const c = pat[i];
        if (c === '*' && pat[i + 1] === '*') {
          re += '.*';
          i++;
          if (pat[i + 1] === '/') i++;
        } else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { negate, re: new RegExp(`^${re}$`) };
    });
  return (rel: string) => {
    // a path is excluded when it, or a folder above it, matches (the last matching rule wins)
    const parts = rel.split('/');
    let excluded = false;
    for (const r of rules) {
      for (let n = 1; n <= parts.length; n++) {
        if (r.re.test(parts.slice(0, n).join('/'))) {
          excluded = !r.negate;
          break;
        }
      }
    }
    return excluded;
  };
}

/** The build context: the repository's files (tracked, plus untracked ones git does not ignore) less .dockerignore. */
export function makeContext(repo: string, dest: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter(Boolean);
  const ignoreFile = path.join(repo, '.dockerignore');
  const ignored = fs.existsSync(ignoreFile) ? dockerignore(fs.readFileSync(ignoreFile, 'utf8')) : () => false;
  const copied: string[] = [];
  for (const rel of [...new Set(listed)]) {
    const src = path.join(repo, rel);
    if (ignored(rel)) continue;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(src);
    } catch {
      continue; // tracked but deleted in the work tree
    }
    if (st.isDirectory()) continue; // a submodule
    fs.mkdirSync(path.dirname(path.join(dest, rel)), { recursive: true });
    fs.cpSync(src, path.join(dest, rel), { verbatimSymlinks: true });
    copied.push(rel);
  }
  return copied;
}

export interface StepLog {
  line: number;
  op: string;
  what: string;
  ms: number;
}

export interface ReplayResult {
  /** host folder standing for the final stage's root file system */
  rootfs: string;
  /** the final stage's WORKDIR, as a path in the image */
  containerWorkdir: string;
  /** host folder standing for the final stage's WORKDIR */
  workdir: string;
  /** the final stage's VOLUME paths, as paths in the image */
  volumes: string[];
  /** the final stage's ENV (and ARG defaults) */
  env: Record<string, string>;
  cmd: string[] | null;
  healthcheck: string[] | null;
  user: string | null;
  expose: string[];
  base: string;
  /** apt packages the build would install, which the host must have */
  aptPackages: string[];
  steps: StepLog[];
}

/**
 * Replays every stage of `stages`, in `root` (one folder per stage), taking
 * COPY sources from `context`. `baseEnv` is the environment RUN commands start
 * from (the stage's ENV is laid over it). Throws on the first failing step, with
 * its output.
 */
export function replay(stages: Stage[], context: string, root: string, baseEnv: NodeJS.ProcessEnv): ReplayResult {
  const stageRoots = new Map<string, string>();
  const steps: StepLog[] = [];
  const apt: string[] = [];
  let result: ReplayResult | undefined;

  for (const [index, stage] of stages.entries()) {
    const rootfs = path.join(root, `stage-${index}-${stage.name.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
    const fromStage = stageRoots.get(stage.base);
    if (fromStage) fs.cpSync(fromStage, rootfs, { recursive: true, verbatimSymlinks: true });
    else fs.mkdirSync(rootfs, { recursive: true });
    stageRoots.set(stage.name, rootfs);
    stageRoots.set(String(index), rootfs);

    const host = (containerPath: string) => path.join(rootfs, containerPath);
    let workdir = '/';
    const vars: Record<string, string> = {};
    let cmd: string[] | null = null;
    let healthcheck: string[] | null = null;
    let user: string | null = null;
    const expose: string[] = [];
    const volumes: string[] = [];

    for (const ins of stage.instructions) {
      const t0 = Date.now();
      switch (ins.op) {
        case 'WORKDIR':
          workdir = path.posix.resolve(workdir, expand(ins.rest, vars));
          fs.mkdirSync(host(workdir), { recursive: true });
          break;
        case 'ENV':
          for (const [k, v] of Object.entries(parseEnv(ins.rest))) vars[k] = expand(v, vars);
          break;
        case 'ARG': {
          const eq = ins.rest.indexOf('=');
          if (eq > 0) vars[ins.rest.slice(0, eq).trim()] ??= words(ins.rest.slice(eq + 1)).join(' ');
          break;
        }
        case 'COPY':
        case 'ADD': {
          const { flags, body } = splitFlags(ins.rest);
          const list = body.startsWith('[') ? (JSON.parse(body) as string[]) : words(body);
          const parts = list.map((p) => expand(p, vars));
          if (parts.length < 2) throw new Error(`Dockerfile line ${ins.line}: COPY needs a source and a destination`);
          const destRaw = parts[parts.length - 1];
          const sources = parts.slice(0, -1);
          let resolveSrc = (s: string) => path.join(context, path.posix.normalize('/' + s));
          if (flags.from !== undefined) {
            const other = stageRoots.get(flags.from);
            if (!other) throw new Error(`Dockerfile line ${ins.line}: COPY --from=${flags.from}: no such earlier stage`);
            resolveSrc = (s: string) => path.join(other, path.posix.resolve('/', s));
          }
          const destContainer = path.posix.resolve(workdir, destRaw);
          const destIsDir = destRaw.endsWith('/') || destRaw === '.' || sources.length > 1;
          for (const s of sources) {
            const src = resolveSrc(s);
            if (!fs.existsSync(src)) {
              throw new Error(
                `Dockerfile line ${ins.line}: COPY source ${s} does not exist` +
                  (flags.from ? ` in stage ${flags.from}` : ' in the build context'),
              );
            }
            const dest = host(destContainer);
            if (fs.statSync(src).isDirectory()) {
              // a folder's contents are copied into the destination
              fs.mkdirSync(dest, { recursive: true });
              fs.cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
            } else {
              const target = destIsDir ? path.join(dest, path.basename(src)) : dest;
              fs.mkdirSync(path.dirname(target), { recursive: true });
              fs.cpSync(src, target, { verbatimSymlinks: true });
            }
          }
          break;
        }
        case 'RUN': {
          const { body } = splitFlags(ins.rest);
          const argv = commandOf(body);
          const pkgs = aptPackages(body);
          if (pkgs) {
            apt.push(...pkgs); // checked by the test, not installed on the host
            break;
          }
          const res = spawnSync(argv[0], argv.slice(1), {
            cwd: host(workdir),
            env: { ...baseEnv, ...vars },
            encoding: 'utf8',
            maxBuffer: 256 * 1024 * 1024,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          if (res.status !== 0) {
            throw new Error(
              `Dockerfile line ${ins.line}: RUN ${body} failed (status ${res.status}, signal ${res.signal}${res.error ? `, ${res.error.message}` : ''})\n` +
                `--- stdout ---\n${(res.stdout ?? '').slice(-4000)}\n--- stderr ---\n${(res.stderr ?? '').slice(-8000)}`,
            );
          }
          break;
        }
        case 'CMD':
          cmd = commandOf(ins.rest);
          break;
        case 'ENTRYPOINT':
          throw new Error(`Dockerfile line ${ins.line}: ENTRYPOINT is not replayed by this test; extend tests/service/dockerfile.ts`);
        case 'HEALTHCHECK': {
          const { body } = splitFlags(ins.rest);
          if (/^NONE$/i.test(body)) healthcheck = null;
          else {
            const m = /^CMD\s+(.*)$/is.exec(body);
            if (!m) throw new Error(`Dockerfile line ${ins.line}: cannot read HEALTHCHECK ${body}`);
            healthcheck = commandOf(m[1]);
          }
          break;
        }
        case 'USER':
          user = ins.rest;
          break;
        case 'EXPOSE':
          expose.push(...words(ins.rest));
          break;
        case 'VOLUME': {
          const list = ins.rest.startsWith('[') ? (JSON.parse(ins.rest) as string[]) : words(ins.rest);
          volumes.push(...list.map((v) => path.posix.resolve(workdir, expand(v, vars))));
          break;
        }
        case 'LABEL':
        case 'STOPSIGNAL':
        case 'SHELL':
        case 'ONBUILD':
        case 'MAINTAINER':
          if (ins.op === 'SHELL') throw new Error(`Dockerfile line ${ins.line}: SHELL is not replayed by this test`);
          break;
        default:
          throw new Error(`Dockerfile line ${ins.line}: unknown instruction ${ins.op}`);
      }
      steps.push({ line: ins.line, op: ins.op, what: ins.rest.slice(0, 80), ms: Date.now() - t0 });
    }
    result = {
      rootfs,
      containerWorkdir: workdir,
      workdir: host(workdir),
      volumes,
      env: vars,
      cmd,
      healthcheck,
      user,
      expose,
      base: stage.base,
      aptPackages: apt,
      steps,
    };
  }
  if (!result) throw new Error('Dockerfile has no stage');
  return result;
}

/**
 * A copy of a replayed stage's root file system as the image has it for an unprivileged
 * user: `cp -a` (we run as root, so ownership is kept: what COPY and RUN made stays root's),
 * then whatever belongs to the image's user (`imageUid`, e.g. 1000 for `node` in the node
 * images) is given to `uid`:`gid` instead, the user the test runs the CMD as. The copy's
 * folder is made traversable (mkdtemp folders are 0700). Returns the copy's root.
 */
export function unprivilegedCopy(rootfs: string, dest: string, imageUid: number, uid: number, gid: number): string {
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o755 });
  execFileSync('cp', ['-a', rootfs, dest]);
  fs.chmodSync(dest, 0o755);
  const walk = (p: string): void => {
    const st = fs.lstatSync(p);
    if (st.uid === imageUid) fs.lchownSync(p, uid, gid);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dest);
  return dest;
}
