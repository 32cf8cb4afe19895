// SR of a stream just seeded takes the seed's words drawn once (numerics/wasm/sr-words.ts), as the
// engine's packets do (a seed-init per packet, one seed a queue): the same bytes and the same state
// after as the stream stepped in the kernel.
import { describe, expect, it } from "vitest";
import { aluReduceEncoded } from "../../src/numerics/alu.js";
import { type Rounding, SrStream, WasmArena, wasmKernelsRun } from "../../src/numerics/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { scrambledCodes } from "../helpers/bytes.js";

const SR_DTYPES = [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E3, Dtype.FP8_E4, Dtype.FP8_E5];

/**
 * Packets of `count` elements, each reseeded with `seed` (`drawn` words drawn after the reseed),
 * scratch in the arena (`inArena`) or not: the bytes, the state after each, the kernels run.
 */
function packets(dt: Dtype, op: "add" | "fma", count: number, inArena: boolean, drawn = 0) {
  const span = count * dtypeBytes(dt);
  const arena = new WasmArena(3 * span + (1 << 16));
  const sources = [0, 1].map((k) => {
    const bytes = arena.u8((1 << 16) + k * span, span);
    bytes.set(scrambledCodes(span, 5 + k));
    return { dt, bytes, byteOffset: 0, scale: k === 0 ? 0.5 : -1.25 };
  });
  const out = arena.u8((1 << 16) + 2 * span, span);
  const scratch = inArena ? arena.f32(1 << 15, 1 << 13) : new Float32Array(1 << 13);
  const acc = arena.f32(0, 1 << 13);
  const rng = new SrStream(1);
  const rounding: Rounding = { mode: "sr", rng };
  const bytes: number[][] = [];
  const states: number[][] = [];
  const run = wasmKernelsRun(() => {
    for (let p = 0; p < 3; p++) {
      rng.reseed(0xabc0 + dt);
      for (let i = 0; i < drawn; i++) rng.nextU32();
      aluReduceEncoded(op, acc, sources, count, scratch, dt, out, 0, rounding);
      bytes.push([...out]);
      states.push([...rng.stateWords()]);
    }
  });
  return { bytes, states, run };
}

describe("SR words of a seed, drawn once", () => {
  for (const dt of SR_DTYPES) {
    for (const op of ["add", "fma"] as const) {
      it(`${dtypeName(dt)} ${op}: reseeded packets through ${op}2_${dtypeName(dt)}_srw = the stream in the kernel`, () => {
        for (const count of [64, 1001, 2048, 8192]) {
          const words = packets(dt, op, count, true);
          const stream = packets(dt, op, count, false);
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
    const past = packets(Dtype.BFLOAT16, "add", 64, true, 1);
    expect(past.run).toEqual(["add2_bf16_sr", "add2_bf16_sr", "add2_bf16_sr"]);
    expect(past.bytes).toEqual(packets(Dtype.BFLOAT16, "add", 64, false, 1).bytes);
    const rng = new SrStream(9);
    expect(rng.atSeed()).toBe(9);
    rng.nextU32();
    expect(rng.atSeed()).toBeUndefined();
    rng.reseed(0);
    expect(rng.atSeed()).toBe(0);
  });
});
