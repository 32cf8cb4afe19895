// SR of a stream just seeded takes the seed's words drawn once (numerics/wasm/sr-words.ts), as the
// engine's packets do (a seed-init per packet, one seed a queue): the same bytes and the same state
// after as the stream stepped in the kernel.
import { describe, expect, it } from "vitest";
import { aluReduceEncoded } from "../../src/numerics/alu.js";
import {
  type Rounding,
  reserveReduceScratch,
  SrStream,
  WasmArena,
  wasmKernelsRun,
} from "../../src/numerics/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { scrambledCodes } from "../helpers/bytes.js";

const SR_DTYPES = [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E3, Dtype.FP8_E4, Dtype.FP8_E5];

/** Where a packet's words come from: the stream in the kernel, copied into scratch, or resident. */
type Where = "stream" | "scratch" | "resident";

/**
 * Packets, one a [seed, count] of `plan` (reseeded, then `drawn` words drawn), the scratch outside
 * the arena ("stream"), in it ("scratch"), or in an arena that reserves a reduce scratch and so
 * resident words ("resident"): the bytes, the state after each, the kernels run, and whether the
 * scratch was left as it was.
 */
function packets(
  dt: Dtype,
  op: "add" | "fma",
  where: Where,
  plan: readonly (readonly [number, number])[],
  drawn = 0,
) {
  const span = Math.max(...plan.map(([, count]) => count)) * dtypeBytes(dt);
  const arena = new WasmArena(3 * span + (1 << 17));
  const base = where === "resident" ? reserveReduceScratch(arena, 1 << 13, 16) : 1 << 16;
  const sources = [0, 1].map((k) => {
    const bytes = arena.u8(base + k * span, span);
    bytes.set(scrambledCodes(span, 5 + k));
    return { dt, bytes, byteOffset: 0, scale: k === 0 ? 0.5 : -1.25 };
  });
  const out = arena.u8(base + 2 * span, span);
  const scratch = where === "stream" ? new Float32Array(1 << 13) : arena.f32(1 << 15, 1 << 13);
  scratch.fill(-3);
  const acc = arena.f32(0, 1 << 13);
  const rng = new SrStream(1);
  const rounding: Rounding = { mode: "sr", rng };
  const bytes: number[][] = [];
  const states: number[][] = [];
  const run = wasmKernelsRun(() => {
    for (const [seed, count] of plan) {
      rng.reseed(0xabc0 + dt + seed);
      for (let i = 0; i < drawn; i++) rng.nextU32();
      aluReduceEncoded(op, acc, sources, count, scratch, dt, out, 0, rounding);
      bytes.push([...out.subarray(0, count * dtypeBytes(dt))]);
      states.push([...rng.stateWords()]);
    }
  });
  return { bytes, states, run, scratchKept: scratch.every((v) => v === -3) };
}

/** Three packets of `count`, one seed. */
const thrice = (count: number): [number, number][] => [
  [0, count],
  [0, count],
  [0, count],
];

describe("SR words of a seed, drawn once", () => {
  for (const dt of SR_DTYPES) {
    for (const op of ["add", "fma"] as const) {
      it(`${dtypeName(dt)} ${op}: reseeded packets through ${op}2_${dtypeName(dt)}_srw = the stream in the kernel`, () => {
        for (const count of [64, 1001, 2048, 8192]) {
          const words = packets(dt, op, "scratch", thrice(count));
          const stream = packets(dt, op, "stream", thrice(count));
          const k = `${op}2_${dtypeName(dt)}`;
          expect(words.run, `${count}`).toEqual([`${k}_srw`, `${k}_srw`, `${k}_srw`]);
          expect(stream.run, `${count}`).toEqual([`${k}_sr`, `${k}_sr`, `${k}_sr`]);
          expect(words.states, `${count}`).toEqual(stream.states);
          expect(words.bytes, `${count}`).toEqual(stream.bytes);
        }
      });
    }
  }

  it("a stream past its seed's state steps in the kernel; atSeed says where the stream is", () => {
    const past = packets(Dtype.BFLOAT16, "add", "scratch", thrice(64), 1);
    expect(past.run).toEqual(["add2_bf16_sr", "add2_bf16_sr", "add2_bf16_sr"]);
    expect(past.bytes).toEqual(packets(Dtype.BFLOAT16, "add", "stream", thrice(64), 1).bytes);
    const rng = new SrStream(9);
    expect(rng.atSeed()).toBe(9);
    rng.nextU32();
    expect(rng.atSeed()).toBeUndefined();
    rng.reseed(0);
    expect(rng.atSeed()).toBe(0);
  });

  it("an arena with a reduce scratch keeps a seed's words resident: none copied into scratch, same bits", () => {
    // Seeds switch back and forth; a seed's later packet wants more words than it held, or fewer.
    const plan: [number, number][] = [
      [0, 2048],
      [0, 2048],
      [1, 64],
      [0, 2048],
      [1, 8192],
      [1, 1001],
      [0, 8192],
      [0, 64],
    ];
    for (const dt of [Dtype.BFLOAT16, Dtype.FP8_E4]) {
      for (const op of ["add", "fma"] as const) {
        const resident = packets(dt, op, "resident", plan);
        const stream = packets(dt, op, "stream", plan);
        expect(resident.run).toEqual(plan.map(() => `${op}2_${dtypeName(dt)}_srw`));
        expect(resident.scratchKept).toBe(true);
        expect(resident.states).toEqual(stream.states);
        expect(resident.bytes).toEqual(stream.bytes);
      }
    }
  });
});
