/**
 * The CLI entry: pick the command, run it, and map errors to exit codes in one place —
 * 0 ok, 1 a check failed (the command returns it), 2 bad usage or bad input (one line naming what is
 * wrong, then where the help is). `-h` / `--help` anywhere shows the command's help (exit 0).
 */
import { didYouMean } from "../bits/did-you-mean.js";
import { ERROR_EXIT_STATUS, SdmakitError } from "../bits/errors.js";
import { COLLECTIVES as COLLECTIVE_NAMES } from "../collectives/plan/plan.js";
import type { CommandEntry, Io } from "./command.js";
import { COMMANDS } from "./commands/index.js";
import { VERSION } from "./version.js";

const COLLECTIVES: ReadonlySet<string> = new Set(COLLECTIVE_NAMES);

function help(): string {
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`);
  return [
    `sdmakit ${VERSION} — a bit-exact model of the Trainium SDMA compute-DMA path`,
    "",
    "usage: sdmakit <command> [args]        sdmakit <command> -h    sdmakit --version",
    "",
    ...lines,
    "",
  ].join("\n");
}

/** Every word that names a command. */
function commandWords(): string[] {
  return COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
}

function find(word: string | undefined): CommandEntry | undefined {
  return word === undefined ? undefined : COMMANDS.find((c) => c.name === word || c.aliases?.includes(word));
}

/** The options whose value may be a word that names a collective (a file called `allr`). */
const VALUED_TRACE_OPTIONS = new Set(["--trace", "--trace-size"]);

/** nccom-test takes the op word anywhere (`nccom-test -r 8 allr`): the first word that names a collective. */
function collectiveAnywhere(args: readonly string[]): { entry: CommandEntry; rest: string[] } | undefined {
  const at = args.findIndex((a, i) => {
    const c = find(a);
    return c !== undefined && COLLECTIVES.has(c.name) && !VALUED_TRACE_OPTIONS.has(args[i - 1] ?? "");
  });
  if (at < 0) return undefined;
  return { entry: find(args[at]) as CommandEntry, rest: [...args.slice(0, at), ...args.slice(at + 1)] };
}

/** A command's usage, by its light `help` where it has one. */
async function usageOf(entry: CommandEntry): Promise<string> {
  return entry.help ? entry.help() : (await entry.load()).usage;
}

function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "-h" || a === "--help");
}

/** Run the CLI with `args` (without `node` and the script); returns the exit code. */
export async function main(args: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = args;
  if (name === "--version" || name === "-V") {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const which = find(rest[0]);
    if (rest[0] !== undefined && !which) {
      io.err(
        `sdmakit: unknown command ${JSON.stringify(rest[0])}; \`sdmakit help\` lists them${didYouMean(rest[0], commandWords())}\n`,
      );
      return 2;
    }
    io.out(which ? `${await usageOf(which)}\n` : help());
    return 0;
  }
  const direct = find(name);
  const picked = direct ? { entry: direct, rest } : collectiveAnywhere(args);
  if (!picked) {
    io.err(
      `sdmakit: unknown command ${JSON.stringify(name)}; \`sdmakit help\` lists them${didYouMean(name, commandWords())}\n`,
    );
    return 2;
  }
  const { entry } = picked;
  if (wantsHelp(picked.rest)) {
    io.out(`${await usageOf(entry)}\n`);
    return 0;
  }
  const command = await entry.load();
  try {
    return await command.run(picked.rest, { ...io, argv: args });
  } catch (e) {
    const hint = `(\`sdmakit ${entry.name} -h\` for usage)`;
    if (e instanceof SdmakitError) {
      io.err(`sdmakit ${entry.name}: ${e.message}\n`);
      if (ERROR_EXIT_STATUS[e.code] === 2) {
        io.err(`${hint}\n`);
        return 2;
      }
      return 1;
    }
    // Argument errors from library code (STYLE: TypeError / RangeError naming the argument).
    if (e instanceof RangeError || e instanceof TypeError) {
      io.err(`sdmakit ${entry.name}: ${e.message}\n${hint}\n`);
      return 2;
    }
    throw e;
  }
}
