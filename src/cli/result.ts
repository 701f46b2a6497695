/**
 * What a console command produced: the text it wrote, where it goes, and the process exit code.
 * The command functions return this instead of writing, so they can be tested without a process.
 */
export interface CommandResult {
  /** Everything the command wrote, line breaks included. */
  readonly output: string;
  /** `0` on success, `1` on failure (Symfony's `Command::SUCCESS` / `Command::FAILURE`). */
  readonly exitCode: number;
  /**
   * Where `output` goes: `stdout` for what the command prints through its style (the
   * `[ERROR]` block of `router:match` included), `stderr` for an error the console application
   * renders (Symfony's `Application::renderThrowable()` writes to the error output).
   */
  readonly stream: 'stdout' | 'stderr';
}
