// Stochastic rounding: the random stream against its C reference, the exact all-words count,
// statistics over ≥ 1e5 trials, and reproducibility from the seed. No test reads the clock.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  decodeToF32,
  encodeFromF32,
  type NarrowFloatFormat,
  narrowFloatFormat,
  type RandomSource,
  type Rounding,
  type SrRounding,
  SrStream,
} from "../../src/numerics/index.js";
import { Dtype } from "../../src/spec/index.js";
import { hexWords, loadVectors } from "./vectors.js";

const FORMATS = [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E3, Dtype.FP8_E4, Dtype.FP8_E5].map(
  (dt) => narrowFloatFormat(dt)!,
);

/** SR-encode `xs` into `fmt` and decode the codes back to FP32 values. */
function roundTrip(fmt: NarrowFloatFormat, xs: Float32Array, rng: RandomSource): Float32Array {
  const bytes = new Uint8Array(xs.length * (fmt.widthBits / 8));
  encodeFromF32(fmt.dtype, xs, 0, xs.length, bytes, 0, { mode: "sr", rng });
  const back = new Float32Array(xs.length);
  decodeToF32(fmt.dtype, bytes, 0, xs.length, back);
  return back;
}

/** The two format values around x (x's truncation toward zero, and one ulp further out). */
function neighbours(fmt: NarrowFloatFormat, x: number): [number, number] {
  const allZero: RandomSource = { nextU32: () => 0 };
  const allOnes: RandomSource = { nextU32: () => 0xffffffff };
  const xs = Float32Array.of(x);
  return [roundTrip(fmt, xs, allZero)[0]!, roundTrip(fmt, xs, allOnes)[0]!];
}

function valueOfCode(fmt: NarrowFloatFormat, code: number): number {
  const out = new Float32Array(1);
  decodeToF32(fmt.dtype, new Uint8Array(Uint16Array.of(code).buffer), 0, 1, out);
  return out[0]!;
}

describe("SrStream", () => {
  const file = loadVectors("xoshiro");
  for (const seed of [0, 1, 42, 0xdeadbeef, 0xffffffff]) {
    it(`seed ${seed}: splitmix32 + xoshiro128** words match the C reference`, () => {
      const rng = new SrStream(seed);
      const words = Array.from({ length: 64 }, () => rng.nextU32());
      expect(words).toEqual([...hexWords(file, `seed_${seed}`)]);
    });
  }

  it("reseed replays the stream; different seeds differ", () => {
    const rng = new SrStream(7);
    const first = Array.from({ length: 8 }, () => rng.nextU32());
    rng.reseed(7);
    expect(Array.from({ length: 8 }, () => rng.nextU32())).toEqual(first);
    rng.reseed(8);
    expect(Array.from({ length: 8 }, () => rng.nextU32())).not.toEqual(first);
    // Back to 7 from another seed, then 7 again (the same seed twice: the state it gave, kept).
    for (let i = 0; i < 2; i++) {
      rng.reseed(7);
      expect(rng.atSeed()).toBe(7);
      expect(Array.from({ length: 8 }, () => rng.nextU32())).toEqual(first);
    }
  });

  it.each([-1, 2 ** 32, 1.5, Number.NaN])("refuses seed %s", (seed) => {
    expect(() => new SrStream(seed)).toThrow(/sr-stream\(seed\)/);
  });

  it("is declared once: Rounding's SR arm, with the stream a holder needs (the engine: SrStream)", () => {
    expectTypeOf<Extract<Rounding, { mode: "sr" }>>().toEqualTypeOf<SrRounding>();
    expectTypeOf<SrRounding<SrStream>>().toMatchTypeOf<Rounding>();
    expectTypeOf<SrRounding<SrStream>["rng"]["reseed"]>().toBeFunction();
  });
});

describe("SR rounds up exactly floor(δ·2^n) times over all 2^n random words", () => {
  for (const fmt of FORMATS) {
    const n = fmt.droppedBits;
    // Normal range (δ exact in n bits), and below the smallest normal (extra bits truncated first).
    const minNormal = 2 ** (1 - fmt.bias);
    const cases = [
      1 + 0.3 * 2 ** -fmt.manBits,
      -(3 + 0.71 * 2 ** (1 - fmt.manBits)),
      minNormal * 0.37,
      -minNormal * 2 ** -fmt.manBits * 0.6,
    ];
    for (const x of cases.map(Math.fround)) {
      it(`${fmt.name}: x = ${x}`, () => {
        let k = 0;
        const counter: RandomSource = { nextU32: () => (k++ << (32 - n)) >>> 0 };
        const xs = new Float32Array(2 ** n).fill(x);
        const out = roundTrip(fmt, xs, counter);
        const [down, up] = neighbours(fmt, x);
        const ups = out.filter((v) => v === up).length;
        expect(ups + out.filter((v) => v === down).length).toBe(xs.length);
        const delta = (x - down) / (up - down); // exact: a small dyadic rational
        expect(ups).toBe(Math.floor(delta * 2 ** n));
      });
    }
  }
});

describe("SR is unbiased: the mean of 1e5 rounded values is x within 5σ", () => {
  const N = 100_000;
  for (const fmt of FORMATS) {
    const maxValue = valueOfCode(fmt, fmt.maxCode);
    const minSub = 2 ** (1 - fmt.bias - fmt.manBits);
    const cases: Record<string, number> = {
      "near 0 (subnormal)": 0.3 * minSub,
      "a third": 1 / 3,
      "−π": -Math.PI,
      "a low binade": 2 ** (2 - fmt.bias) * 1.1,
      "a high binade": maxValue * 0.35,
      "just below the largest finite": maxValue * (1 - 2 ** (-fmt.manBits - 2)),
    };
    for (const [label, value] of Object.entries(cases)) {
      it(`${fmt.name}: ${label}`, () => {
        const x = Math.fround(value);
        const [down, up] = neighbours(fmt, x);
        const out = roundTrip(fmt, new Float32Array(N).fill(x), new SrStream(0x5eed + N));
        let sum = 0;
        for (const v of out) sum += v;
        const mean = sum / N;
        expect(up).not.toBe(down); // x is not exact in the format: SR has a choice to make
        const ulp = Math.abs(up - down);
        const delta = Math.abs(x - down) / ulp;
        // σ of the mean of N Bernoulli(δ) steps of one ulp; below the smallest normal the random
        // window is 2^-n of an ulp coarser than x, which the bound allows for.
        const sigma = ulp * Math.sqrt((delta * (1 - delta)) / N);
        const bound = 5 * sigma + ulp * 2 ** -fmt.droppedBits;
        expect(Math.abs(mean - x)).toBeLessThanOrEqual(bound);
      });
    }
  }
});

describe("SR edge cases", () => {
  const e4m3 = narrowFloatFormat(Dtype.FP8_E4)!;

  it("a carry at the largest finite goes to inf; satfinite keeps max; nan makes NaN", () => {
    const x = Float32Array.of(244, -244, Number.NaN, Number.POSITIVE_INFINITY, 0, -0);
    const ones: RandomSource = { nextU32: () => 0xffffffff };
    const encode = (policy: "ieee" | "nan" | "satfinite") => {
      const out = new Uint8Array(x.length);
      encodeFromF32(Dtype.FP8_E4, x, 0, x.length, out, 0, { mode: "sr", rng: ones }, policy);
      return [...out];
    };
    expect(encode("ieee")).toEqual([0x78, 0xf8, e4m3.nanCode, 0x78, 0, 0x80]);
    expect(encode("satfinite")).toEqual([0x77, 0xf7, e4m3.nanCode, 0x77, 0, 0x80]);
    expect(encode("nan")).toEqual([e4m3.nanCode, 0x80 | e4m3.nanCode, e4m3.nanCode, 0x78, 0, 0x80]);
  });

  it("one draw per element whatever the element: chunked calls equal one call", () => {
    const xs = Float32Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? Number.NaN : Math.sin(i) * 300));
    const whole = new Uint8Array(1000);
    encodeFromF32(Dtype.FP8_E5, xs, 0, 1000, whole, 0, { mode: "sr", rng: new SrStream(3) });
    const chunked = new Uint8Array(1000);
    const rng = new SrStream(3);
    for (let at = 0; at < 1000; at += 125)
      encodeFromF32(Dtype.FP8_E5, xs, at, 125, chunked, at, { mode: "sr", rng });
    expect(chunked).toEqual(whole);
  });

  it("the same seed gives the same bits; another seed does not", () => {
    const xs = Float32Array.from({ length: 4096 }, (_, i) => Math.cos(i) * 10);
    const run = (seed: number) => {
      const out = new Uint8Array(2 * xs.length);
      encodeFromF32(Dtype.BFLOAT16, xs, 0, xs.length, out, 0, { mode: "sr", rng: new SrStream(seed) });
      return out;
    };
    expect(run(11)).toEqual(run(11));
    expect(run(11)).not.toEqual(run(12));
  });

  it("integer destinations ignore SR and round to nearest even", () => {
    const out = new Uint8Array(3);
    encodeFromF32(Dtype.INT8, Float32Array.of(2.5, 3.5, -2.5), 0, 3, out, 0, {
      mode: "sr",
      rng: new SrStream(1),
    });
    expect([...new Int8Array(out.buffer)]).toEqual([2, 4, -2]);
  });
});
