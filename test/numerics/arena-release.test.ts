// An arena its owner dropped is freed: numerics keeps no reference to the last arena it reduced in
// (its reused source records, its scratch and SR look-ups, the start code a one-source ADD filled),
// plain or shared, and not when the reduce threw. The cases run in one process of their own, started
// with --expose-gc so that it can collect and see each arena gone.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";

const src = (path: string) => JSON.stringify(new URL(`../../src/${path}`, import.meta.url).href);

/**
 * A case: a bf16 ADD of `sources` sources, in a shared arena or not, that throws part-way or not;
 * in an arena device memory owns (it lets numerics forget it: letGoOfArenas) or in one the caller
 * made through the public API (nothing tells numerics it was dropped: never kept at hand).
 */
interface Case {
  readonly shared: boolean;
  readonly sources: number;
  readonly throws: boolean;
  readonly owner: "device" | "caller";
}

const CASES: readonly Case[] = (["device", "caller"] as const).flatMap((owner) =>
  [false, true].flatMap((shared) => [
    ...[1, 2].map((sources) => ({ shared, sources, throws: false, owner })),
    ...(shared ? [] : [{ shared, sources: 2, throws: true, owner }]),
  ]),
);

/**
 * One process for every case, in turn: the ADD in an arena with its scratch reserved (`throws`:
 * with a constant, which reduceInto refuses part-way), the arena dropped (by device memory: let
 * go; by a caller: nothing said), collected: "freed"? A
 * case is judged right after its own reduce, with the earlier cases' state behind it as in use.
 */
function script(cases: readonly Case[]): string {
  // let-go.js directly: letGoOfArenas is what device memory's release calls, internal to the library.
  return `import { reduceInto, reserveReduceScratch, RNE, WasmArena } from ${src("numerics/index.ts")};
import { keepAtHandUntilLetGo, letGoOfArenas } from ${src("numerics/let-go.ts")};
import { Dtype } from ${src("spec/index.ts")};
function reduceInDroppedArena({ shared, sources: n, throws, owner }) {
  const arena = new WasmArena(16 << 20, shared);
  // As device memory's arenas are (page-arenas.ts).
  if (owner === "device") keepAtHandUntilLetGo(arena.buffer);
  reserveReduceScratch(arena, 1 << 14, 1 << 16, 1 << 20);
  const bytes = new Uint8Array(arena.buffer);
  const span = (offset) => ({ dtype: Dtype.BFLOAT16, bytes, offset, count: 1024 });
  const sources = [span(4 << 20), span(6 << 20)].slice(0, n);
  const constant = throws ? { constant: { dtype: 0xff, value: 0 } } : {};
  try {
    reduceInto("add", sources, span(8 << 20), { rounding: RNE, overflow: "ieee", ...constant });
  } catch (e) {
    if (!throws) throw e;
  }
  return new WeakRef(arena.buffer);
}
const seen = [];
for (const c of ${JSON.stringify(cases)}) {
  const ref = reduceInDroppedArena(c);
  if (c.owner === "device") letGoOfArenas();
  for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
  seen.push(ref.deref() === undefined ? "freed" : "alive");
}
process.stdout.write(JSON.stringify(seen));`;
}

/** Every case's "freed" or "alive", from one process started with --expose-gc (run once for the file). */
const all: string[] = [];

/** Each case's "freed" or "alive", from a process started with --expose-gc. */
function runIsolated(cases: readonly Case[]): string[] {
  const args = ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script(cases)];
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as string[];
}

describe.each(["device", "caller"] as const)(
  "an arena its %s owner dropped after a reduce is freed",
  (owner) => {
    let seen: string[] = [];
    beforeAll(() => {
      if (all.length === 0) all.push(...runIsolated(CASES));
      seen = all;
    });
    const freed = (shared: boolean, sources: number, throws = false) =>
      seen[
        CASES.findIndex(
          (c) => c.owner === owner && c.shared === shared && c.sources === sources && c.throws === throws,
        )
      ];

    it.each([
      ["plain", false],
      ["shared", true],
    ])("%s, one source and two", (_, shared) => {
      expect(freed(shared, 1)).toBe("freed");
      expect(freed(shared, 2)).toBe("freed");
    });

    it("a reduce that threw", () => {
      expect(freed(false, 2, true)).toBe("freed");
    });
  },
);
