/**
 * The CLI entry: pick the command, run it, and map errors to exit codes in one place —
 * 0 ok, 1 a check failed (the command returns it), 2 bad usage or bad input.
 */
import { ERROR_EXIT_STATUS, SdmakitError } from "../bits/errors.js";
import type { Io } from "./command.js";
import { COMMANDS } from "./commands/index.js";

function help(io: Io): void {
  io.out(
    "sdmakit — a bit-exact model of the Trainium SDMA compute-DMA path\n\nusage: sdmakit <command> [args]\n\n",
  );
  for (const c of COMMANDS) io.out(`  ${c.name.padEnd(10)} ${c.summary}\n`);
  io.out("\n`sdmakit help <command>` shows a command's usage.\n");
}

/** Run the CLI with `args` (without `node` and the script); returns the exit code. */
export async function main(args: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const which = COMMANDS.find((c) => c.name === rest[0]);
    if (which) io.out(`${which.usage}\n`);
    else help(io);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`sdmakit: unknown command ${JSON.stringify(name)}\n`);
    help(io);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof SdmakitError) {
      io.err(`sdmakit ${name}: ${e.message}\n`);
      if (ERROR_EXIT_STATUS[e.code] === 2) {
        io.err(`usage: ${command.usage}\n`);
        return 2;
      }
      return 1;
    }
    // Argument errors from library code (STYLE: TypeError / RangeError naming the argument).
    if (e instanceof RangeError || e instanceof TypeError) {
      io.err(`sdmakit ${name}: ${e.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    throw e;
  }
}
