/**
 * `validate s3d3` and `run s3d3` agree (review D12): a word libnrt's rules pass but sdmakit's
 * lowering cannot run gets its lowering limits from validate, marked apart from libnrt's reasons, and
 * run refuses it with exit 1 and the same limits — never "bad input" (exit 2).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHex } from "../../src/bits/index.js";
import { runCommand, validateCommand } from "../../src/cli/index.js";
import { encodeS3d3 } from "../../src/isa/index.js";
import { runInProcess } from "../helpers/cli.js";
import { counts, countsOf, validWord, withPattern } from "../isa/s3d3-fixtures.js";

/** The review's word: 16 source elements, 8 destination ones. */
const D12 =
  "bf100000000000000000000006060000001000000100100040001000010001000108000000000000000000000000000000200000010010004000080001000100";
/** The review's word whose destination starts at partition 256 (D11: "at most -128 …"). */
const PARTITION_256 =
  "bf100000000000000000000006060000001000000100100040001000010001000108000000000000000000000000000000000004010010004000100001000100";

interface Verdict {
  valid: boolean;
  reasons: unknown[];
  loweringLimits?: { code: string; field: string; message: string }[];
}

describe("validate s3d3 and run s3d3 agree (D12)", () => {
  it("a destination count ≠ source count: valid, one lowering limit; run exits 1 with it", async () => {
    const v = await runInProcess(validateCommand, ["s3d3", D12, "--json"]);
    expect(v.status).toBe(0);
    const j = JSON.parse(v.stdout) as Verdict;
    expect(j).toMatchObject({ valid: true, reasons: [] });
    expect(j.loweringLimits).toEqual([
      {
        code: "sdmakit-lowering",
        field: "dst.num_elem",
        message: "sb2sb(dst.num_elem): 8 is out of range 16 elements, as many as the source moves",
      },
    ]);
    const text = await runInProcess(validateCommand, ["s3d3", D12]);
    expect(text.stdout).toContain(
      "s3d3: valid\n  sdmakit lowering limits (not libnrt rules; `run s3d3` refuses the word):",
    );
    const r = await runInProcess(runCommand, ["s3d3", D12]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("s3d3: valid, but sdmakit's lowering cannot run it (1 limit(s)); not run");
    expect(r.stdout).toContain("sdmakit-lowering  dst.num_elem");
  });

  it("a start partition past the last one is named, not 'at most -128'", async () => {
    const r = await runInProcess(runCommand, ["s3d3", PARTITION_256]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "dst.start_addr: sb2sb(dst.start_addr): start partition 256 is past the last SBUF partition 127",
    );
  });

  it("on random valid words, run exits 1 exactly with validate's lowering limits, never 2", async () => {
    await fc.assert(
      fc.asyncProperty(validWord, fc.boolean(), async (word, sameCounts) => {
        const w = sameCounts
          ? withPattern(word, "dst_mem_pattern", counts(countsOf(word, "src_mem_pattern")))
          : word;
        const hex = toHex(encodeS3d3(w));
        const v = JSON.parse(
          (await runInProcess(validateCommand, ["s3d3", hex, "--json"])).stdout,
        ) as Verdict;
        const r = await runInProcess(runCommand, ["s3d3", hex, "--json"]);
        expect([0, 1]).toContain(r.status);
        if (!v.valid) return;
        const refused = r.stdout.startsWith("{")
          ? (JSON.parse(r.stdout) as Verdict).loweringLimits
          : undefined;
        expect(refused).toEqual(v.loweringLimits);
      }),
      { numRuns: 150, seed: 16 },
    );
  });
});
