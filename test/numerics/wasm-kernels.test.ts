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
  aluApplyEncodedThenEncode,
  aluIdentity,
  aluLoadEncoded,
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
import { useWasmKernels, wasmAlu, wasmAluTo, wasmDecodeBf16 } from "../../src/numerics/wasm/kernels.js";
import { Dtype, dtypeBytes } from "../../src/spec/dtype.js";
import { binaryModuleText, compileKernels } from "../../tools/wasm/build.js";
import { kernelsWat } from "../../tools/wasm/kernels-wat.js";
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

it("the committed kernels.wat is its generator's output (tools/wasm/kernels-wat.ts)", () => {
  const committed = readFileSync(new URL("../../src/numerics/wasm/kernels.wat", import.meta.url), "utf8");
  expect(committed).toBe(kernelsWat());
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

/**
 * Sources for the first / last reduce step: every bf16 code once then random codes (as bf16), or
 * the specials × specials and random FP32 words of operandBits (as FP32); accumulators from
 * operandBits and, for a bf16 output, the bf16 rounding stress set against a +0 / −0 source (so
 * every tie, tie ± 1 and overflow edge reaches the fused encoder).
 */
function reduceCases(): { name: string; dt: Dtype; width: 2 | 4; raw: Uint8Array; acc: Uint32Array }[] {
  const { a, b } = operandBits();
  const rng = new SrStream(9);
  const codes = Uint16Array.from({ length: 0x10000 + 4_003 }, (_, i) =>
    i < 0x10000 ? i : rng.nextU32() >>> 16,
  );
  const stress = bf16StressBits();
  return [
    {
      name: "bf16",
      dt: Dtype.BFLOAT16,
      width: 2,
      raw: new Uint8Array(codes.buffer),
      acc: Uint32Array.from(codes, (_, i) => a[i % a.length]!),
    },
    { name: "fp32", dt: Dtype.FP32, width: 4, raw: new Uint8Array(b.slice().buffer), acc: a.slice() },
    {
      name: "bf16 ±0 under the stress set",
      dt: Dtype.BFLOAT16,
      width: 2,
      raw: new Uint8Array(Uint16Array.from(stress, (_, i) => (i % 5 === 0 ? 0x8000 : 0)).buffer),
      acc: stress,
    },
  ];
}

describe("aluLoadEncoded = identity fill + aluApplyEncoded (JS), for ADD, MIN and MAX", () => {
  const cases = reduceCases();

  function reference(
    op: (typeof OPS)[number],
    dt: Dtype,
    bytes: Uint8Array,
    off: number,
    n: number,
  ): Uint32Array {
    const acc = new Float32Array(n).fill(aluIdentity(op));
    withJs(() => aluApplyEncoded(op, acc, dt, bytes, off, n, new Float32Array(n)));
    return bitsOf(acc);
  }

  for (const { name, dt, raw } of cases) {
    const n = raw.length / (dt === Dtype.FP32 ? 4 : 2);
    it.each(OPS)(`${name} %s: staged, in place in an arena, and the JS loop`, (op) => {
      const expected = reference(op, dt, raw, 0, n);
      const staged = new Float32Array(n);
      const bytes = new Uint8Array(raw.length + 3);
      bytes.set(raw, 3);
      aluLoadEncoded(staged, dt, bytes, 3, n);
      expect(firstDifference(bitsOf(staged), expected)).toBeUndefined();

      const arena = new WasmArena(4 * n + raw.length + 16);
      const acc = arena.f32(4, n);
      const inArena = arena.u8(4 * n + 5, raw.length);
      inArena.set(raw);
      expect(wasmAlu("load", acc, dt === Dtype.FP32 ? 4 : 2, inArena, 0, n)).toBe(true);
      expect(firstDifference(bitsOf(acc), expected)).toBeUndefined();

      const js = new Float32Array(n);
      withJs(() => aluLoadEncoded(js, dt, raw, 0, n));
      expect(firstDifference(bitsOf(js), expected)).toBeUndefined();
    });
  }

  it.each(OPS)("%s, every length 0..300 (tails) at odd offsets, staged and in an arena", (op) => {
    const { raw, dt } = cases[0]!;
    const arena = new WasmArena(4096);
    for (let len = 0; len <= 300; len += 1 + (len >> 5)) {
      const expected = reference(op, dt, raw, 6, len);
      const plain = new Float32Array(len);
      aluLoadEncoded(plain, dt, raw.subarray(1), 5, len);
      expect(firstDifference(bitsOf(plain), expected)).toBeUndefined();
      const acc = arena.f32(12, len);
      const bytes = arena.u8(2000 + (len & 7), 2 * len + 6);
      bytes.set(raw.subarray(0, 2 * len + 6));
      aluLoadEncoded(acc, dt, bytes, 6, len);
      expect(firstDifference(bitsOf(acc), expected)).toBeUndefined();
    }
  });

  it("a bf16 source under its own accumulator bytes is not loaded in place (it would be overwritten)", () => {
    const arena = new WasmArena(4096);
    expect(wasmAlu("load", arena.f32(0, 300), 2, arena.u8(0, 600), 0, 300)).toBe(false);
    expect(wasmAlu("add", arena.f32(0, 300), 2, arena.u8(0, 600), 0, 300)).toBe(false);
  });
});

describe("aluApplyEncodedThenEncode = aluApplyEncoded + encodeFromF32 (JS)", () => {
  const cases = reduceCases();
  const outputs = [
    ["fp32", Dtype.FP32, "ieee"],
    ...OVERFLOW_POLICIES.map((p) => ["bf16 RNE", Dtype.BFLOAT16, p] as const),
  ] as const;

  function reference(
    op: (typeof OPS)[number],
    c: (typeof cases)[number],
    outDt: Dtype,
    policy: OverflowPolicy,
    n: number,
    rounding: Rounding = RNE,
  ): Uint8Array {
    const acc = new Float32Array(c.acc.slice(0, n).buffer);
    const out = new Uint8Array(n * dtypeBytes(outDt));
    withJs(() => {
      aluApplyEncoded(op, acc, c.dt, c.raw, 0, n, new Float32Array(n));
      encodeFromF32(outDt, acc, 0, n, out, 0, rounding, policy);
    });
    return out;
  }

  for (const c of cases) {
    const n = Math.min(c.acc.length, c.raw.length / c.width);
    for (const [outName, outDt, policy] of outputs) {
      it.each(OPS)(`${c.name} %s → ${outName} (${policy}): fused in an arena, unaligned; staged`, (op) => {
        const expected = reference(op, c, outDt, policy, n);
        const outBytes = expected.length;
        const arena = new WasmArena(4 * n + c.raw.length + outBytes + 64);
        const acc = arena.f32(4, n);
        new Uint32Array(arena.buffer, 4, n).set(c.acc.subarray(0, n));
        const bytes = arena.u8(4 * n + 9, c.raw.length);
        bytes.set(c.raw);
        const out = arena.u8(4 * n + c.raw.length + 16, outBytes + 3);
        const codes = outDt === Dtype.FP32 ? undefined : { finite: -1, inf: -1 };
        expect(wasmAluTo(op, acc, c.width, bytes, 0, 0, out, 3, codes)).toBe(false); // too short
        aluApplyEncodedThenEncode(
          op,
          acc,
          c.dt,
          bytes,
          0,
          n,
          new Float32Array(n),
          outDt,
          out,
          3,
          RNE,
          policy,
        );
        expect(firstDifference(out.subarray(3), expected)).toBeUndefined();
        expect(firstDifference(bitsOf(acc), c.acc.subarray(0, n))).toBeUndefined(); // fused: acc only read

        const plainAcc = new Float32Array(c.acc.slice(0, n).buffer);
        const plainOut = new Uint8Array(outBytes + 1);
        aluApplyEncodedThenEncode(
          op,
          plainAcc,
          c.dt,
          c.raw,
          0,
          n,
          new Float32Array(n),
          outDt,
          plainOut,
          1,
          RNE,
          policy,
        );
        expect(firstDifference(plainOut.subarray(1), expected)).toBeUndefined();
      });
    }
  }

  it.each(OPS)("%s, bf16 → bf16 RNE and fp32 → fp32, every length 0..300 (tails) in an arena", (op) => {
    for (const c of [cases[0]!, cases[1]!]) {
      const outDt = c.dt;
      const arena = new WasmArena(8192);
      for (let len = 0; len <= 300; len += 1 + (len >> 5)) {
        const expected = reference(op, c, outDt, "ieee", len);
        const acc = arena.f32(8, len);
        new Uint32Array(arena.buffer, 8, len).set(c.acc.subarray(0, len));
        const bytes = arena.u8(1500 + (len & 3), len * c.width);
        bytes.set(c.raw.subarray(0, len * c.width));
        const out = arena.u8(4000 + (len & 7), expected.length);
        aluApplyEncodedThenEncode(op, acc, c.dt, bytes, 0, len, new Float32Array(len), outDt, out, 0);
        expect(firstDifference(out, expected)).toBeUndefined();
      }
    }
  });

  it("SR output and other dtypes take the unfused steps (same bytes)", () => {
    const c = cases[0]!;
    const n = c.acc.length;
    const expected = reference("add", c, Dtype.BFLOAT16, "ieee", n, { mode: "sr", rng: new SrStream(3) });
    const arena = new WasmArena(8 * n + 64);
    const acc = arena.f32(0, n);
    new Uint32Array(arena.buffer, 0, n).set(c.acc);
    const bytes = arena.u8(4 * n, 2 * n);
    bytes.set(c.raw.subarray(0, 2 * n));
    const out = arena.u8(6 * n + 16, 2 * n);
    aluApplyEncodedThenEncode(
      "add",
      acc,
      Dtype.BFLOAT16,
      bytes,
      0,
      n,
      new Float32Array(n),
      Dtype.BFLOAT16,
      out,
      0,
      {
        mode: "sr",
        rng: new SrStream(3),
      },
    );
    expect(firstDifference(out, expected)).toBeUndefined();
    const fp8 = reference("max", c, Dtype.FP8_E4, "ieee", n);
    const fp8Out = new Uint8Array(n);
    acc.set(new Float32Array(c.acc.slice().buffer));
    aluApplyEncodedThenEncode(
      "max",
      acc,
      Dtype.BFLOAT16,
      bytes,
      0,
      n,
      new Float32Array(n),
      Dtype.FP8_E4,
      fp8Out,
      0,
    );
    expect(firstDifference(fp8Out, fp8)).toBeUndefined();
  });
});
