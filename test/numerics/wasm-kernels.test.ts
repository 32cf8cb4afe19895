// The WebAssembly SIMD kernels (src/numerics/wasm/kernels.wat) equal the JS loops bit for bit:
// FP32 ADD / MIN / MAX (NaN canonicalised, −0 < +0), bf16 sources fused into the ALU, bf16 decode
// of every code, bf16 encode RNE and SR under every overflow policy. Each runs both ways wasm
// can: in place (views of one WasmArena) and staged (plain arrays, 64 KiB chunks); with odd
// lengths (tails not a multiple of 4 or 8), spans crossing chunk boundaries and unaligned offsets.
// The JS side is the same public function with the kernels switched off (useWasmKernels(false)).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  aluAdd,
  aluApplyEncoded,
  aluMax,
  aluMin,
  decodeToF32,
  encodeFromF32,
  OVERFLOW_POLICIES,
  type OverflowPolicy,
  RNE,
  type Rounding,
  SrStream,
  WasmArena,
} from "../../src/numerics/index.js";
import { useWasmKernels, wasmAlu, wasmDecodeBf16 } from "../../src/numerics/wasm/kernels.js";
import { Dtype } from "../../src/spec/dtype.js";
import { binaryModuleText, compileKernels } from "../../tools/wasm/build.js";
import { bf16StressBits } from "./stress-bits.js";
import { hexWords, loadVectors, mismatches, sameF32 } from "./vectors.js";

/** fn with the wasm kernels off: the JS loops every kernel is held against. */
function withJs<T>(fn: () => T): T {
  useWasmKernels(false);
  try {
    return fn();
  } finally {
    useWasmKernels(true);
  }
}

function bitsOf(a: Float32Array | Uint8Array): Uint32Array {
  return new Uint32Array(a.buffer.slice(a.byteOffset, a.byteOffset + (a.byteLength & ~3)));
}

/** The first index where two word arrays differ, described; undefined when equal. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): string | undefined {
  if (a.length !== b.length) return `lengths ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return `[${i}]: 0x${a[i]!.toString(16)} vs 0x${b[i]!.toString(16)}`;
  }
  return undefined;
}

const SPECIALS = [
  0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff,
  0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fbfffff, 0x4b800000,
  0xcb800001, 0x33800000,
];

/**
 * Operand pairs (as FP32 bits): every pair of special values (±0, subnormals, ±max, ±inf, quiet and
 * signalling NaNs with payloads), random words, and near-equal magnitudes of opposite sign
 * (cancellation); an odd total that spans several 16 Ki-element chunks.
 */
function operandBits(): { a: Uint32Array; b: Uint32Array } {
  const rng = new SrStream(31);
  const a: number[] = [];
  const b: number[] = [];
  for (const x of SPECIALS) {
    for (const y of SPECIALS) {
      a.push(x);
      b.push(y);
    }
  }
  for (let i = 0; i < 40_000; i++) {
    const x = rng.nextU32();
    a.push(x);
    b.push(i % 3 === 0 ? (x ^ 0x80000000 ^ (rng.nextU32() & 0xff)) >>> 0 : rng.nextU32());
  }
  // −0 against +0 in the tail
  a.push(0x80000000, 0x80000000, 0);
  b.push(0, 0, 0x80000000);
  return { a: Uint32Array.from(a), b: Uint32Array.from(b) };
}

const ALU = { add: aluAdd, min: aluMin, max: aluMax } as const;
const OPS = ["add", "min", "max"] as const;

it("the committed binary is kernels.wat compiled (tools/wasm/build.ts)", async () => {
  const committed = readFileSync(
    new URL("../../src/numerics/wasm/kernels-binary.ts", import.meta.url),
    "utf8",
  );
  expect(committed).toBe(binaryModuleText(await compileKernels()));
});

describe("FP32 ALU kernels = the JS loops", () => {
  const { a, b } = operandBits();
  const n = a.length;
  const expected = Object.fromEntries(
    OPS.map((op) => {
      const acc = new Float32Array(a.slice().buffer);
      withJs(() => ALU[op](acc, new Float32Array(b.slice().buffer), n));
      return [op, bitsOf(acc)];
    }),
  );

  it.each(OPS)("%s, staged (plain arrays)", (op) => {
    const acc = new Float32Array(a.slice().buffer);
    expect(wasmAlu(op, acc, 4, new Float32Array(b.slice().buffer), 0, n)).toBe(true);
    expect(firstDifference(bitsOf(acc), expected[op]!)).toBeUndefined();
  });

  it.each(OPS)("%s, in place in one arena, at offsets not 16-byte aligned", (op) => {
    const arena = new WasmArena(8 * n + 64);
    const acc = arena.f32(4, n);
    const src = arena.f32(4 * n + 12, n);
    new Uint32Array(arena.buffer, 4, n).set(a);
    new Uint32Array(arena.buffer, 4 * n + 12, n).set(b);
    expect(wasmAlu(op, acc, 4, src, 0, n)).toBe(true);
    expect(firstDifference(bitsOf(acc), expected[op]!)).toBeUndefined();
  });

  it.each(OPS)("%s through the public function, every length 0..300 (tails) from odd offsets", (op) => {
    for (let len = 0; len <= 300; len += 1 + (len >> 5)) {
      const fast = new Float32Array(a.slice(5, 5 + len).buffer);
      const slow = new Float32Array(a.slice(5, 5 + len).buffer);
      const src = new Float32Array(b.buffer, 4 * 7, len);
      ALU[op](fast, src, len);
      withJs(() => ALU[op](slow, src, len));
      expect(firstDifference(bitsOf(fast), bitsOf(slow))).toBeUndefined();
    }
  });

  it("spans that partly overlap run the JS loop (element order matters there)", () => {
    const arena = new WasmArena(4 * 1000);
    const acc = arena.f32(0, 600);
    acc.set(Float32Array.from({ length: 600 }, (_, i) => i));
    expect(wasmAlu("add", acc.subarray(1, 501), 4, acc.subarray(0, 500), 0, 500)).toBe(false);
    const js = new Float32Array(Float32Array.from({ length: 600 }, (_, i) => i));
    withJs(() => aluAdd(js.subarray(1, 501), js.subarray(0, 500), 500));
    aluAdd(acc.subarray(1, 501), acc.subarray(0, 500), 500);
    expect(firstDifference(bitsOf(acc), bitsOf(js))).toBeUndefined();
  });
});

describe("aluApplyEncoded (bf16 / FP32 source decoded in the kernel) = decodeToF32 + ALU", () => {
  const { a } = operandBits();
  const rng = new SrStream(5);
  // every bf16 code once, then random codes; an odd count
  const codes = Uint16Array.from({ length: 0x10000 + 4_001 }, (_, i) =>
    i < 0x10000 ? i : rng.nextU32() >>> 16,
  );
  const n = codes.length;
  const accBits = Uint32Array.from({ length: n }, (_, i) => a[i % a.length]!);

  function reference(op: (typeof OPS)[number], dt: Dtype, bytes: Uint8Array, off: number): Uint32Array {
    const acc = new Float32Array(accBits.slice().buffer);
    withJs(() => aluApplyEncoded(op, acc, dt, bytes, off, n, new Float32Array(n)));
    return bitsOf(acc);
  }

  for (const [name, dt, width] of [
    ["bf16", Dtype.BFLOAT16, 2],
    ["fp32", Dtype.FP32, 4],
  ] as const) {
    const raw =
      width === 2
        ? new Uint8Array(codes.buffer)
        : new Uint8Array(Uint32Array.from(codes, (c, i) => (c << 16) | (i & 0xffff)).buffer);

    it.each(OPS)(`${name} %s, staged, source at an odd byte offset`, (op) => {
      const bytes = new Uint8Array(raw.length + 3);
      bytes.set(raw, 3);
      const acc = new Float32Array(accBits.slice().buffer);
      aluApplyEncoded(op, acc, dt, bytes, 3, n, new Float32Array(n));
      expect(firstDifference(bitsOf(acc), reference(op, dt, bytes, 3))).toBeUndefined();
    });

    it.each(OPS)(`${name} %s, in place in one arena`, (op) => {
      const arena = new WasmArena(4 * n + raw.length + 16);
      const acc = arena.f32(0, n);
      new Uint32Array(arena.buffer, 0, n).set(accBits);
      const bytes = arena.u8(4 * n + 1, raw.length);
      bytes.set(raw);
      expect(wasmAlu(op, acc, width, bytes, 0, n)).toBe(true);
      expect(firstDifference(bitsOf(acc), reference(op, dt, bytes, 0))).toBeUndefined();
    });
  }
});

describe("bf16 codec kernels = the JS codec", () => {
  it("decode: every bf16 code (plus a 3-code tail) in one arena", () => {
    const n = 0x10000 + 3;
    const arena = new WasmArena(6 * n + 8);
    const codes = new Uint16Array(arena.buffer, 2, n);
    codes.set(Uint16Array.from({ length: n }, (_, i) => i & 0xffff));
    const out = new Uint32Array(arena.buffer, 2 * n + 6, n);
    expect(wasmDecodeBf16(codes, out, 0, n)).toBe(true);
    const js = new Float32Array(n);
    withJs(() => decodeToF32(Dtype.BFLOAT16, new Uint8Array(codes.slice().buffer), 0, n, js));
    expect(firstDifference(out, bitsOf(js))).toBeUndefined();
  });

  const bits = bf16StressBits();
  const n = bits.length;
  const roundings: [string, () => Rounding][] = [
    ["RNE", () => RNE],
    ["SR", () => ({ mode: "sr", rng: new SrStream(77) })],
  ];

  function jsCodes(rounding: Rounding, policy: OverflowPolicy): Uint8Array {
    const out = new Uint8Array(2 * n);
    withJs(() =>
      encodeFromF32(Dtype.BFLOAT16, new Float32Array(bits.buffer), 0, n, out, 0, rounding, policy),
    );
    return out;
  }

  for (const [name, rounding] of roundings) {
    it.each(OVERFLOW_POLICIES)(
      `encode ${name}, overflow %s, staged, output at an odd byte offset`,
      (policy) => {
        const out = new Uint8Array(2 * n + 1);
        encodeFromF32(Dtype.BFLOAT16, new Float32Array(bits.buffer), 0, n, out, 1, rounding(), policy);
        expect(firstDifference(out.subarray(1), jsCodes(rounding(), policy))).toBeUndefined();
      },
    );
  }

  it.each(OVERFLOW_POLICIES)("encode RNE, overflow %s, in place in one arena", (policy) => {
    const arena = new WasmArena(6 * n + 16);
    const src = arena.f32(4, n);
    new Uint32Array(arena.buffer, 4, n).set(bits);
    const out = arena.u8(4 * n + 6, 2 * n);
    encodeFromF32(Dtype.BFLOAT16, src, 0, n, out, 0, RNE, policy);
    expect(firstDifference(out, jsCodes(RNE, policy))).toBeUndefined();
  });

  it("encode RNE in one arena matches the APFloat golden vectors (is NaN + sign for NaN)", () => {
    const file = loadVectors("encode-bf16");
    const inputs = hexWords(file, "inputs");
    const expected = file.expected as number[];
    const m = inputs.length;
    const arena = new WasmArena(6 * m);
    new Uint32Array(arena.buffer, 0, m).set(inputs);
    const out = arena.u8(4 * m, 2 * m);
    encodeFromF32(Dtype.BFLOAT16, arena.f32(0, m), 0, m, out, 0);
    const codes = new Uint16Array(out.buffer, out.byteOffset, m);
    const asF32 = (c: ArrayLike<number>) => Uint32Array.from({ length: m }, (_, i) => (c[i]! << 16) >>> 0);
    expect(mismatches(asF32(codes), asF32(expected), sameF32)).toEqual([]);
  });
});
