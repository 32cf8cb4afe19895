// A run on several threads is the run on one, bit for bit: each part of the ranks generates the
// bytes the whole stream gives those ranks (the stream jumped to where the part starts), and a
// functional run with worker threads over shared device memory gives every output byte and the row
// of the run on one thread.
import { describe, expect, it } from "vitest";
import { SdmakitError } from "../../src/bits/index.js";
import {
  type BufRef,
  buildPlan,
  buildTopology,
  CHECK_TILE,
  type CollectiveOptions,
  checkOutputs,
  collectiveRun,
  DeviceMachine,
  generateInputs,
  inputWordsBefore,
  type Leg,
  MIN_THREADED_INPUT_BYTES,
  makeInputs,
  runSize,
  splitParts,
} from "../../src/collectives/index.js";
import { legWaits } from "../../src/collectives/threads/leg-waits.js";
import { SILENCE, stopWorkerForTest } from "../../src/collectives/threads/pool.js";
import { overwrittenPages } from "../../src/collectives/threads/split-pages.js";
import { doTask } from "../../src/collectives/threads/tasks.js";
import { executeOnThreads } from "../../src/collectives/threads/threaded-execute.js";
import { checkOnThreads, writeInputsOnThreads } from "../../src/collectives/threads/threaded-run.js";
import { PAGE_BYTES, releaseFreeArenas, SHARED_SCRATCH_SLOTS } from "../../src/engine/index.js";
import { archProfile } from "../../src/hal/index.js";
import { WasmArena } from "../../src/numerics/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";

/** Every rank's input bytes, generated whole or in the given parts. */
function inputs(
  kind: "exact" | "random",
  dt: Dtype,
  ranks: number,
  count: number,
  parts = [{ first: 0, end: ranks }],
): Uint8Array[] {
  const eb = dtypeBytes(dt);
  const out = Array.from({ length: ranks }, () => new Uint8Array(count * eb));
  for (const part of parts)
    generateInputs({ kind, dtype: dt, ranks, count, seed: 7 }, (r, from, b) => out[r]?.set(b, from * eb), {
      blocks: true,
      part,
    });
  return out;
}

describe("inputs on threads", () => {
  it("splits ranks into contiguous parts, the first ones larger", () => {
    expect(splitParts(8, 3)).toEqual([
      { first: 0, end: 3 },
      { first: 3, end: 6 },
      { first: 6, end: 8 },
    ]);
    expect(splitParts(2, 4)).toEqual([
      { first: 0, end: 1 },
      { first: 1, end: 2 },
    ]);
  });

  it("counts the words a sparse exact input skips (fp8: fewer exact integers than ranks)", () => {
    // e4m3 holds the integers to 16 exactly; with 40 ranks only 16 of every 40 elements draw.
    expect(inputWordsBefore({ kind: "exact", dtype: Dtype.FP8_E4, ranks: 40, count: 100 }, 0)).toBe(0);
    let words = 0;
    for (let i = 0; i < 100; i++) if ((1 + i) % 40 < 16) words++;
    expect(inputWordsBefore({ kind: "exact", dtype: Dtype.FP8_E4, ranks: 40, count: 100 }, 2)).toBe(
      inputWordsBefore({ kind: "exact", dtype: Dtype.FP8_E4, ranks: 40, count: 100 }, 1) + words,
    );
    expect(inputWordsBefore({ kind: "random", dtype: Dtype.FP8_E4, ranks: 40, count: 100 }, 3)).toBe(300);
  });

  const cases: ["exact" | "random", Dtype, number, number][] = [
    ["exact", Dtype.BFLOAT16, 8, 300_000],
    ["exact", Dtype.FP32, 5, 70_001],
    ["exact", Dtype.FP8_E4, 40, 5_000],
    ["exact", Dtype.INT64, 3, 20_000],
    ["random", Dtype.BFLOAT16, 6, 40_000],
  ];
  for (const [kind, dt, ranks, count] of cases)
    it(`${kind} ${dtypeName(dt)} × ${ranks} ranks: every part's bytes are the whole stream's`, () => {
      const whole = inputs(kind, dt, ranks, count);
      for (const threads of [2, 3]) {
        const parts = inputs(kind, dt, ranks, count, splitParts(ranks, threads));
        for (const [r, b] of parts.entries())
          expect(Buffer.compare(b, whole[r] as Uint8Array), `rank ${r}`).toBe(0);
      }
    });
});

describe("inputs written on threads", () => {
  it("every thread draws its part straight into the device pages, as other arenas grow", () => {
    // A worker rebuilds the posted views over the arenas it adopts (threads/spans.ts ArenaPiece). A
    // view posted as it is arrived over the buffer object the sender's view had, and the arena's
    // handle over the one its memory's getter gave — another once a second shared memory had grown
    // (V8: a run's third arena did it) — so no kernels on the worker knew the views, and its part
    // was drawn into a block and copied (0 bytes in place).
    const ranks = 8;
    const count = 1 << 20;
    const plan = buildPlan({
      topology: buildTopology(archProfile("trn2"), ranks, 1),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count,
    });
    const m = new DeviceMachine(plan, archProfile("trn2"), { overflow: "nan", sharedMemory: true });
    try {
      const spec = { kind: "exact" as const, dtype: Dtype.BFLOAT16, ranks, count, seed: 7 };
      const half = (ranks / 2) * 2 * count;
      expect(writeInputsOnThreads(m, spec, 2)).toEqual([half, half]);
      new WasmArena(1 << 30, true); // another shared memory grows (address space only)
      expect(writeInputsOnThreads(m, spec, 2)).toEqual([half, half]);
      const whole = inputs("exact", Dtype.BFLOAT16, ranks, count);
      for (let r = 0; r < ranks; r++)
        expect(Buffer.compare(m.read(r, "input"), whole[r] as Uint8Array), `rank ${r}`).toBe(0);
    } finally {
      m.release();
    }
  });
});

describe("more threads than a shared arena has scratch slots", () => {
  it("cut the inputs and the check into at most SHARED_SCRATCH_SLOTS parts, the same bytes", () => {
    // A worker adopts the arenas in its part's slot (1..7): a ninth part had none and failed.
    const ranks = 12;
    const count = 4 * CHECK_TILE;
    const profile = archProfile("trn2");
    const plan = buildPlan({
      topology: buildTopology(profile, ranks, 1),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count,
    });
    const m = new DeviceMachine(plan, profile, { overflow: "nan", sharedMemory: true });
    try {
      const spec = { kind: "exact" as const, dtype: Dtype.BFLOAT16, ranks, count, seed: 7 };
      expect(writeInputsOnThreads(m, spec, 12)).toHaveLength(SHARED_SCRATCH_SLOTS);
      const whole = inputs("exact", Dtype.BFLOAT16, ranks, count);
      for (let r = 0; r < ranks; r++)
        expect(Buffer.compare(m.read(r, "input"), whole[r] as Uint8Array), `rank ${r}`).toBe(0);
      m.execute();
      const check = { collective: "allr" as const, op: "sum" as const, dtype: Dtype.BFLOAT16, ranks };
      const sizes = { inputCount: count, outputCount: count, overflow: "nan" as const };
      expect(checkOnThreads(m, { ...check, ...sizes }, 12)).toEqual({ wrong: 0, maxAbsErr: 0 });
    } finally {
      m.release();
    }
  });
});

describe("the check in ranges", () => {
  it("adds up to the whole check: wrong elements summed, the largest error the largest", () => {
    const ranks = 3;
    const count = 3 * CHECK_TILE + 100;
    const { bytes } = makeInputs({ kind: "exact", dtype: Dtype.BFLOAT16, ranks, count, seed: 3 });
    // Outputs that are wrong in a few places: each rank's output is its own input.
    const outputs = bytes.map((b) => b.slice());
    const spec = {
      collective: "allr" as const,
      op: "sum" as const,
      dtype: Dtype.BFLOAT16,
      ranks,
      inputCount: count,
      outputCount: count,
      overflow: "nan" as const,
    };
    const read = (r: number, buffer: string, from: number, len: number) =>
      ((buffer === "input" ? bytes : outputs)[r] as Uint8Array).subarray(2 * from, 2 * (from + len));
    const whole = checkOutputs(spec, read);
    expect(whole.wrong).toBeGreaterThan(0);
    const tiles = Math.ceil(count / CHECK_TILE);
    for (const threads of [2, 3]) {
      const parts = splitParts(tiles, threads).map((p) =>
        checkOutputs(spec, read, undefined, {
          from: p.first * CHECK_TILE,
          to: Math.min(count, p.end * CHECK_TILE),
        }),
      );
      expect(parts.reduce((n, p) => n + p.wrong, 0)).toBe(whole.wrong);
      expect(Math.max(...parts.map((p) => p.maxAbsErr))).toBe(whole.maxAbsErr);
    }
  });
});

describe("a functional run on threads", () => {
  // The smallest runs that take threads: 8 ranks × 1 MiB (5 × 2 MiB) of inputs.
  const cases: [string, Partial<CollectiveOptions>][] = [
    ["ring, checked", { algorithm: "ring" }],
    ["mesh, unchecked", { algorithm: "mesh", check: "none" }],
    ["auto, stochastic rounding", { algorithm: "auto", sr: true, check: "none" }],
    ["ring, fp32 avg on 5 ranks", { algorithm: "ring", ranks: 5, dtype: "fp32", op: "avg" }],
  ];
  for (const [name, options] of cases)
    it(`${name}: the legs split over threads give every output byte and the row of one thread`, () => {
      const run = (threads: number) =>
        runSize(
          collectiveRun({ collective: "allr", ranks: 8, dtype: "bf16", ...options, threads }),
          MIN_THREADED_INPUT_BYTES / (options.ranks === undefined ? 8 : 4),
          undefined,
          { keepOutputs: true },
        );
      const one = run(1);
      // Three threads too: a thread with fewer ranks than the others, legs waiting on two threads.
      for (const threads of [2, 3]) {
        const many = run(threads);
        expect(many.row, `${threads} threads`).toEqual(one.row);
        expect(many.row.guardErrors).toBe(0);
        if (options.check !== "none") expect(many.row.wrong).toBe(0);
        expect(many.packets).toBe(one.packets);
        expect(many.outputs?.length).toBe(one.outputs?.length);
        for (const [r, o] of (many.outputs ?? []).entries())
          expect(Buffer.compare(o, one.outputs?.[r] as Uint8Array), `${threads} threads, rank ${r}`).toBe(0);
      }
    });
});

describe("the legs split over threads", () => {
  const profile = archProfile("trn2");
  /** A ring all-reduce's plan: 8 ranks × `count` bf16. */
  const ringPlan = (count: number) =>
    buildPlan({
      topology: buildTopology(profile, 8, 1),
      collective: "allr",
      algorithm: "ring",
      dtype: Dtype.BFLOAT16,
      op: "sum",
      count,
    });
  /** A machine for a plan of the given legs (over {@link ringPlan}'s buffers). */
  const machineOf = (legs: Leg[], sharedMemory = false, count = 1024) =>
    new DeviceMachine({ ...ringPlan(count), legs }, profile, { overflow: "nan", sharedMemory });
  const leg = (id: number, rank: number, src: BufRef, dst: BufRef, after: number[] = []): Leg => ({
    id,
    step: 0,
    kind: "copy",
    rank,
    queue: 0,
    srcs: [{ ref: src }],
    dsts: [dst],
    count: 16,
    after,
  });
  const ref = (rank: number, elem: number): BufRef => ({ rank, buffer: "output", elem });

  it("wait for the last leg of another thread they clash with or are after, and no other", () => {
    // Ranks 0 and 1 run on threads 0 and 1. Legs 0 and 1 only read the same bytes: no wait. Leg 2
    // (thread 0) overwrites what leg 1 (thread 1) read; leg 3 reads what leg 0 wrote; leg 4 is after
    // leg 2 and overwrites what leg 0 read (the later, 2, is kept); leg 5 overwrites what leg 4 read.
    const legs = [
      leg(0, 0, ref(4, 0), ref(3, 0)),
      leg(1, 1, ref(4, 0), ref(5, 0)),
      leg(2, 0, ref(6, 0), ref(4, 8)),
      leg(3, 1, ref(3, 0), ref(7, 0)),
      leg(4, 1, ref(6, 0), ref(4, 100), [2]),
      leg(5, 0, ref(2, 0), ref(6, 8)),
    ];
    const m = machineOf(legs);
    expect([...legWaits(m.plan, m.layout, 2)]).toEqual([-1, -1, -1, -1, -1, 1, 0, -1, 2, -1, -1, 4]);
    // On one thread no leg waits: plan order is kept.
    expect([...legWaits(m.plan, m.layout, 1)]).toEqual([-1, -1, -1, -1, -1, -1]);
  });

  for (const algorithm of ["ring", "kangaring"] as const)
    for (const threads of [1, 2])
      it(`an 8-rank ${algorithm} all-reduce on ${threads} thread(s) touches no page of the scratch`, () => {
        // Its partials go to the output (group-ring.ts partialBuffer): every page a run touches is a
        // first-touch fault in a cold process; the scratch stays only pre-filled (no memory).
        const plan = buildPlan({
          topology: buildTopology(profile, 8, 1),
          collective: "allr",
          algorithm,
          dtype: Dtype.BFLOAT16,
          op: "sum",
          count: 4 << 20,
        });
        const m = new DeviceMachine(plan, profile, { overflow: "nan", sharedMemory: threads > 1 });
        try {
          m.prefill();
          if (threads > 1) executeOnThreads(m, threads);
          else m.execute();
          const allocated = (buffer: "output" | "scratch") =>
            Array.from({ length: 8 }, (_, r) => {
              const { addr, bytes } = m.layout.buffer(r, buffer);
              const first = Math.ceil(Number(addr) / PAGE_BYTES);
              const pages = Array.from(
                { length: bytes / PAGE_BYTES - 1 },
                (_, k) => BigInt(first + k) * BigInt(PAGE_BYTES),
              );
              return pages.filter((a) => m.device.memory.peek(a, 1) !== undefined).length;
            });
          expect(allocated("scratch")).toEqual(new Array(8).fill(0));
          expect(allocated("output")).toEqual(new Array(8).fill(7)); // its whole pages
        } finally {
          m.release();
        }
      });

  it("tell the legs every thread is past, batch by batch, ending with all of them", () => {
    const plan = ringPlan(1 << 16);
    const m = new DeviceMachine(plan, profile, { overflow: "nan", sharedMemory: true });
    try {
      m.prefill();
      const told: number[] = [];
      executeOnThreads(m, 2, (done) => told.push(done));
      // A prefix of the plan each time, never less than before, and at the end the whole plan.
      expect(told.length).toBeGreaterThan(1);
      expect(told.every((n, i) => n <= plan.legs.length && (i === 0 || n >= (told[i - 1] as number)))).toBe(
        true,
      );
      expect(told.at(-1)).toBe(plan.legs.length);
    } finally {
      m.release();
    }
  });

  it("need not set a page that legs overwrite whole before anything reads it", () => {
    const count = 1 << 21; // 4 MiB buffers
    const layout = machineOf([], false, count).layout;
    const half = PAGE_BYTES / 4; // bf16 elements in half a page
    /** Half page k of rank r's output, from its first whole page. */
    const at = (r: number, k: number): BufRef => {
      const a = Number(layout.addr(ref(r, 0), 0));
      return ref(r, (Math.ceil(a / PAGE_BYTES) * PAGE_BYTES - a) / 2 + k * half);
    };
    const pageOf = (r: BufRef) => Math.floor(Number(layout.addr(r, 0)) / PAGE_BYTES);
    const input: BufRef = { rank: 0, buffer: "input", elem: 0 };
    const copy = (id: number, src: BufRef, dst: BufRef): Leg => ({
      ...leg(id, id % 2, src, dst),
      count: half,
    });
    const legs = [
      // Rank 2's page: written whole, in two halves on two threads.
      copy(0, input, at(2, 0)),
      copy(1, input, at(2, 1)),
      // Rank 3's: its second half read before it is written.
      copy(2, input, at(3, 0)),
      copy(3, at(3, 1), at(7, 4)),
      copy(4, input, at(3, 1)),
      // Rank 4's: only its written half read before the other half is written.
      copy(5, input, at(4, 0)),
      copy(6, at(4, 0), at(7, 6)),
      copy(7, input, at(4, 1)),
      // Rank 5's: half written.
      copy(8, input, at(5, 0)),
    ];
    const whole = overwrittenPages(machineOf(legs, false, count));
    expect([2, 3, 4, 5].map((r) => whole.has(pageOf(at(r, 0))))).toEqual([true, false, true, false]);
    expect(whole.has(pageOf(at(7, 4)))).toBe(false);
  });

  for (const [where, rank] of [
    ["a worker", 1],
    ["the calling thread", 0],
  ] as const)
    it(`stop on every thread when a leg on ${where} faults, with its reason`, () => {
      // The faulting leg writes outside the device's memory; leg 2, on the other thread, waits for it.
      const legs = [
        leg(0, 0, ref(2, 0), ref(3, 0)),
        leg(1, rank, ref(2, 0), ref(4, 2 ** 40)),
        leg(2, 1 - rank, ref(4, 0), ref(5, 0), [1]),
      ];
      const m = machineOf(legs, true);
      const error = (() => {
        try {
          executeOnThreads(m, 2);
        } catch (e) {
          return e as Error;
        }
        return undefined;
      })();
      expect(error?.message).toMatch(
        rank === 1 ? /^worker thread: .*is not mapped/s : /^device: .*is not mapped/,
      );
      expect(error?.message).not.toMatch(/another thread/);
    });

  it("run on every thread when no new page is owed a byte (fresh memory reads as zero already)", () => {
    releaseFreeArenas(); // fresh arenas: no new page needs setting before the legs
    const legs = [leg(0, 0, ref(2, 0), ref(3, 0)), leg(1, 1, ref(2, 0), ref(4, 0))];
    const m = machineOf(legs, true);
    m.device.memory.write(
      m.layout.addr(ref(2, 0)),
      Uint8Array.from({ length: 32 }, (_, i) => i + 1),
    );
    executeOnThreads(m, 3);
    expect(m.packets).toBeGreaterThan(0);
    for (const r of [3, 4])
      expect([...m.device.memory.read(m.layout.addr(ref(r, 0)), 32)]).toEqual(
        Array.from({ length: 32 }, (_, i) => i + 1),
      );
    m.release();
  });

  it("end with a typed error, not a hang, when a worker dies; the next run takes a new one", () => {
    const legs = [leg(0, 0, ref(2, 0), ref(3, 0)), leg(1, 1, ref(2, 0), ref(4, 0))];
    executeOnThreads(machineOf(legs, true), 2);
    const limit = SILENCE.ms;
    SILENCE.ms = 500;
    try {
      stopWorkerForTest(0);
      let error: unknown;
      try {
        executeOnThreads(machineOf(legs, true), 2);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SdmakitError);
      expect((error as Error).message).toMatch(/said nothing for 0.5 s: it has stopped/);
    } finally {
      SILENCE.ms = limit;
    }
    const m = machineOf(legs, true);
    executeOnThreads(m, 2);
    expect(m.packets).toBeGreaterThan(0);
  });

  it("fail a worker's run with why, and tell the other threads, when no machine was made for it", () => {
    // A worker makes its machine in a step before its run; this thread has made none.
    const progress = new Int32Array(new SharedArrayBuffer(12)).fill(-1, 0, 2);
    const shared = { handles: [], pages: [], owed: [], filled: [] };
    const run = { task: "execute", step: "run", shared, slot: 1, progress } as const;
    const waits = new Int32Array(new SharedArrayBuffer(8));
    expect(() => doTask({ ...run, waits, set: { first: 0, end: 0 } })).toThrow(/no machine made/);
    expect([...progress]).toEqual([-1, 0x7fffffff, 1]);
  });
});
