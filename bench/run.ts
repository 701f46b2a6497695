/**
 * Benchmark entry point: `npm run bench` runs every section; `npm run bench -- router` (or several
 * names) runs only those. Arguments that start with `--` are passed to the sections (see each
 * section's description).
 *
 * To add a section: write `bench/<name>.ts` exporting a {@link BenchSection} and list it in
 * {@link SECTIONS}.
 */
import * as os from 'os';
import { routerSection } from './router';
import { httpSection } from './http';
import { profilerSection } from './profiler';
import { notFoundSection } from './notFound';
import { tricksSection } from './tricks';
import { apiSection } from './api';
import { adminSection } from './admin';

/** One benchmark section. */
export interface BenchSection {
  /** The name used on the command line. */
  readonly name: string;
  /** One line shown by `--help`. */
  readonly description: string;
  /** Runs the section and prints its results. */
  run(args: readonly string[]): Promise<void>;
}

/** Every section, in the order `npm run bench` runs them. */
export const SECTIONS: readonly BenchSection[] = [
  routerSection, httpSection, profilerSection, notFoundSection, tricksSection, apiSection, adminSection,
];

async function main(argv: readonly string[]): Promise<number> {
  const names = argv.filter((a) => !a.startsWith('--'));
  const options = argv.filter((a) => a.startsWith('--'));
  if (options.includes('--help') || options.includes('-h')) {
    console.log('usage: npm run bench -- [section ...] [--option=value ...]\n\nsections:');
    for (const s of SECTIONS) console.log(`  ${s.name.padEnd(10)} ${s.description}`);
    return 0;
  }
  const unknown = names.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`unknown section(s): ${unknown.join(', ')}; available: ${SECTIONS.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const selected = names.length === 0 ? SECTIONS : SECTIONS.filter((s) => names.includes(s.name));
  console.log(`node ${process.version} · ${process.platform}/${process.arch} · ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}`);
  for (const section of selected) {
    console.log(`\n=== ${section.name}: ${section.description} ===`);
    await section.run(options);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => { console.error(err); process.exitCode = 1; },
);
