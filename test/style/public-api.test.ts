/**
 * The public surface is curated (STYLE "curate what you export", as noble's per-module exports):
 * every layer's index names what it exports, and tests reach the library through those indexes, so a
 * file can move inside a layer without breaking a test. A test that must pin an internal either gets
 * it exported from its index on purpose or is listed in INTERNAL_IMPORTS below with the reason.
 * `npx tsx tools/index-imports.ts` rewrites test imports to the indexes and lists what is missing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as numerics from "../../src/numerics/index.js";

const ROOT = join(import.meta.dirname, "../..");

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f));
}

/** A module specifier of every import / re-export in a file. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)].map((m) => m[1] as string);
}

/** The entry points a test may import: the root, the front door and each layer's index. */
const ENTRY =
  /^src\/(index|api|(bits|spec|numerics|hal|runtime|engine|isa|collectives|vectors|cli)\/index)\.js$/;

/**
 * Tests that import a file below a layer index, each with why (keep this list short: prefer to
 * export the name from the index).
 */
const INTERNAL_IMPORTS: Readonly<Record<string, string>> = {
  "test/collectives/check-kernels.test.ts → src/collectives/check/check-kernels.js":
    "pins the check module's tile functions to the JS loops they stand for; no caller outside check/",
  "test/collectives/exact-sum.test.ts → src/collectives/check/check-kernels.js":
    "pins the one-pass exact sum to the staged tile functions it replaced; no caller outside check/",
  "test/collectives/exact-sum.test.ts → src/collectives/check/exact-result.js":
    "the staged path's exactTile, which only the check calls",
  "test/collectives/exact-sum.test.ts → src/collectives/check/verify.js":
    "the staged path's encodeExact and the check's spec type, which only the check uses",
  "test/collectives/exact-sum.test.ts → src/engine/memory/page-arenas.js":
    "sums sources in a device arena without a device; only device memory makes them",
  "test/collectives/leg-memo.test.ts → src/collectives/timing/leg-memo.js":
    "pins calibration's memo of planned legs to planning each time; only calibrate.ts makes one",
  "test/collectives/leg-memo.test.ts → src/collectives/timing/schedule.js":
    "the weight the memo must match (scheduleWeight), which only the scheduler's callers use",
  "test/numerics/sr-lanes.test.ts → src/numerics/alu.js":
    "pins the SR lanes through the one-pass reduce step; the library reaches it through reduceInto only",
  "test/numerics/sr-words.test.ts → src/numerics/alu.js":
    "pins the seeded SR words through the one-pass reduce step; the library reaches it through reduceInto",
  "test/numerics/shared-arena.test.ts → src/numerics/alu.js":
    "pins the SR lanes over a shared arena through the one-pass reduce step, as sr-lanes.test.ts does",
  "test/numerics/wasm-kernels.test.ts → src/numerics/alu.js":
    "pins each fused kernel to its unfused steps (load, apply, apply-then-encode, one pass); reduceInto picks among them",
  "test/numerics/reduce-many.test.ts → src/numerics/let-go.js":
    "keeps an arena at hand and lets go of it as device memory does; only device memory and a worker do",
  "test/numerics/sr-lanes.test.ts → src/numerics/sr-jump.js":
    "pins the jump matrix to n state updates; only the SR lanes and the check module's draw use it",
  "test/collectives/threads.test.ts → src/collectives/threads/leg-waits.js":
    "pins which legs wait for which between threads; only the threaded execution uses the waits",
  "test/collectives/plan-wire.test.ts → src/collectives/threads/plan-wire.js":
    "pins the plan a worker is sent to the plan; only the threaded execution sends one",
  "test/collectives/threads.test.ts → src/collectives/threads/split-pages.js":
    "pins which pages a split run need not set; only the threaded execution asks",
  "test/collectives/threads.test.ts → src/collectives/threads/tasks.js":
    "runs a worker's share of a split execution with no machine made for it; a run always makes one",
  "test/collectives/threads.test.ts → src/collectives/threads/threaded-execute.js":
    "runs a plan with a faulting leg split over threads; a run's plans never fault so",
  "test/collectives/threads.test.ts → src/collectives/threads/threaded-run.js":
    "counts the bytes each thread drew in place; a run writes its inputs and asks nothing",
  "test/cli/threads.test.ts → src/collectives/run-collective.js":
    "pins the threads a run takes by its inputs' size; the run reads them, nothing else does",
  "test/collectives/threads.test.ts → src/collectives/threads/pool.js":
    "stops a worker behind the pool's back and shortens the silence limit: no run can do either",
  "test/cli/threads.test.ts → src/collectives/threads/pool.js":
    "asks whether this runtime has worker threads, as the run does",
  "test/collectives/check-kernels.test.ts → src/engine/memory/page-arenas.js":
    "makes a device arena (this thread's host block in it) without a device; only device memory makes them",
  "test/collectives/inputs.test.ts → src/engine/memory/page-arenas.js":
    "draws inputs into device pages of an arena without a device; only device memory makes them",
  "test/numerics/shared-arena.test.ts → src/numerics/wasm/shared-memory.js":
    "pins the kernels module rewritten to share or import its memory; only the kernels loader uses it",
};

describe("curated public API", () => {
  it.each(tsFiles("src").filter((f) => f.endsWith("index.ts")))(
    "%s exports by name, not export *",
    (file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(text.match(/^\s*export\s+\*\s+from\s+.*$/gm) ?? []).toEqual([]);
    },
  );

  it("tests import the library through the layer indexes only", () => {
    const offenders: string[] = [];
    for (const file of tsFiles("test")) {
      for (const spec of specifiers(readFileSync(join(ROOT, file), "utf8"))) {
        if (!spec.startsWith(".") || !spec.includes("src/")) continue;
        const target = relative(ROOT, join(ROOT, file, "..", spec)).replaceAll("\\", "/");
        if (!target.startsWith("src/") || ENTRY.test(target)) continue;
        if (INTERNAL_IMPORTS[`${file} → ${target}`] === undefined) offenders.push(`${file} → ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("numerics exports its one reduce entry, not its fast paths (issue 28)", () => {
  it("names reduceInto, the scalar ALU reference, the codecs and the kernels' switches only", () => {
    // The one-pass, stepwise and encode-fused kernel steps (aluReduceEncoded, aluApplyEncoded, …)
    // stay behind reduceInto; a test that pins one imports its file (INTERNAL_IMPORTS above).
    expect(Object.keys(numerics).sort()).toEqual([
      ...["BF16_FORMAT", "OVERFLOW_POLICIES", "RNE", "SrStream", "WasmArena", "accumulatorStart"],
      ...["aluAccumulatorDtype", "aluAdd", "aluClamp", "aluConstantToF32", "aluFma", "aluIdentity"],
      ...["aluMax", "aluMin", "decodeToF32", "encodeFromF32", "encodeNarrowFloat", "fmaF32"],
      ...["narrowFloatFormat", "provideWasmKernelModule", "reduceInto", "reduceScratchBytes"],
      ...["reserveReduceScratch", "useWasmKernels", "wasmKernelsRun"],
    ]);
  });
});
