// The vectors stand on their own: tools/check-vectors.py (Python standard library, no sdmakit)
// recomputes the layouts, the fp32 / bf16 / fp16 casts and the collectives of the committed set and
// agrees; on a copy with one value changed per set it names the set, case and field. Without
// python3 this FAILS rather than skips: CI installs it (.ci/run).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const DIR = fileURLToPath(new URL("../../vectors/", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../../tools/check-vectors.py", import.meta.url));

function consumer(dir: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("python3", [SCRIPT, dir], { encoding: "utf8" });
  if (r.error !== undefined)
    throw new Error(
      `python3 is required to run tools/check-vectors.py (install it: CI's .ci/run does): ${r.error.message}`,
    );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

type Case = { id: string; input: Record<string, unknown>; expect: Record<string, unknown> };

/** Rewrite the case `id` of `set` in `dir` with `change`. */
function mutate(dir: string, set: string, id: string, change: (c: Case) => void): void {
  const file = join(dir, `${set}.jsonl`);
  const lines = readFileSync(file, "utf8").split("\n");
  const at = lines.findIndex((l) => l.startsWith(`{"id":${JSON.stringify(id)},`));
  if (at < 0) throw new Error(`${set}: no case ${id}`);
  const c = JSON.parse(lines[at] as string) as Case;
  change(c);
  lines[at] = JSON.stringify(c);
  writeFileSync(file, lines.join("\n"));
}

/** A hex string with its first digit changed. */
const flip = (hex: string): string => `${hex[0] === "0" ? "1" : "0"}${hex.slice(1)}`;

describe("tools/check-vectors.py, the independent consumer", () => {
  const tmp = mkdtempSync(join(tmpdir(), "sdmakit-vectors-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("agrees with the committed set", () => {
    const r = consumer(DIR);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/checked layouts \d+, numerics \d+, collectives \d+ cases .*; 0 differences/);
    expect(r.status).toBe(0);
  });

  it("names the set, case and field of one changed value per set", () => {
    cpSync(DIR, tmp, { recursive: true });
    mutate(tmp, "collectives", "allr/ring/r2", (c) => {
      const outputs = c.expect.outputs as string[];
      outputs[1] = flip(outputs[1] as string);
    });
    mutate(tmp, "collectives", "alltoall", (c) => {
      const outputs = c.expect.outputs as string[];
      outputs[2] = flip(outputs[2] as string);
    });
    mutate(tmp, "layouts", "fma-meta/encode/constants", (c) => {
      c.expect.bytes = flip(c.expect.bytes as string);
    });
    mutate(tmp, "numerics", "cast/fp32/bf16/rne/ieee/edges", (c) => {
      const codes = c.expect.codes as string[];
      codes[5] = flip(codes[5] as string);
    });
    // SR into fp8 (the case's recorded words) and an integer source: checked by exact rationals too.
    mutate(tmp, "numerics", "cast/fp32/fp8_e4/sr/random/0", (c) => {
      const codes = c.expect.codes as string[];
      codes[3] = flip(codes[3] as string);
    });
    mutate(tmp, "numerics", "cast/int64/fp16/rne/ieee/edges", (c) => {
      const codes = c.expect.codes as string[];
      codes[2] = flip(codes[2] as string);
    });
    const r = consumer(tmp);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("collectives/allr/ring/r2: outputs[1][0]: expected");
    expect(r.stdout).toContain("collectives/alltoall: outputs[2][0]: expected");
    expect(r.stdout).toContain("layouts/fma-meta/encode/constants: bytes: expected");
    expect(r.stdout).toContain("numerics/cast/fp32/bf16/rne/ieee/edges: codes[5]: expected");
    expect(r.stdout).toContain("manifest/collectives.jsonl: sha256 differs");
    expect(r.stdout).toContain("numerics/cast/fp32/fp8_e4/sr/random/0: codes[3]: expected");
    expect(r.stdout).toContain("numerics/cast/int64/fp16/rne/ieee/edges: codes[2]: expected");
    expect(r.stdout).toMatch(/; 9 differences/);
  });
});
