// An arena its owner dropped is freed: numerics keeps no reference to the last arena it reduced in
// (its reused source records, its scratch and SR look-ups, the start code a one-source ADD filled),
// plain or shared, and not when the reduce threw. Each case runs in a process of its own, started
// with --expose-gc so that it can collect and see its arena gone.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const src = (path: string) => JSON.stringify(new URL(`../../src/${path}`, import.meta.url).href);

/**
 * A bf16 ADD of `sources` sources in an arena with its scratch reserved (`throws`: with a constant,
 * which reduceInto refuses part-way), the arena dropped, collected: "freed"?
 */
function script(shared: boolean, sources: number, throws = false): string {
  const constant = throws ? ", constant: { dtype: 0xff, value: 0 }" : "";
  // let-go.js directly: letGoOfArenas is what device memory's release calls, internal to the library.
  return `import { reduceInto, reserveReduceScratch, RNE, WasmArena } from ${src("numerics/index.ts")};
import { letGoOfArenas } from ${src("numerics/let-go.ts")};
import { Dtype } from ${src("spec/index.ts")};
function reduceInDroppedArena() {
  const arena = new WasmArena(16 << 20, ${shared});
  reserveReduceScratch(arena, 1 << 14, 1 << 16, 1 << 20);
  const bytes = new Uint8Array(arena.buffer);
  const span = (offset) => ({ dtype: Dtype.BFLOAT16, bytes, offset, count: 1024 });
  const sources = [span(4 << 20), span(6 << 20)].slice(0, ${sources});
  try {
    reduceInto("add", sources, span(8 << 20), { rounding: RNE, overflow: "ieee"${constant} });
  } catch (e) {
    if (!${throws}) throw e;
  }
  return new WeakRef(arena.buffer);
}
const ref = reduceInDroppedArena();
letGoOfArenas();
for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
process.stdout.write(ref.deref() === undefined ? "freed" : "alive");`;
}

function runIsolated(code: string): string {
  const args = ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", code];
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

describe("an arena dropped after a reduce is freed", () => {
  it.each([
    ["plain", false],
    ["shared", true],
  ])("%s, one source and two", (_, shared) => {
    expect(runIsolated(script(shared, 1))).toBe("freed");
    expect(runIsolated(script(shared, 2))).toBe("freed");
  });

  it("a reduce that threw", () => {
    expect(runIsolated(script(false, 2, true))).toBe("freed");
  });
});
