// Run the built CLI as a subprocess, the way a user does (`npm test` builds it first), or its entry
// in process where the process itself is not what a test is about.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/sdmakit.js", import.meta.url));
const BUILT = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `sdmakit <args>`; throws when the CLI has not been built. */
export function sdmakit(...args: string[]): CliResult {
  if (!existsSync(BUILT)) throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Run a command in-process with a capturing io. */
export async function runInProcess(
  command: {
    run(
      args: readonly string[],
      io: { out(t: string): void; err(t: string): void },
    ): number | Promise<number>;
  },
  args: string[],
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io = {
    out(t: string) {
      stdout += t;
    },
    err(t: string) {
      stderr += t;
    },
  };
  const status = await command.run(args, io);
  return { status, stdout, stderr };
}

/**
 * Run `sdmakit <args>` in this process (the CLI's main, its output captured): the status and output
 * the subprocess gives, without a Node start a call (≈ 0.3 s of CPU).
 */
export async function sdmakitHere(...args: string[]): Promise<CliResult> {
  // Imported here: a file that only starts the built CLI need not load the library.
  const { main } = await import("../../src/cli/index.js");
  return runInProcess({ run: main }, args);
}
