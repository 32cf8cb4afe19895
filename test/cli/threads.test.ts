// `--threads N`: the table of a run on two threads is the table on one, row for row; a count
// outside 1..MAX_THREADS is refused naming the option, in the CLI and in the library's options.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import { allrCommand, COLLECTIVE_OPTIONS, collectiveSettings, parseOptions } from "../../src/cli/index.js";
import { availableThreads, collectiveRun, MAX_THREADS } from "../../src/collectives/index.js";

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

  it("runs on the cores this process may use unless --threads says otherwise", () => {
    // On a quiet 2-core machine two threads run the default job 1.2–1.5× faster than one
    // (docs/BENCH.md); --threads 1 is there for a machine whose cores are busy with other work.
    const threadsOf = (words: string[]) => {
      const p = parseOptions(COLLECTIVE_OPTIONS, words);
      return collectiveSettings("allr", p.values, p.given, {}).run.threads;
    };
    expect(threadsOf([])).toBe(availableThreads());
    expect(threadsOf(["--threads", "1"])).toBe(1);
    expect(threadsOf(["--threads", "2"])).toBe(2);
  });

  it("refuses a thread count outside 1..MAX_THREADS, naming it", async () => {
    await expect(table("0")).rejects.toThrow(UsageError);
    await expect(table("0")).rejects.toThrow(`--threads "0": expected an integer 1..${MAX_THREADS}`);
    expect(() => collectiveRun({ collective: "allr", threads: 0 })).toThrow(/threads.*0.*1\.\.256/);
    expect(() => collectiveRun({ collective: "allr", threads: 1.5 })).toThrow(/threads/);
  });
});
