// `--threads N`: the table of a run on two threads is the table on one, row for row; a count
// outside 1..MAX_THREADS is refused naming the option, in the CLI and in the library's options.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import { allrCommand, COLLECTIVE_OPTIONS, collectiveSettings, parseOptions } from "../../src/cli/index.js";
import { availableThreads, collectiveRun, MAX_THREADS, type Plan } from "../../src/collectives/index.js";
import {
  MIN_DEFAULT_THREADED_INPUT_BYTES,
  MIN_THREADED_INPUT_BYTES,
  threadsOf,
} from "../../src/collectives/run-collective.js";
import { threadsAvailable } from "../../src/collectives/threads/pool.js";

async function table(threads: string): Promise<string> {
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: () => {} };
  const args = ["-r", "8", "-d", "bf16", "-b", "1mb", "-e", "2mb", "--algo", "ring", "--threads", threads];
  expect(await allrCommand.run(args, io)).toBe(0);
  return out.join("");
}

describe("sdmakit allr --threads", () => {
  it("prints the same table on two threads as on one", async () => {
    const one = await table("1");
    expect(one).toMatch(/2097152 .* ring +0\n/);
    expect(await table("2")).toBe(one);
  });

  it("leaves the threads to the library unless --threads says", () => {
    const threadsAsked = (words: string[]) => {
      const p = parseOptions(COLLECTIVE_OPTIONS, words);
      return collectiveSettings("allr", p.values, p.given, {}).run.threads;
    };
    expect(threadsAsked([])).toBeUndefined();
    expect(threadsAsked(["--threads", "1"])).toBe(1);
    expect(threadsAsked(["--threads", "2"])).toBe(2);
  });

  it("takes the cores from 256 MiB of inputs when not told, one below; as told from 8 MiB", () => {
    // On a quiet 2-core machine two threads ran 8 ranks × 64 MiB 1.2–1.5× faster than one, and the
    // default job (up to 4 MiB a rank) slower: a worker's start-up outweighs the threads there.
    const run = (threads?: number) =>
      collectiveRun({ collective: "allr", ranks: 8, ...(threads === undefined ? {} : { threads }) });
    const inputs = (bytes: number) => ({ sizes: { input: bytes / 8 / 2 } }) as Pick<Plan, "sizes">;
    const cores = threadsAvailable() ? availableThreads() : 1;
    expect(threadsOf(run(), inputs(MIN_DEFAULT_THREADED_INPUT_BYTES - 16))).toBe(1);
    expect(threadsOf(run(), inputs(MIN_DEFAULT_THREADED_INPUT_BYTES))).toBe(cores);
    expect(threadsOf(run(2), inputs(MIN_THREADED_INPUT_BYTES))).toBe(2);
    expect(threadsOf(run(2), inputs(MIN_THREADED_INPUT_BYTES - 16))).toBe(1);
  });

  it("refuses a thread count outside 1..MAX_THREADS, naming it", async () => {
    await expect(table("0")).rejects.toThrow(UsageError);
    await expect(table("0")).rejects.toThrow(`--threads "0": expected an integer 1..${MAX_THREADS}`);
    expect(() => collectiveRun({ collective: "allr", threads: 0 })).toThrow(/threads.*0.*1\.\.256/);
    expect(() => collectiveRun({ collective: "allr", threads: 1.5 })).toThrow(/threads/);
  });
});
