/**
 * The shape of one CLI command. Each command lives in its own file under `commands/` and is
 * listed once in `commands/index.ts` (its name, aliases and summary, and how to load it). A command writes through `io` (never to process.stdout
 * directly) so tests can run it in-process, and returns its exit code: 0 ok, 1 a check failed
 * (wrong elements, invalid word, refused request), 2 bad usage or bad input. Errors it throws are
 * mapped to exit codes by the one top-level catch in `main.ts`.
 */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /**
   * The signal that asked the run to stop (`SIGINT`, `SIGTERM`), or undefined: long commands ask
   * between steps, stop, and print what they finished (the installed CLI sets it; tests may).
   */
  interrupted?(): string | undefined;
  /** The whole command line after `sdmakit`, as typed (main sets it): what a report records. */
  readonly argv?: readonly string[];
}

/** A command as `sdmakit help` and the lookup know it, before its module is loaded. */
export interface CommandEntry {
  /** The word after `sdmakit` (`decode`, `allr`, ...). */
  readonly name: string;
  /** Other words that run it (nccom-test's `all_reduce`). */
  readonly aliases?: readonly string[];
  /** One line for `sdmakit help`. */
  readonly summary: string;
  load(): Promise<Command>;
  /**
   * Its usage without loading its module, where that is much lighter than the command: the
   * collectives' help needs their option table, not the collectives layer. Else `load().usage`.
   */
  help?(): Promise<string>;
}

export interface Command {
  /** The help text: `sdmakit <name> -h`, `sdmakit help <name>`. */
  readonly usage: string;
  run(args: readonly string[], io: Io): number | Promise<number>;
}
