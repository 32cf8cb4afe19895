// Stochastic rounding over a long span draws its random words in four SIMD lanes, each the stream
// jumped a quarter of the span ahead (numerics/wasm/sr-lanes.ts, sr-jump.ts): the same words as
// the stream stepped in the kernel, so the same bytes and the same stream state after.
import { describe, expect, it } from "vitest";
import { aluReduceEncoded } from "../../src/numerics/alu.js";
import {
  type Rounding,
  SrStream,
  useWasmKernels,
  WasmArena,
  wasmKernelsRun,
} from "../../src/numerics/index.js";
import { jump, jumpAhead, jumpMatrix } from "../../src/numerics/sr-jump.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { expectSameBytes, scrambledCodes } from "../helpers/bytes.js";

/** The state `n` words on from `seed`'s, stepped one word at a time. */
function stepped(seed: number, n: number): number[] {
  const rng = new SrStream(seed);
  for (let i = 0; i < n; i++) rng.nextU32();
  return [...rng.stateWords()];
}

describe("xoshiro jump", () => {
  it("jumping n words is n state updates", () => {
    for (const n of [0, 1, 2, 3, 1000, 4096]) {
      const from = Uint32Array.from(new SrStream(n + 7).stateWords());
      const out = new Uint32Array(4);
      jump(jumpMatrix(n), from, out);
      expect([...out], `${n}`).toEqual(stepped(n + 7, n));
    }
  });

  it("jumpAhead: any length through the powers of two", () => {
    for (const n of [0, 1, 5, 2048, 3 * 2048 + 1, (1 << 18) + 12345]) {
      const s = Uint32Array.from(new SrStream(n + 3).stateWords());
      jumpAhead(s, n);
      expect([...s], `${n}`).toEqual(stepped(n + 3, n));
    }
  });
});

const COUNT = (1 << 20) + 12345;
const SR_DTYPES = [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E3, Dtype.FP8_E4, Dtype.FP8_E5];

/** A two-source SR reduce of COUNT elements: its bytes, the stream's state after, the kernels run. */
function reduce(dt: Dtype, op: "add" | "min" | "max" | "fma", lanes: boolean) {
  const width = dtypeBytes(dt);
  const span = COUNT * width;
  const arena = new WasmArena(3 * span + (1 << 17));
  const sources = [0, 1].map((k) => {
    const bytes = arena.u8((1 << 17) + k * span, span);
    bytes.set(scrambledCodes(span, 11 + k));
    return { dt, bytes, byteOffset: 0, scale: k === 0 ? 0.5 : -1.25 };
  });
  const out = arena.u8((1 << 17) + 2 * span, span);
  // The lanes take their scratch from the arena; scratch outside it steps the stream in the kernel.
  const scratch = lanes ? arena.f32(1 << 16, 1 << 14) : new Float32Array(1 << 14);
  const rng = new SrStream(dt * 31 + op.length);
  const rounding: Rounding = { mode: "sr", rng };
  const acc = arena.f32(0, 1 << 14);
  const run = wasmKernelsRun(() => aluReduceEncoded(op, acc, sources, COUNT, scratch, dt, out, 0, rounding));
  return { out: out.slice(), state: [...rng.stateWords()], run };
}

describe("SR words drawn in lanes = the stream stepped in the kernel", () => {
  for (const dt of SR_DTYPES) {
    for (const op of ["add", "min", "max", "fma"] as const) {
      it(`${dtypeName(dt)} ${op}: the same bytes and state after, through ${op}2_${dtypeName(dt)}_srw`, () => {
        const lanes = reduce(dt, op, true);
        const stream = reduce(dt, op, false);
        expect(lanes.run).toEqual([`${op}2_${dtypeName(dt)}_srw`, `${op}2_${dtypeName(dt)}_sr`]);
        expect(stream.run).toEqual([`${op}2_${dtypeName(dt)}_sr`]);
        expect(lanes.state).toEqual(stream.state);
        expectSameBytes([lanes.out], [stream.out], "lanes vs stream");
      });
    }
  }

  it("bf16 ADD in lanes = the JS loops (kernels off)", () => {
    const lanes = reduce(Dtype.BFLOAT16, "add", true);
    useWasmKernels(false);
    try {
      const js = reduce(Dtype.BFLOAT16, "add", true);
      expect(js.run).toEqual([]);
      expect(lanes.state).toEqual(js.state);
      expectSameBytes([lanes.out], [js.out], "lanes vs JS");
    } finally {
      useWasmKernels(true);
    }
  });
});
