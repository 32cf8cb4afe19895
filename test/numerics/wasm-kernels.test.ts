// The WebAssembly SIMD kernels (src/numerics/wasm/gen/kernels.wat) equal the JS loops bit for bit, for
// every dtype: decode of every code, encode RNE and SR under every overflow policy, the ALU steps
// LOAD / ADD / MIN / MAX / FMA with each dtype as the source, the two-source kernels and the MIN /
// MAX constant; and every dtype × op reaches its kernel (wasmKernelsRun). Each runs both ways wasm can: in place (views of one WasmArena, at
// unaligned offsets) and staged (plain arrays, 64 KiB chunks); with tails (lengths not a multiple
// of 8). The JS side is the same public function with the kernels switched off
// (useWasmKernels(false)); the in-place kernels are also held to the APFloat golden vectors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  aluApplyEncoded,
  aluApplyEncodedThenEncode,
  aluLoadEncoded,
  aluReduceEncoded,
} from "../../src/numerics/alu.js";
import {
  aluClamp,
  aluFma,
  decodeToF32,
  encodeFromF32,
  narrowFloatFormat,
  OVERFLOW_POLICIES,
  RNE,
  type Rounding,
  SrStream,
  useWasmKernels,
  WasmArena,
  wasmKernelsRun,
} from "../../src/numerics/index.js";
import { DTYPE_NAMES, Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { binaryModuleText, compileKernels } from "../../tools/wasm/build.js";
import { kernelsWat } from "../../tools/wasm/kernels-wat.js";
import { hexBigints, hexWords, loadVectors, mismatches, sameAluF32, sameF32 } from "./vectors.js";

/** fn with the wasm kernels off: the JS loops every kernel is held against. */
function withJs<T>(fn: () => T): T {
  useWasmKernels(false);
  try {
    return fn();
  } finally {
    useWasmKernels(true);
  }
}

/** The first index where two byte arrays differ, described; undefined when equal. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): string | undefined {
  if (a.length !== b.length) return `lengths ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return `[${i}]: 0x${a[i]!.toString(16)} vs 0x${b[i]!.toString(16)}`;
  }
  return undefined;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength).slice();

const KERNEL_DTYPES = [
  Dtype.UINT64,
  Dtype.INT8,
  Dtype.UINT8,
  Dtype.INT16,
  Dtype.UINT16,
  Dtype.BFLOAT16,
  Dtype.FP16,
  Dtype.INT32,
  Dtype.UINT32,
  Dtype.FP32,
  Dtype.INT64,
  Dtype.FP8_E3,
  Dtype.FP8_E4,
  Dtype.FP8_E5,
] as const;
const name = (dt: Dtype) => dtypeName(dt);

const SPECIALS = [
  0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff,
  0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fbfffff, 0x4b800000,
  0xcb800001, 0x33800000, 0x4f000000, 0xcf000000, 0x4f800000, 0x477fff00, 0x47000000, 0x437f8000, 0xc3000000,
  0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000, 0x5f000000, 0xdf000000, 0x5f800000, 0xdf800000, 0x5effffff,
];

/**
 * FP32 bit patterns that stress rounding into `dt`: the specials, random words, and for a narrow
 * float every code's value, the ties halfway to the next code and one FP32 ulp either side; for
 * an integer, every halfway point and its neighbours across the range. An odd count.
 */
function stressBits(dt: Dtype): Uint32Array {
  const rng = new SrStream(dt);
  const words: number[] = [...SPECIALS];
  for (let i = 0; i < 20_001; i++) words.push(rng.nextU32());
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const fmt = narrowFloatFormat(dt);
  if (fmt !== undefined) {
    const step = fmt.widthBits === 16 ? 7 : 1;
    for (let code = 0; code < 1 << fmt.widthBits; code += step) {
      const bits = new Float32Array(1);
      decodeToF32(dt, Uint8Array.from([code & 0xff, code >> 8]), 0, 1, bits);
      const b = new Uint32Array(bits.buffer)[0]!;
      const half = 1 << (fmt.droppedBits - 1);
      for (const d of [0, half, half - 1, half + 1, 2 * half - 1]) words.push((b + d) >>> 0);
      // below the smallest normal the dropped bits are more: halfway in the next code's own scale
      f[0] = (bits[0]! + Math.fround(bits[0]! * (1 + 2 ** -(fmt.manBits + 1)))) / 2;
      words.push(u[0]!, (u[0]! + 1) >>> 0, (u[0]! - 1) >>> 0);
    }
  } else {
    for (let k = -70_000; k <= 70_000; k += 13) {
      for (const x of [k + 0.5, k + 0.25, k, -k * 65537.5, k * 2 ** 15 + 0.5]) {
        f[0] = x;
        words.push(u[0]!);
      }
    }
  }
  return Uint32Array.from(words);
}

/** High words of the 64-bit integer sources: 0, −1, the extremes, around 2^53 and 2^24. */
const HIGH_WORDS = [0, 0xffffffff, 0x80000000, 0x7fffffff, 0x00200000, 0x001fffff, 0xffe00000, 1];

/**
 * Encoded sources of `dt`: every code of an 8/16-bit dtype, or 32-bit words incl. the specials,
 * or 64-bit integers whose low words are those and high words HIGH_WORDS, then random.
 */
function sourceBytes(dt: Dtype, count: number, seed: number): Uint8Array {
  const width = dtypeBytes(dt);
  const rng = new SrStream(seed);
  if (width === 8) {
    const words = new Uint32Array(2 * count);
    for (let i = 0; i < count; i++) {
      const special = i < SPECIALS.length * HIGH_WORDS.length;
      words[2 * i] = special ? SPECIALS[i % SPECIALS.length]! : rng.nextU32();
      words[2 * i + 1] = special ? HIGH_WORDS[Math.floor(i / SPECIALS.length)]! : rng.nextU32() >>> (i % 40);
    }
    return new Uint8Array(words.buffer);
  }
  const bytes = new Uint8Array(count * width);
  const words = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    words[i] =
      width === 4 && i < SPECIALS.length
        ? SPECIALS[i]!
        : width < 4 && i < 1 << (8 * width)
          ? i
          : rng.nextU32();
  }
  if (width === 4) bytes.set(new Uint8Array(words.buffer));
  else if (width === 2) bytes.set(new Uint8Array(Uint16Array.from(words).buffer));
  else bytes.set(Uint8Array.from(words));
  return bytes;
}

it("the committed binary is kernels.wat compiled (tools/wasm/build.ts)", async () => {
  const committed = readFileSync(
    new URL("../../src/numerics/wasm/gen/kernels-binary.ts", import.meta.url),
    "utf8",
  );
  expect(committed).toBe(binaryModuleText(await compileKernels()));
});

it("the committed kernels.wat is its generator's output (tools/wasm/kernels-wat.ts)", () => {
  const committed = readFileSync(new URL("../../src/numerics/wasm/gen/kernels.wat", import.meta.url), "utf8");
  expect(committed).toBe(kernelsWat());
});

describe.each(KERNEL_DTYPES.map((dt) => [name(dt), dt] as const))("%s", (_name, dt) => {
  const width = dtypeBytes(dt);
  const n = width === 2 ? 0x10000 + 5 : 4099 * 5;

  it("decode: staged, in an arena at odd offsets, every length 0..80 = the JS loop", () => {
    const raw = sourceBytes(dt, n, 1);
    const expected = new Float32Array(n);
    withJs(() => decodeToF32(dt, raw, 0, n, expected));
    const staged = new Float32Array(n + 1);
    const padded = new Uint8Array(raw.length + 3);
    padded.set(raw, 3);
    decodeToF32(dt, padded, 3, n, staged, 1);
    expect(firstDifference(bytesOf(staged.subarray(1)), bytesOf(expected))).toBeUndefined();
    const arena = new WasmArena(4 * n + raw.length + 64);
    const out = arena.f32(4, n);
    const bytes = arena.u8(4 * n + 9, raw.length);
    bytes.set(raw);
    decodeToF32(dt, bytes, 0, n, out);
    expect(firstDifference(bytesOf(out), bytesOf(expected))).toBeUndefined();
    for (let len = 0; len <= 80; len += 1) {
      const tail = arena.f32(8, len);
      decodeToF32(dt, bytes, width * 3, len, tail);
      expect(firstDifference(bytesOf(tail), bytesOf(expected.subarray(3, 3 + len)))).toBeUndefined();
    }
  });

  if (dt !== Dtype.FP32) {
    const bits = stressBits(dt);
    const m = bits.length;
    const roundings: [string, () => Rounding][] = [["RNE", () => RNE]];
    if (narrowFloatFormat(dt)) roundings.push(["SR", () => ({ mode: "sr", rng: new SrStream(77) })]);
    for (const [rname, rounding] of roundings) {
      it.each(OVERFLOW_POLICIES)(
        `encode ${rname}, overflow %s: staged, in an arena, tails; same stream after`,
        (policy) => {
          const js = new Uint8Array(m * width);
          const jsRounding = rounding();
          withJs(() => encodeFromF32(dt, new Float32Array(bits.buffer), 0, m, js, 0, jsRounding, policy));
          const stagedRounding = rounding();
          const staged = new Uint8Array(m * width + 1);
          encodeFromF32(dt, new Float32Array(bits.buffer), 0, m, staged, 1, stagedRounding, policy);
          expect(firstDifference(staged.subarray(1), js)).toBeUndefined();
          if (jsRounding.mode === "sr" && stagedRounding.mode === "sr") {
            expect(stagedRounding.rng.nextU32()).toBe(jsRounding.rng.nextU32());
          }
          const arena = new WasmArena(4 * m + m * width + 64);
          new Uint32Array(arena.buffer, 4, m).set(bits);
          const out = arena.u8(4 * m + 7, m * width);
          encodeFromF32(dt, arena.f32(4, m), 0, m, out, 0, rounding(), policy);
          expect(firstDifference(out, js)).toBeUndefined();
          for (let len = 60; len <= 80; len += 1) {
            const part = arena.u8(4 * m + 3, len * width);
            const from = 5;
            const want = new Uint8Array(len * width);
            withJs(() => encodeFromF32(dt, arena.f32(4, m), from, len, want, 0, RNE, policy));
            encodeFromF32(dt, arena.f32(4, m), from, len, part, 0, RNE, policy);
            expect(firstDifference(part, want)).toBeUndefined();
          }
        },
      );
    }
  }

  const accBits = stressBits(Dtype.FP16).subarray(0, n);
  for (const op of ["load", "add", "min", "max", "fma"] as const) {
    it(`${op}: staged, in an arena, and every length 0..80 = the JS loop`, () => {
      const raw = sourceBytes(dt, n, 2);
      const count = Math.min(n, accBits.length);
      const scale = op === "fma" ? Math.fround(-1.0625e-3) : 0;
      const run = (acc: Float32Array, bytes: Uint8Array, at: number, len: number) =>
        op === "load"
          ? aluLoadEncoded(acc, dt, bytes, at, len)
          : aluApplyEncoded(op, acc, dt, bytes, at, len, new Float32Array(len), scale);
      const expected = new Float32Array(accBits.slice(0, count).buffer);
      withJs(() => run(expected, raw, 0, count));
      const staged = new Float32Array(accBits.slice(0, count).buffer);
      run(staged, raw, 0, count);
      expect(firstDifference(bytesOf(staged), bytesOf(expected))).toBeUndefined();
      const arena = new WasmArena(4 * count + raw.length + 64);
      const acc = arena.f32(12, count);
      new Uint32Array(arena.buffer, 12, count).set(accBits.subarray(0, count));
      const bytes = arena.u8(4 * count + 13, raw.length);
      bytes.set(raw);
      run(acc, bytes, 0, count);
      expect(firstDifference(bytesOf(acc), bytesOf(expected))).toBeUndefined();
      for (let len = 0; len <= 80; len++) {
        new Uint32Array(arena.buffer, 12, len).set(accBits.subarray(0, len));
        const want = new Float32Array(accBits.slice(0, len).buffer);
        withJs(() => run(want, bytes, width, len));
        run(arena.f32(12, len), bytes, width, len);
        expect(firstDifference(bytesOf(arena.f32(12, len)), bytesOf(want))).toBeUndefined();
      }
    });
  }
});

describe("the in-place kernels against the APFloat golden vectors", () => {
  it.each(["bf16", "fp16", "fp8_e3", "fp8_e4", "fp8_e5"])("decode every %s code", (fmtName) => {
    const dt = DTYPE_NAMES.indexOf(fmtName as (typeof DTYPE_NAMES)[number]) as Dtype;
    const expected = hexWords(loadVectors("decode"), fmtName);
    const n = expected.length;
    const arena = new WasmArena(6 * n + 8);
    const bytes = arena.u8(4 * n, dtypeBytes(dt) * n);
    bytes.set(sourceBytes(dt, n, 0));
    const out = arena.f32(0, n);
    decodeToF32(dt, bytes, 0, n, out);
    expect(mismatches(new Uint32Array(out.buffer, 0, n), expected, sameF32)).toEqual([]);
  });

  it.each(["bf16", "fp16", "fp8_e3", "fp8_e4", "fp8_e5"])("encode %s RNE", (fmtName) => {
    const dt = DTYPE_NAMES.indexOf(fmtName as (typeof DTYPE_NAMES)[number]) as Dtype;
    const fmt = narrowFloatFormat(dt)!;
    const file = loadVectors(`encode-${fmtName}`);
    const inputs = hexWords(file, "inputs");
    const expected = file.expected as number[];
    const m = inputs.length;
    const arena = new WasmArena(6 * m + 8);
    new Uint32Array(arena.buffer, 0, m).set(inputs);
    const out = arena.u8(4 * m, dtypeBytes(dt) * m);
    encodeFromF32(dt, arena.f32(0, m), 0, m, out, 0);
    const codes = fmt.widthBits === 8 ? out : new Uint16Array(out.buffer, out.byteOffset, m);
    const sameCode = (a: number, e: number) =>
      (e & ~fmt.signBit) > fmt.infCode
        ? (a & ~fmt.signBit) > fmt.infCode && (a & fmt.signBit) === (e & fmt.signBit)
        : a === e;
    expect(mismatches(codes, expected, sameCode)).toEqual([]);
  });

  it("FMA: every case rounds once, as APFloat fusedMultiplyAdd (a broadcast as the scale)", () => {
    const file = loadVectors("fma");
    const [a, b, c, expected] = ["a", "b", "c", "expected"].map((k) => hexWords(file, k)) as Uint32Array[];
    const lanes = 64; // enough for the kernel to run; every lane is the same case
    const arena = new WasmArena(8 * lanes);
    const acc = arena.f32(0, lanes);
    const src = arena.f32(4 * lanes, lanes);
    const f = new Float32Array(1);
    const got = new Uint32Array(expected!.length);
    for (let i = 0; i < got.length; i++) {
      new Uint32Array(arena.buffer, 0, lanes).fill(c![i]!);
      new Uint32Array(arena.buffer, 4 * lanes, lanes).fill(b![i]!);
      f[0] = new Float32Array(Uint32Array.of(a![i]!).buffer)[0]!;
      aluFma(acc, src, f[0]!, lanes);
      got[i] = new Uint32Array(arena.buffer, 4 * (lanes - 1), 1)[0]!;
    }
    expect(mismatches(got, expected!, sameAluF32)).toEqual([]);
  });

  it("FMA of two sources (fma2_fp32): b·a + (c·1 + 0) rounds once, as APFloat (c ≠ −0)", () => {
    const file = loadVectors("fma");
    const [a, b, c, expected] = ["a", "b", "c", "expected"].map((k) => hexWords(file, k)) as Uint32Array[];
    const lanes = 64;
    const arena = new WasmArena(16 * lanes);
    const first = arena.u8(0, 4 * lanes);
    const second = arena.u8(4 * lanes, 4 * lanes);
    const out = arena.u8(8 * lanes, 4 * lanes);
    const acc = arena.f32(12 * lanes, lanes);
    const got: number[] = [];
    const want: number[] = [];
    const runs = new Set<string>();
    for (let i = 0; i < expected!.length; i++) {
      if (c![i] === 0x80000000) continue; // the +0 start turns c = −0 into +0 (execute.ts MODEL)
      new Uint32Array(arena.buffer, 0, lanes).fill(c![i]!);
      new Uint32Array(arena.buffer, 4 * lanes, lanes).fill(b![i]!);
      const scale = new Float32Array(Uint32Array.of(a![i]!).buffer)[0]!;
      const sources = [
        { dt: Dtype.FP32, bytes: first, byteOffset: 0, scale: 1 },
        { dt: Dtype.FP32, bytes: second, byteOffset: 0, scale },
      ];
      for (const k of wasmKernelsRun(() =>
        aluReduceEncoded("fma", acc, sources, lanes, acc, Dtype.FP32, out, 0),
      ))
        runs.add(k);
      got.push(new Uint32Array(arena.buffer, 8 * lanes + 4 * (lanes - 1), 1)[0]!);
      want.push(expected![i]!);
    }
    expect([...runs]).toEqual(["fma2_fp32"]);
    expect(mismatches(got, want, sameAluF32)).toEqual([]);
  });

  it("integers: FP32 → int RNE with saturation, int32 / uint32 / int64 / uint64 → FP32 (APFloat)", () => {
    const toInt = loadVectors("fp32-to-int");
    const inputs = hexWords(toInt, "inputs");
    const m = inputs.length;
    const arena = new WasmArena(12 * Math.max(m, 20_000)); // 64-bit codes and FP32 side by side
    new Uint32Array(arena.buffer, 0, m).set(inputs);
    const ints = [
      Dtype.INT8,
      Dtype.UINT8,
      Dtype.INT16,
      Dtype.UINT16,
      Dtype.INT32,
      Dtype.UINT32,
      Dtype.INT64,
      Dtype.UINT64,
    ];
    for (const dt of ints) {
      const width = dtypeBytes(dt);
      const out = arena.u8(4 * m, width * m);
      encodeFromF32(dt, arena.f32(0, m), 0, m, out, 0);
      const got = Array.from({ length: m }, (_, i) =>
        out
          .subarray(i * width, (i + 1) * width)
          .reduceRight((s, byte) => s + byte.toString(16).padStart(2, "0"), ""),
      );
      expect(got.filter((g, i) => g !== (toInt[name(dt)] as string[])[i]).length, name(dt)).toBe(0);
    }
    const toF32 = loadVectors("int-to-fp32");
    for (const dt of [Dtype.INT32, Dtype.UINT32, Dtype.INT64, Dtype.UINT64]) {
      const ins = hexBigints(toF32, `${name(dt)}_inputs`);
      const want = hexWords(toF32, `${name(dt)}_expected`);
      const k = ins.length;
      const width = dtypeBytes(dt);
      const bytes = arena.u8(0, width * k);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
      for (const [i, x] of ins.entries()) {
        if (width === 8) view.setBigUint64(8 * i, x, true);
        else view.setUint32(4 * i, Number(x), true);
      }
      const out = arena.f32(width * k, k);
      decodeToF32(dt, bytes, 0, k, out);
      expect(mismatches(new Uint32Array(arena.buffer, width * k, k), want, sameF32), name(dt)).toEqual([]);
    }
  });
});

describe("aluReduceEncoded (one pass, blocked) = the steps over the whole span (JS)", () => {
  const cases: [string, "add" | "min" | "max" | "fma", Dtype, Dtype, number, () => Rounding][] = [
    ["bf16 ADD 2 sources → bf16 RNE", "add", Dtype.BFLOAT16, Dtype.BFLOAT16, 2, () => RNE],
    [
      "bf16 ADD 3 sources → bf16 SR",
      "add",
      Dtype.BFLOAT16,
      Dtype.BFLOAT16,
      3,
      () => ({ mode: "sr", rng: new SrStream(4) }),
    ],
    ["fp8_e4 MAX 2 sources → fp8_e4", "max", Dtype.FP8_E4, Dtype.FP8_E4, 2, () => RNE],
    [
      "fp16 MIN 1 source → fp8_e5 SR",
      "min",
      Dtype.FP16,
      Dtype.FP8_E5,
      1,
      () => ({ mode: "sr", rng: new SrStream(5) }),
    ],
    ["fp32 FMA 2 sources → fp32", "fma", Dtype.FP32, Dtype.FP32, 2, () => RNE],
    ["int16 ADD 2 sources → int8", "add", Dtype.INT16, Dtype.INT8, 2, () => RNE],
    ["fp8_e5 FMA 3 sources → bf16", "fma", Dtype.FP8_E5, Dtype.BFLOAT16, 3, () => RNE],
    ["int32 FMA 1 source → fp32", "fma", Dtype.INT32, Dtype.FP32, 1, () => RNE],
  ];
  cases.push([
    "bf16 ADD 4 sources → bf16 SR (the steps: no SR four-source kernel)",
    "add",
    Dtype.BFLOAT16,
    Dtype.BFLOAT16,
    4,
    () => ({ mode: "sr", rng: new SrStream(6) }),
  ]);
  cases.push(["fp16 MAX 4 sources → fp16 RNE (the steps)", "max", Dtype.FP16, Dtype.FP16, 4, () => RNE]);
  for (const dt of KERNEL_DTYPES) {
    for (const n of [3, 4])
      cases.push([
        `${name(dt)} add ${n} sources → ${name(dt)} RNE (the ${n}-source kernel)`,
        "add",
        dt,
        dt,
        n,
        () => RNE,
      ]);
    for (const op of ["add", "min", "max", "fma"] as const) {
      cases.push([
        `${name(dt)} ${op} 2 sources → ${name(dt)} RNE (the two-source kernel)`,
        op,
        dt,
        dt,
        2,
        () => RNE,
      ]);
      if (narrowFloatFormat(dt)) {
        const sr = (): Rounding => ({ mode: "sr", rng: new SrStream(dt) });
        cases.push([
          `${name(dt)} ${op} 2 sources → ${name(dt)} SR (the two-source kernel)`,
          op,
          dt,
          dt,
          2,
          sr,
        ]);
      }
    }
  }
  it.each(cases)("%s", (_n, op, inDt, outDt, sourceCount, rounding) => {
    const count = 3 * 4096 + 77;
    const width = dtypeBytes(inDt);
    const raws = Array.from({ length: sourceCount }, (_, k) => sourceBytes(inDt, count, 10 + k));
    const scales = [Math.fround(0.5), Math.fround(-3.25), Math.fround(1e-3), Math.fround(7.5)];
    const expected = new Uint8Array(count * dtypeBytes(outDt));
    withJs(() => {
      const acc = new Float32Array(count);
      const scratch = new Float32Array(count);
      for (const [k, raw] of raws.entries()) {
        if (k === 0 && op === "fma") acc.fill(0);
        if (k === 0 && op !== "fma" && sourceCount > 1) {
          aluLoadEncoded(acc, inDt, raw, 0, count);
          continue;
        }
        if (k === 0 && op !== "fma") acc.fill(op === "add" ? -0 : op === "min" ? Infinity : -Infinity);
        if (k < sourceCount - 1) aluApplyEncoded(op, acc, inDt, raw, 0, count, scratch, scales[k]);
        else {
          const r = rounding();
          aluApplyEncodedThenEncode(
            op,
            acc,
            inDt,
            raw,
            0,
            count,
            scratch,
            outDt,
            expected,
            0,
            r,
            "ieee",
            scales[k],
          );
        }
      }
    });
    const arena = new WasmArena(4 * 4096 + sourceCount * count * width + expected.length + 64);
    const acc = arena.f32(0, 4096);
    const sources = raws.map((raw, k) => {
      const bytes = arena.u8(4 * 4096 + k * count * width, raw.length);
      bytes.set(raw);
      return { dt: inDt, bytes, byteOffset: 0, scale: scales[k]! };
    });
    const out = arena.u8(4 * 4096 + sourceCount * count * width + 3, expected.length);
    aluReduceEncoded(op, acc, sources, count, new Float32Array(4096), outDt, out, 0, rounding());
    expect(firstDifference(out, expected)).toBeUndefined();
  });
});

/*
 * The coverage claim, pinned: every dtype × op runs in one kernel (no JS loop), named in the trace
 * wasmKernelsRun takes, and gives the JS loop's bytes over edge inputs (NaN, ±inf, ±0, subnormals,
 * saturating values, every 8-bit code). Not a kernel, by design: decode / encode of fp32 and fp32r
 * (a copy of the bits). SR into an integer or FP32 runs the RNE kernel (int-encode.ts MODEL:
 * integers round to nearest even whatever the rounding; FP32 needs no rounding).
 */
describe("every dtype × op runs in its kernel and equals the JS loop", () => {
  const ALL_DTYPES = DTYPE_NAMES.map((_, dt) => dt as Dtype).filter((dt) => dt !== Dtype.INVALID);
  const COUNT = 64 * 33 + 5; // the SPECIALS × HIGH_WORDS of a 64-bit source, and a tail
  const srOf = (seed: number): Rounding => ({ mode: "sr", rng: new SrStream(seed) });
  type Run = (arena: WasmArena, dt: Dtype) => Uint8Array;

  /** Sources a, b (codes of dt), an FP32 stress accumulator and an output, in one arena. */
  function layout(arena: WasmArena, dt: Dtype) {
    const width = dtypeBytes(dt);
    const at = (k: number) => 4 * COUNT + k * width * COUNT;
    const a = arena.u8(at(0), width * COUNT);
    const b = arena.u8(at(1), width * COUNT);
    a.set(sourceBytes(dt, COUNT, 1));
    b.set(sourceBytes(dt, COUNT, 2).reverse());
    const acc = arena.f32(0, COUNT);
    new Uint32Array(arena.buffer, 0, COUNT).set(stressBits(Dtype.FP8_E4).subarray(0, COUNT));
    const out = arena.u8(at(2), Math.max(4, width) * COUNT);
    return { a, b, acc, out };
  }
  const bytesOfAcc = (acc: Float32Array) => bytesOf(acc);

  const reduce2 =
    (op: "add" | "min" | "max" | "fma", sr: boolean): Run =>
    (arena, dt) => {
      const { a, b, acc, out } = layout(arena, dt);
      const sources = [
        { dt, bytes: a, byteOffset: 0, scale: Math.fround(0.75) },
        { dt, bytes: b, byteOffset: 0, scale: Math.fround(-1.5e-3) },
      ];
      aluReduceEncoded(
        op,
        acc,
        sources,
        COUNT,
        new Float32Array(16),
        dt,
        out,
        0,
        sr ? srOf(3) : RNE,
        "satfinite",
      );
      return out.slice(0, dtypeBytes(dt) * COUNT);
    };
  const apply =
    (op: "load" | "add" | "min" | "max" | "fma"): Run =>
    (arena, dt) => {
      const { a, acc } = layout(arena, dt);
      if (op === "load") aluLoadEncoded(acc, dt, a, 0, COUNT);
      else aluApplyEncoded(op, acc, dt, a, 0, COUNT, new Float32Array(COUNT), Math.fround(3.25));
      return bytesOfAcc(acc);
    };
  const OPS: [string, (dt: Dtype) => string | undefined, Run][] = [
    [
      "decode",
      (dt) => (dt === Dtype.FP32 || dt === Dtype.FP32R ? undefined : `dec_${name(dt)}`),
      (arena, dt) => {
        const { a, acc } = layout(arena, dt);
        decodeToF32(dt, a, 0, COUNT, acc);
        return bytesOfAcc(acc);
      },
    ],
    ...(["RNE", "SR"] as const).map((r): [string, (dt: Dtype) => string | undefined, Run] => [
      `encode ${r}`,
      (dt) => (dt === Dtype.FP32 || dt === Dtype.FP32R ? undefined : `enc_${name(dt)}${srSuffix(dt, r)}`),
      (arena, dt) => {
        const { acc, out } = layout(arena, dt);
        encodeFromF32(dt, acc, 0, COUNT, out, 0, r === "SR" ? srOf(4) : RNE, "satfinite");
        return out.slice(0, dtypeBytes(dt) * COUNT);
      },
    ]),
    ...(["load", "add", "min", "max", "fma"] as const).map((op): [string, (dt: Dtype) => string, Run] => [
      op,
      (dt) => `${op}_${kernelName(dt)}`,
      apply(op),
    ]),
    [
      "scale (an FMA reduce's first source of three)",
      (dt) => `scale_${kernelName(dt)}`,
      (arena, dt) => {
        const { a, b, acc, out } = layout(arena, dt);
        const sources = [a, b, a].map((bytes, k) => ({
          dt,
          bytes,
          byteOffset: 0,
          scale: Math.fround(k - 0.625),
        }));
        aluReduceEncoded("fma", acc, sources, COUNT, new Float32Array(COUNT), Dtype.FP32, out, 0);
        return out.slice(0, 4 * COUNT);
      },
    ],
    ...[3, 4].map((n): [string, (dt: Dtype) => string | undefined, Run] => [
      `add of ${n} sources, RNE`,
      (dt) => `add${n}_${kernelName(dt)}`,
      (arena, dt) => {
        const { a, b, acc, out } = layout(arena, dt);
        const sources = [a, b, b, a].slice(0, n).map((bytes) => ({ dt, bytes, byteOffset: 0 }));
        aluReduceEncoded("add", acc, sources, COUNT, new Float32Array(16), dt, out, 0, RNE, "satfinite");
        return out.slice(0, dtypeBytes(dt) * COUNT);
      },
    ]),
    ...(["add", "min", "max", "fma"] as const).flatMap((op) =>
      (["RNE", "SR"] as const).map((r): [string, (dt: Dtype) => string | undefined, Run] => [
        `${op} of two sources, ${r}`,
        (dt) => `${op}2_${kernelName(dt)}${srSuffix(dt, r)}`,
        reduce2(op, r === "SR"),
      ]),
    ),
  ];
  /** kernels.wat's name of a dtype: fp32r runs as fp32. */
  const kernelName = (dt: Dtype) => (dt === Dtype.FP32R ? "fp32" : name(dt));
  /** The SR kernels are the narrow floats'; other dtypes round as RNE. */
  const srSuffix = (dt: Dtype, r: "RNE" | "SR") => (r === "SR" && narrowFloatFormat(dt) ? "_sr" : "");

  const cases = ALL_DTYPES.flatMap((dt) =>
    OPS.map(([op, kernel, run]) => [name(dt), op, dt, kernel(dt), run] as const),
  );
  it.each(cases)("%s %s", (_dtName, op, dt, kernel, run) => {
    const size = 4 * COUNT + 3 * 8 * COUNT + 64;
    const js = withJs(() => run(new WasmArena(size), dt));
    let got: Uint8Array = new Uint8Array();
    const ran = wasmKernelsRun(() => {
      got = run(new WasmArena(size), dt);
    });
    // one kernel call over the whole span (the three-source FMA reduce: its first step)
    if (op.startsWith("scale")) expect(ran[0]).toBe(kernel);
    else expect(ran).toEqual(kernel === undefined ? [] : [kernel]);
    expect(firstDifference(got, js)).toBeUndefined();
  });

  it.each(["min", "max"] as const)("the %s constant (aluClamp) runs in %s and equals the JS loop", (op) => {
    const bits = stressBits(Dtype.FP8_E5);
    for (const constant of [0, -0, 1.5, -Infinity, Number.NaN, 3e-39]) {
      const js = new Float32Array(bits.slice().buffer);
      withJs(() => aluClamp(op, js, constant, js.length));
      const arena = new WasmArena(4 * bits.length + 8);
      new Uint32Array(arena.buffer, 4, bits.length).set(bits);
      const acc = arena.f32(4, bits.length);
      expect(wasmKernelsRun(() => aluClamp(op, acc, constant, bits.length))).toEqual([`${op}c_fp32`]);
      const staged = new Float32Array(bits.slice().buffer);
      aluClamp(op, staged, constant, staged.length);
      expect(firstDifference(bytesOf(acc), bytesOf(js)), `constant ${constant}`).toBeUndefined();
      expect(firstDifference(bytesOf(staged), bytesOf(js)), `staged, constant ${constant}`).toBeUndefined();
    }
  });
});

/*
 * The wide two-source kernels hand a vector whose sum overflows to the exact group snippets, which
 * apply the overflow policy: sums of values near the largest finite, of both signs, rounding to
 * exactly the inf code or past it, under every policy and both roundings = the JS loops.
 */
describe("two-source sums that overflow: every policy = the JS loops", () => {
  const COUNT = 96; // six wide vectors of the 8-bit formats, twelve of the 16-bit
  for (const dt of [Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E3, Dtype.FP8_E4, Dtype.FP8_E5]) {
    const fmt = narrowFloatFormat(dt)!;
    const width = dtypeBytes(dt);
    /** Codes near the largest finite, a lane in each nine negative. */
    const near = Array.from({ length: COUNT }, (_, i) => {
      const code = fmt.maxCode - ((i * 7) % 5);
      return i % 9 === 0 ? code | fmt.signBit : code;
    });
    /** Codes spread over the finite range, so that some sums land on the inf code itself. */
    const spread = Array.from({ length: COUNT }, (_, i) => {
      const code = fmt.maxCode - Math.floor((i * fmt.maxCode) / COUNT);
      return i % 7 === 3 ? code | fmt.signBit : code;
    });
    const codeBytes = (codes: number[]) =>
      width === 1 ? Uint8Array.from(codes) : new Uint8Array(Uint16Array.from(codes).buffer);
    for (const overflow of OVERFLOW_POLICIES) {
      for (const sr of [false, true]) {
        it(`${dtypeName(dt)} ADD, ${overflow}, ${sr ? "SR" : "RNE"}`, () => {
          const run = () => {
            const arena = new WasmArena(4 * COUNT * width + 8 * 4096);
            const sources = [near, spread].map((codes, k) => {
              const bytes = arena.u8(8 * 4096 + k * COUNT * width, COUNT * width);
              bytes.set(codeBytes(codes));
              return { dt, bytes, byteOffset: 0 };
            });
            const out = arena.u8(8 * 4096 + 2 * COUNT * width, COUNT * width);
            const rounding: Rounding = sr ? { mode: "sr", rng: new SrStream(9) } : RNE;
            const [acc, scratch] = [arena.f32(0, 4096), arena.f32(4 * 4096, 4096)];
            aluReduceEncoded("add", acc, sources, COUNT, scratch, dt, out, 0, rounding, overflow);
            return [...out];
          };
          const wasm = run();
          expect(wasm).toEqual(withJs(run));
        });
      }
    }
  }
});
