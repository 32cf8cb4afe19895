// Writes the text of src/numerics/wasm/gen/kernels.wat. Every kernel is one loop over four-element
// groups (two groups an iteration, then single elements for the tail) built from three choices:
// the source dtype (how a group is loaded and decoded to FP32 bits), what is combined (the ALU op
// with the accumulator, or nothing), and what is stored (FP32 bits, or codes of a narrow float /
// integer dtype). The snippets below are the only place each choice is written; the JS twins they
// are pinned to are named beside them. The two-source ADD / MIN / MAX kernels of bf16 and the
// narrow floats take one 16-byte vector of each source an iteration instead (wide.ts), falling back
// to these group snippets for a vector holding a special. tools/wasm/build.ts writes the .wat and
// compiles it; test/numerics/wasm-kernels.test.ts checks both committed files are current.

import {
  ALU_COMBINES,
  CLAMP_OPS,
  F32_KERNELS,
  hasTwoSourceSr,
  KERNEL_DTYPES,
  kernelName,
  MANY_SOURCE_COUNTS,
  MANY_SOURCE_OPS,
  TWO_SOURCE_OPS,
} from "../../src/numerics/wasm/catalog.js";
import {
  type At,
  type Combine,
  drawWords,
  get,
  type Kind,
  offset,
  type Rnd,
  rarely,
  set,
  v,
  type WordSource,
} from "./wat-snippets.js";
import { wideBlock, wideElements } from "./wide.js";
import { xoshiroStep, xoshiroWord } from "./xoshiro-wat.js";

/** Every dtype with kernels, in Dtype order (the catalogue's rows, from spec/dtype.ts). */
const KINDS: readonly Kind[] = KERNEL_DTYPES;
const F32 = F32_KERNELS;

/**
 * The group's codes as i32 lanes (sign- or zero-extended), or FP32 bits for a 4-byte dtype, or for
 * a 64-bit integer its FP32 value already (f32.convert_i64: one rounding, to nearest even).
 */
function loadCodes(k: Kind, at: At, from = "src"): string {
  const src = get(from);
  const signed = k.kind === "int" && k.signed;
  const s = signed ? "s" : "u";
  if (k.width === 8) {
    const lane = (i: number) => `(f32.convert_i64_${s} (i64.load${offset(at, 8, i)} ${src}))`;
    if (at === "one") return `(f32x4.splat ${lane(0)})`;
    return `(f32x4.replace_lane 3 (f32x4.replace_lane 2 (f32x4.replace_lane 1 (f32x4.splat ${lane(0)}) ${lane(1)}) ${lane(2)}) ${lane(3)})`;
  }
  if (k.width === 4) return at === "one" ? `(v128.load32_zero ${src})` : `(v128.load${offset(at, 4)} ${src})`;
  if (k.width === 2) {
    if (at !== "one") return `(v128.load16x4_${s}${offset(at, 2)} ${src})`;
    return `(i32x4.extend_low_i16x8_${s} (v128.load16_lane 0 ${src} ${v(0)}))`;
  }
  const bytes =
    at === "one" ? `(v128.load8_lane 0 ${src} ${v(0)})` : `(v128.load32_zero${offset(at, 1)} ${src})`;
  return `(i32x4.extend_low_i16x8_${s} (i16x8.extend_low_i8x16_${s} ${bytes}))`;
}

/**
 * Codes → FP32 bits into $x (float-decode.ts, int-decode.ts). bf16 is code << 16. A narrow float's
 * magnitude shifted so its mantissa tops FP32's is an FP32 number 2^(bias − 127) times the value
 * (subnormals land on FP32 subnormals), so one exact multiply rebiases it; an all-ones exponent
 * keeps its mantissa (NaN payload) under FP32's all-ones exponent. Integers convert rounding to
 * nearest even, as storing into a Float32Array does.
 */
function decode(k: Kind, codes: string): string {
  if (k.kind === "f32") return set("x", codes);
  if (k.kind === "bf16") return set("x", `(i32x4.shl ${codes} (i32.const 16))`);
  if (k.kind === "int") {
    if (k.width === 8) return set("x", codes);
    const convert = k.width === 4 && !k.signed ? "f32x4.convert_i32x4_u" : "f32x4.convert_i32x4_s";
    return set("x", `(${convert} ${codes})`);
  }
  const { expBits, manBits } = k as Required<Kind>;
  const bits = 8 * k.width;
  const dropped = 23 - manBits;
  const bias = (1 << (expBits - 1)) - 1;
  const signBit = 1 << (bits - 1);
  const infMag = ((1 << expBits) - 1) << (manBits + dropped);
  return [
    set("c", codes),
    set("m", `(i32x4.shl (v128.and ${get("c")} ${v(signBit - 1)}) (i32.const ${dropped}))`),
    set(
      "x",
      `(f32x4.mul ${get("m")} (v128.const f32x4 0x1p${127 - bias} 0x1p${127 - bias} 0x1p${127 - bias} 0x1p${127 - bias}))`,
    ),
    rarely(
      `(i32x4.ge_s ${get("m")} ${v(infMag)})`,
      set(
        "x",
        `(v128.bitselect (v128.or ${get("m")} ${v(0x7f800000)}) ${get("x")} (i32x4.ge_s ${get("m")} ${v(infMag)}))`,
      ),
    ),
    set(
      "x",
      `(v128.or ${get("x")} (i32x4.shl (v128.and ${get("c")} ${v(signBit)}) (i32.const ${32 - bits})))`,
    ),
  ].join("\n        ");
}

/** The low and high FP32 halves of v as two doubles each. */
const high = (x: string) => `(i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 ${x} ${x})`;
const joinHalves = (lo: string, hi: string) =>
  `(i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 ${lo} ${hi})`;

/**
 * One half (two lanes) of an FMA: $p<h> ← x·scale (exact in a double), $s<h> ← the double sum
 * x·scale + q<h> (the accumulator as doubles), and $w<h> ← lanes where the demote may round twice.
 * The sum is exact iff both s − p = q and s − q = p (Fast2Sum: with the larger operand subtracted
 * the difference is exact, so an inexact s fails one of the two); an inexact sum can round twice
 * only on a grid point no finer than FP32's midpoints (low 28 bits of the double zero): no FP32
 * midpoint lies between the exact sum and its nearest double unless that double is the midpoint.
 */
function fmaHalf(x: string, h: "l" | "h"): string {
  const [p, q, s] = [get(`p${h}`), get(`q${h}`), get(`s${h}`)];
  const exact = `(v128.and (f64x2.eq (f64x2.sub ${s} ${p}) ${q}) (f64x2.eq (f64x2.sub ${s} ${q}) ${p}))`;
  const grid = `(v128.and ${s} (v128.const i64x2 0x0fffffff 0x0fffffff))`;
  return [
    set(`p${h}`, `(f64x2.mul (f64x2.promote_low_f32x4 ${x}) ${get("scale2")})`),
    set(`s${h}`, `(f64x2.add ${p} ${q})`),
    set(`w${h}`, `(i64x2.eq (v128.or ${grid} ${exact}) (v128.const i64x2 0 0))`),
  ].join("\n        ");
}

/**
 * The double sum $s<h> made round-to-odd (the rare lanes of fmaHalf): its exact error e (TwoSum),
 * then inexact (e ≠ 0, not NaN) with an even last bit → one ulp towards the exact sum.
 */
function roundToOdd(h: "l" | "h"): string {
  const [p, q, s] = [get(`p${h}`), get(`q${h}`), get(`s${h}`)];
  const e = get("e");
  return `${set("t", `(f64x2.sub ${s} ${p})`)}
          ${set("e", `(f64x2.add (f64x2.sub ${p} (f64x2.sub ${s} ${get("t")})) (f64x2.sub ${q} ${get("t")}))`)}
          ${set(
            `s${h}`,
            `(i64x2.add ${s} (v128.and
          (v128.and (v128.or (f64x2.lt ${e} (v128.const f64x2 0 0)) (f64x2.gt ${e} (v128.const f64x2 0 0)))
            (i64x2.eq (v128.and ${s} (v128.const i64x2 1 1)) (v128.const i64x2 0 0)))
          (v128.or (v128.xor (f64x2.gt ${e} (v128.const f64x2 0 0)) (f64x2.gt ${s} (v128.const f64x2 0 0))) (v128.const i64x2 1 1))))`,
          )}`;
}

/** x·scale rounded once to FP32 (the FP32 multiply rounds the exact product), + 0: a −0 product becomes +0 as x·scale + (+0) does. */
const scaledF32 = (x: string, scale: string) => `(f32x4.add (f32x4.mul ${x} ${get(scale)}) ${v(0)})`;

/**
 * $x combined with the accumulator into $r, every NaN written as 0x7fc00000 (alu.ts MODEL "NaN
 * results"; wasm leaves a NaN result's bits open). f32x4.min / max are IEEE 754-2019 minimum /
 * maximum (NaN propagates, −0 < +0), like Math.min / Math.max. FMA is x·scale + acc with one
 * rounding: x·scale is exact in a double and the double sum correct unless it sits exactly on an
 * FP32 midpoint while inexact; those rare lanes are made round-to-odd from the TwoSum error, and
 * round-to-odd at 53 bits then to nearest at 24 is the correctly rounded FMA (53 ≥ 24 + 2);
 * fma.ts gets the same bits another way. The rare branch is on "inexact and on a midpoint", which
 * neither ordinary data (inexact, off the grid) nor exact sums (on the grid, exact) take.
 */
function combine(c: Combine, at: At, acc: Kernel["acc"]): string {
  if (c === "pass") return set("r", get("x"));
  const a =
    acc === "first"
      ? get("b")
      : acc === "constant"
        ? get("kv")
        : at === "one"
          ? `(v128.load32_zero ${get("acc")})`
          : `(v128.load${offset(at, 4)} ${get("acc")})`;
  let r: string;
  if (c === "load") r = set("r", get("x"));
  else if (c === "scale") r = set("r", scaledF32(get("x"), "scale32"));
  else if (c !== "fma") r = set("r", `(f32x4.${c} ${a} ${get("x")})`);
  else {
    r = [
      ...(acc === "first" ? [] : [set("a", a), ...promoted("a")]),
      fmaHalf(get("x"), "l"),
      fmaHalf(high(get("x")), "h"),
      rarely(`(v128.or ${get("wl")} ${get("wh")})`, `${roundToOdd("l")}\n          ${roundToOdd("h")}`),
      set(
        "r",
        joinHalves(`(f32x4.demote_f64x2_zero ${get("sl")})`, `(f32x4.demote_f64x2_zero ${get("sh")})`),
      ),
    ].join("\n        ");
  }
  const nan = `(f32x4.ne ${get("r")} ${get("r")})`;
  return `${r}
        ${rarely(nan, set("r", `(v128.bitselect ${v(0x7fc00000)} ${get("r")} ${nan})`))}`;
}

/**
 * FP32 bits $r → the codes of a narrow float, rounded to nearest even or stochastically, into $c
 * (float-encode.ts encodeBf16 / encodeGeneric, the MODEL documented there). bf16 adds the increment
 * to the magnitude (FP32 subnormals included). Other formats: a normal result is rebiased and
 * rounded by add-and-shift; one below the format's smallest normal is scaled exactly so that its
 * code is the integer part: rounded with f32x4.nearest (ties to even), or truncated at the random
 * window and the random bits added; finite overflow → $ov, ±inf → $iv, NaN → the quiet NaN.
 */
function encodeFloat(k: Kind, rnd: Rnd): string {
  const u = get("r");
  const a = `(v128.and ${u} ${v(0x7fffffff)})`;
  if (k.kind === "bf16") {
    const inc = rnd
      ? `(i32x4.shr_u ${get(rnd)} (i32.const 16))`
      : `(i32x4.add ${v(0x7fff)} (v128.and (i32x4.shr_u ${u} (i32.const 16)) ${v(1)}))`;
    return [
      set("m", a),
      set("c", `(i32x4.shr_u (i32x4.add ${get("m")} ${inc}) (i32.const 16))`),
      rarely(
        `(i32x4.gt_s ${get("c")} ${v(0x7f7f)})`,
        set(
          "c",
          `(v128.bitselect
            (v128.bitselect ${get("ov")}
              (v128.bitselect ${get("iv")} ${v(0x7fc0)} (i32x4.eq ${get("m")} ${v(0x7f800000)}))
              (i32x4.lt_s ${get("m")} ${v(0x7f800000)}))
            ${get("c")} (i32x4.gt_s ${get("c")} ${v(0x7f7f)}))`,
        ),
      ),
      set("c", `(v128.or ${get("c")} (v128.and (i32x4.shr_u ${u} (i32.const 16)) ${v(0x8000)}))`),
    ].join("\n        ");
  }
  const { expBits, manBits } = k as Required<Kind>;
  const bits = 8 * k.width;
  const dropped = 23 - manBits;
  const bias = (1 << (expBits - 1)) - 1;
  const infCode = ((1 << expBits) - 1) << manBits;
  const minNormal = (128 - bias) << 23;
  const rebias = (127 - bias) << 23;
  const random = rnd ? `(i32x4.shr_u ${get(rnd)} (i32.const ${32 - dropped}))` : "";
  const inc = rnd
    ? random
    : `(i32x4.add ${v((1 << (dropped - 1)) - 1)} (v128.and (i32x4.shr_u ${get("c")} (i32.const ${dropped})) ${v(1)}))`;
  // |x| · 2^scale is the code of a value below the smallest normal (plus `dropped` more bits for SR)
  const scale = bias + manBits - 1 + (rnd ? dropped : 0);
  const scaled = `(f32x4.mul ${get("m")} (v128.const f32x4 0x1p${scale} 0x1p${scale} 0x1p${scale} 0x1p${scale}))`;
  const below = rnd
    ? `(i32x4.shr_u (i32x4.add (i32x4.trunc_sat_f32x4_u (f32x4.floor ${scaled})) ${random}) (i32.const ${dropped}))`
    : `(i32x4.trunc_sat_f32x4_u (f32x4.nearest ${scaled}))`;
  return [
    set("m", a),
    set("c", `(i32x4.sub ${get("m")} ${v(rebias)})`),
    set("c", `(i32x4.shr_u (i32x4.add ${get("c")} ${inc}) (i32.const ${dropped}))`),
    rarely(
      `(v128.or (i32x4.ge_s ${get("c")} ${v(infCode)}) (i32x4.lt_s ${get("m")} ${v(minNormal)}))`,
      [
        set("c", `(v128.bitselect ${get("ov")} ${get("c")} (i32x4.ge_s ${get("c")} ${v(infCode)}))`),
        set(
          "c",
          `(v128.bitselect
          ${below}
          (v128.bitselect ${get("c")}
            (v128.bitselect ${get("iv")} ${v(infCode | (1 << (manBits - 1)))} (i32x4.eq ${get("m")} ${v(0x7f800000)}))
            (i32x4.lt_s ${get("m")} ${v(0x7f800000)}))
          (i32x4.lt_s ${get("m")} ${v(minNormal)}))`,
        ),
      ].join("\n          "),
    ),
    set("c", `(v128.or ${get("c")} (i32x4.shl (i32x4.shr_u ${u} (i32.const 31)) (i32.const ${bits - 1})))`),
  ].join("\n        ");
}

/**
 * FP32 bits $r → integer codes in $c (int-encode.ts MODEL): round to nearest even, then saturate
 * (trunc_sat saturates to 32 bits and maps NaN to 0; the narrowing stores saturate further). The
 * 64-bit integers convert lane by lane in store().
 */
function encodeInt(k: Kind): string {
  if (k.width === 8) return "";
  const trunc = k.width === 4 && !k.signed ? "i32x4.trunc_sat_f32x4_u" : "i32x4.trunc_sat_f32x4_s";
  return set("c", `(${trunc} (f32x4.nearest ${get("r")}))`);
}

/**
 * Store $c (codes) or $r (FP32 bits) for the group; 8- and 16-bit codes narrow with saturation;
 * a 64-bit integer lane is rounded (f32.nearest) and converted with i64.trunc_sat (NaN → 0,
 * saturating, as int-encode.ts encodeInt64).
 */
function store(k: Kind, at: At): string {
  const out = get("out");
  if (k.width === 8) {
    const s = k.signed ? "s" : "u";
    const lanes = at === "one" ? [0] : [0, 1, 2, 3];
    return lanes
      .map(
        (i) =>
          `(i64.store${offset(at, 8, i)} ${out} (i64.trunc_sat_f32_${s} (f32.nearest (f32x4.extract_lane ${i} ${get("r")}))))`,
      )
      .join("\n        ");
  }
  if (k.width === 4) {
    const value = k.kind === "f32" ? get("r") : get("c");
    return at === "one"
      ? `(v128.store32_lane 0 ${out} ${value})`
      : `(v128.store${offset(at, 4)} ${out} ${value})`;
  }
  const s32 = k.kind === "int" && k.signed ? "s" : k.width === 1 && k.kind === "int" ? "s" : "u";
  const n16 = `(i16x8.narrow_i32x4_${s32} ${get("c")} ${get("c")})`;
  if (k.width === 2) {
    return at === "one"
      ? `(v128.store16_lane 0 ${out} ${n16})`
      : `(v128.store64_lane${offset(at, 2)} 0 ${out} ${n16})`;
  }
  const n8 = `(i8x16.narrow_i16x8_${k.kind === "int" && k.signed ? "s" : "u"} ${n16} ${n16})`;
  return at === "one"
    ? `(v128.store8_lane 0 ${out} ${n8})`
    : `(v128.store32_lane${offset(at, 1)} 0 ${out} ${n8})`;
}

export interface Kernel {
  readonly name: string;
  readonly src: Kind;
  readonly combine: Combine;
  /**
   * Where the accumulator operand comes from: FP32 words at $acc ("memory"), a first source of
   * this dtype at $acc decoded like $src ("first": the two-source kernels; for FMA scaled into
   * the +0 start by $scale0 first), or the broadcast $constant ("constant": the clamp kernels).
   */
  readonly acc: "memory" | "first" | "constant" | "none";
  /** The stored dtype (FP32 for the ALU kernels) and, for a narrow float, stochastic rounding. */
  readonly out: Kind;
  readonly sr: WordSource;
  readonly doc: string;
  /**
   * Sources between the first and $src, at $m1, $m2 … (the three- and four-source kernels: 1, 2), each combined
   * into the first in order. No NaN is made canonical between them: a NaN stays NaN through ADD
   * (and MIN / MAX), and the result's NaN is made canonical, as the steps' last one is.
   */
  readonly middle?: number;
}

/** One group of four (or the one tail element) through decode, combine, round and store. */
export function group(k: Kernel, at: At, drawn?: string): string {
  const rnd: Rnd = k.sr ? (drawn ?? "rnd") : undefined;
  const encoded =
    k.out.kind === "f32" ? "" : k.out.kind === "int" ? encodeInt(k.out) : encodeFloat(k.out, rnd);
  const first =
    k.acc !== "first"
      ? ""
      : k.combine === "fma"
        ? `${decode(k.src, loadCodes(k.src, at, "acc"))}\n        ${firstScaled()}`
        : `${decode(k.src, loadCodes(k.src, at, "acc"))}\n        ${set("b", get("x"))}`;
  const middle = middleNames(k).map(
    (m) =>
      `${decode(k.src, loadCodes(k.src, at, m))}\n        ${set("b", `(f32x4.${k.combine} ${get("b")} ${get("x")})`)}`,
  );
  return [
    first,
    ...middle,
    decode(k.src, loadCodes(k.src, at)),
    combine(k.combine, at, k.acc),
    k.sr && drawn === undefined ? drawWords(k.sr, at, "rnd") : "",
    encoded,
    store(k.out, at),
  ]
    .filter((s) => s !== "")
    .join("\n        ");
}

/** The locals holding the middle sources' addresses ({@link Kernel.middle}): m1, m2 … */
const middleNames = (k: Kernel) => Array.from({ length: k.middle ?? 0 }, (_, i) => `m${i + 1}`);

/** The FP32 lanes of local `x` as doubles in $ql (lanes 0, 1) and $qh (lanes 2, 3). */
const promoted = (x: string) => [
  set("ql", `(f64x2.promote_low_f32x4 ${get(x)})`),
  set("qh", `(f64x2.promote_low_f32x4 ${high(get(x))})`),
];

/**
 * The first source of a two-source FMA, $x, scaled into the +0 start (its one rounding) and held
 * as doubles in $ql / $qh. Its NaN needs no canonical bits: it makes the result NaN, which is made
 * canonical.
 */
function firstScaled(): string {
  return [set("a", scaledF32(get("x"), "scale032")), ...promoted("a")].join("\n        ");
}

/** Whether `k` runs as wide blocks (wide.ts): a two-source ADD / MIN / MAX of bf16 or a narrow float. */
function isWide(k: Kernel): boolean {
  if (k.middle !== undefined) return false;
  return k.acc === "first" && k.combine !== "fma" && (k.src.kind === "bf16" || k.src.kind === "narrow");
}

function kernel(k: Kernel): string {
  const acc = k.acc === "memory" || k.acc === "first";
  const codes = k.out.kind === "narrow" || k.out.kind === "bf16";
  const fma = k.combine === "fma" || k.combine === "scale";
  const wide = isWide(k);
  const per = wide ? wideElements(k.src) : 8;
  const bump = (elements: number) =>
    [
      acc
        ? `(local.set $acc (i32.add (local.get $acc) (i32.const ${(k.acc === "first" ? k.src.width : 4) * elements})))`
        : "",
      ...middleNames(k).map(
        (m) => `(local.set $${m} (i32.add (local.get $${m}) (i32.const ${k.src.width * elements})))`,
      ),
      `(local.set $src (i32.add (local.get $src) (i32.const ${k.src.width * elements})))`,
      `(local.set $out (i32.add (local.get $out) (i32.const ${k.out.width * elements})))`,
      k.sr === "words" ? `(local.set $words (i32.add (local.get $words) (i32.const ${4 * elements})))` : "",
    ]
      .filter((p) => p !== "")
      .join("\n        ");
  const params = [
    acc ? "(param $acc i32)" : "",
    ...middleNames(k).map((m) => `(param $${m} i32)`),
    "(param $src i32) (param $out i32) (param $n i32)",
    k.acc === "first" && k.combine === "fma" ? "(param $scale0 f64)" : "",
    fma ? "(param $scale f64)" : "",
    k.acc === "constant" ? "(param $constant f32)" : "",
    codes ? "(param $overflow i32) (param $inf i32)" : "",
    k.sr === "words" ? "(param $words i32)" : "",
  ]
    .filter((p) => p !== "")
    .join(" ");
  const locals = [
    "(local $vn i32) (local $x v128) (local $r v128) (local $c v128) (local $m v128) (local $b v128)",
    fma
      ? "(local $a v128) (local $t v128) (local $e v128) (local $pl v128) (local $ph v128) (local $ql v128) (local $qh v128) (local $sl v128) (local $sh v128) (local $wl v128) (local $wh v128) (local $scale2 v128) (local $scale32 v128) (local $scale032 v128)"
      : "",
    k.acc === "constant" ? "(local $kv v128)" : "",
    codes ? "(local $ov v128) (local $iv v128)" : "",
    k.sr ? "(local $rnd v128)" : "",
    k.sr === "stream"
      ? "(local $rs v128) (local $t0 i32) (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32)"
      : "",
    wide
      ? "(local $va v128) (local $vb v128) (local $u0 v128) (local $u1 v128) (local $u2 v128) (local $u3 v128) (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $h0 v128) (local $h1 v128) (local $spec v128)"
      : "",
    wide && k.sr ? "(local $rnd0 v128) (local $rnd1 v128) (local $rnd2 v128) (local $rnd3 v128)" : "",
  ]
    .filter((p) => p !== "")
    .join("\n    ");
  const setup = [
    fma
      ? "(local.set $scale2 (f64x2.splat (local.get $scale))) (local.set $scale32 (f32x4.splat (f32.demote_f64 (local.get $scale))))"
      : "",
    k.acc === "first" && k.combine === "fma"
      ? "(local.set $scale032 (f32x4.splat (f32.demote_f64 (local.get $scale0))))"
      : "",
    k.acc === "constant" ? "(local.set $kv (f32x4.splat (local.get $constant)))" : "",
    codes
      ? "(local.set $ov (i32x4.splat (local.get $overflow))) (local.set $iv (i32x4.splat (local.get $inf)))"
      : "",
    k.sr === "stream"
      ? "(local.set $s0 (global.get $sr0)) (local.set $s1 (global.get $sr1)) (local.set $s2 (global.get $sr2)) (local.set $s3 (global.get $sr3))"
      : "",
  ]
    .filter((p) => p !== "")
    .join("\n    ");
  const finish =
    k.sr === "stream"
      ? "\n    (global.set $sr0 (local.get $s0)) (global.set $sr1 (local.get $s1)) (global.set $sr2 (local.get $s2)) (global.set $sr3 (local.get $s3))"
      : "";
  const body = wide ? wideBlock(k, (g, rnd) => group(k, g, rnd)) : `${group(k, 0)}\n        ${group(k, 1)}`;
  return `
  ;; ${k.doc}
  (func (export "${k.name}") ${params}
    ${locals}
    ${setup}
    (local.set $vn (i32.shr_u (local.get $n) (i32.const ${Math.log2(per)})))
    (local.set $n (i32.and (local.get $n) (i32.const ${per - 1})))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.eqz (local.get $vn)))
        ${body}
        ${bump(per)}
        (local.set $vn (i32.sub (local.get $vn) (i32.const 1)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.eqz (local.get $n)))
        ${group(k, "one")}
        ${bump(1)}
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $t)))${finish})
`;
}

const HEADER = `;; GENERATED by tools/wasm/kernels-wat.ts — do not edit; \`npx tsx tools/wasm/build.ts\` rewrites
;; this file and src/numerics/wasm/gen/kernels-binary.ts (test/numerics/wasm-kernels.test.ts checks both).
;;
;; sdmakit numerics: WebAssembly SIMD (128-bit) kernels for every dtype and ALU op.
;; Each is pinned bit for bit to its JS twin in src/numerics (test/numerics/wasm-kernels.test.ts)
;; and to the APFloat golden vectors (test/vectors):
;; - dec_<dt>(src, out, n): codes → FP32 bits, exact, NaN payloads kept (codec.ts decodeToF32).
;; - load_<dt>(src, out, n): the same with every NaN as 0x7fc00000 (alu.ts aluLoadEncoded).
;; - add / min / max_<dt>(acc, src, out, n): out = op(acc, decoded src), NaN canonical (alu.ts).
;; - fma_<dt>(acc, src, out, n, scale): out = src·scale + acc rounded once (fma.ts), NaN canonical;
;;   scale_<dt>(src, out, n, scale): the same with acc = +0 (an FMA reduce's first source).
;; - add2 / min2 / max2_<dt>[_sr](a, src, out, n, overflow, inf): out = the <dt> code of op(a, src),
;;   both sources of <dt>, no accumulator (a two-source reduce in one pass);
;;   fma2_<dt>[_sr](a, src, out, n, scale0, scale, overflow, inf): the same for src·scale + (a·scale0
;;   + 0), each rounded once to FP32 (an FMA reduce of two sources);
;;   <op>2_<dt>_srw(..., words): the _sr kernel with random word i read at words + 4i, not stepped.
;; - add4_<dt>(a, m1, m2, src, out, n, overflow, inf): out = the <dt> RNE code of
;;   op(op(op(a, m1), m2), src), all four sources of <dt>, FP32 in between (a four-source reduce);
;;   add3_<dt>(a, m1, src, out, n, overflow, inf) likewise over three.
;; - sr_words(lanes, out, len): 4·len words of the SR stream in four SIMD lanes, lane k (its state at
;;   lanes) drawing words k·len .. k·len + len − 1 into out (numerics/wasm/sr-lanes.ts).
;; - minc / maxc_fp32(src, out, n, constant): out = minimum / maximum(src, constant), NaN canonical
;;   (alu.ts aluClamp: the MIN / MAX constant).
;; - enc_<dt>(src, out, n[, overflow, inf]): FP32 bits → codes, RNE (float-encode.ts, int-encode.ts);
;;   enc_<dt>_sr: stochastic rounding, drawing one xoshiro128** word per element from the stream in
;;   globals sr0..sr3 (sr-stream.ts), which the caller loads before and reads back after.
;;   $overflow / $inf: the magnitude codes the overflow policy gives a finite overflow / an inf.
;; Addresses are byte offsets into this module's memory (any alignment); counts are elements; $out
;; may equal $acc. Two four-element groups an iteration (the wide two-source kernels: one 16-byte
;; vector of each source), then one element at a time.
(module
  (memory (export "memory") 1)
  (global $sr0 (export "sr0") (mut i32) (i32.const 0))
  (global $sr1 (export "sr1") (mut i32) (i32.const 0))
  (global $sr2 (export "sr2") (mut i32) (i32.const 0))
  (global $sr3 (export "sr3") (mut i32) (i32.const 0))
`;

/** Every kernel, in export order. */
export function kernelList(): Kernel[] {
  const list: Kernel[] = [];
  const alu = (name: string, src: Kind, combine: Combine, acc: Kernel["acc"], doc: string) =>
    list.push({ name, src, combine, acc, out: F32, sr: false, doc });
  for (const src of KINDS) {
    if (src.kind !== "f32")
      alu(kernelName.dec(src), src, "pass", "none", `out[i] = ${src.name}[i] as FP32 bits`);
    for (const c of ALU_COMBINES) {
      const acc = c === "load" || c === "scale" ? "none" : "memory";
      alu(kernelName.combine(c, src), src, c, acc, `out[i] = ${c}(acc[i], ${src.name}[i])`);
    }
  }
  for (const c of CLAMP_OPS) alu(kernelName.clamp(c), F32, c, "constant", `out[i] = ${c}(src[i], constant)`);
  for (const src of KINDS) {
    for (const c of TWO_SOURCE_OPS) {
      const two = { src, acc: "first" as const, combine: c, out: src };
      list.push({
        ...two,
        name: kernelName.two(c, src, "rne"),
        sr: false as const,
        doc: `out[i] = ${src.name} RNE code of ${c}(first[i], src[i])`,
      });
      if (hasTwoSourceSr(src)) {
        list.push({
          ...two,
          name: kernelName.two(c, src, "sr"),
          sr: "stream",
          doc: `out[i] = ${src.name} SR code of ${c}(first[i], src[i])`,
        });
        list.push({
          ...two,
          name: kernelName.two(c, src, "srw"),
          sr: "words",
          doc: `out[i] = ${src.name} SR code of ${c}(first[i], src[i]), random word i at words[i]`,
        });
      }
    }
  }
  for (const src of KINDS) {
    for (const c of MANY_SOURCE_OPS) {
      for (const n of MANY_SOURCE_COUNTS) {
        list.push({
          src,
          acc: "first",
          combine: c,
          out: src,
          sr: false,
          middle: n - 2,
          name: kernelName.many(c, src, n),
          doc: `out[i] = ${src.name} RNE code of ${c} over ${n} sources, in order`,
        });
      }
    }
  }
  for (const out of KINDS) {
    if (out.kind === "f32") continue;
    const enc = { src: F32, combine: "pass" as const, acc: "none" as const, out };
    list.push({
      ...enc,
      name: kernelName.enc(out, false),
      sr: false,
      doc: `out[i] = ${out.name} RNE code of src[i]`,
    });
    if (out.kind !== "int") {
      list.push({
        ...enc,
        name: kernelName.enc(out, true),
        sr: "stream",
        doc: `out[i] = ${out.name} SR code of src[i]`,
      });
    }
  }
  return list;
}

/** 32-bit lanes of `x` (0–3) and `y` (4–7) picked in `lanes` order. */
const shuffle32 = (x: string, y: string, lanes: readonly number[]) =>
  `(i8x16.shuffle ${lanes.flatMap((l) => [0, 1, 2, 3].map((b) => 4 * l + b)).join(" ")} ${x} ${y})`;

/**
 * sr_words: the stream's next 4 · len words in four SIMD lanes, each lane a stream of its own (the
 * caller jumps lane k k · len words ahead: sr-jump.ts), xoshiro128** stepped as sr-stream.ts does.
 * Four steps make a 4 × 4 block of words, transposed so that each lane stores its four with one
 * store; lane k's j-th word lands at out + 4 · (k · len + j), so out holds the words in order.
 */
function srWordsFunction(): string {
  const s = (i: number) => get(`s${i}`);
  const word = (w: string) => `${xoshiroWord(true, s(1), w)}
        ${xoshiroStep(true, "t")}`;
  const at = (k: number) => (k === 0 ? get("p") : `(i32.add ${get("p")} ${get(`k${k}`)})`);
  const lanes = [0, 1, 2, 3];
  // Lanes k and k + 1 of the four steps' words $w0..$w3 (a 4 × 4 transpose's half): each lane's
  // four words stored at its cursor.
  const transposed = (k: number) => `${set("lo", shuffle32(get("w0"), get("w1"), [k, k + 4, k + 1, k + 5]))}
        ${set("hi", shuffle32(get("w2"), get("w3"), [k, k + 4, k + 1, k + 5]))}
        (v128.store ${at(k)} ${shuffle32(get("lo"), get("hi"), [0, 1, 4, 5])})
        (v128.store ${at(k + 1)} ${shuffle32(get("lo"), get("hi"), [2, 3, 6, 7])})`;
  return `
  ;; sr_words(lanes, out, len): 4 * len words of the SR stream in order at out, lane k (its state at
  ;; lanes: word i of lane k at 16 * i + 4 * k) drawing words k * len .. k * len + len - 1; the
  ;; states are stored back. len a multiple of 4.
  (func (export "${kernelName.srWords}") (param $lanes i32) (param $out i32) (param $len i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $t v128)
    (local $w0 v128) (local $w1 v128) (local $w2 v128) (local $w3 v128) (local $lo v128) (local $hi v128)
    (local $p i32) (local $end i32) (local $k1 i32) (local $k2 i32) (local $k3 i32)
    ${lanes.map((i) => set(`s${i}`, `(v128.load offset=${16 * i} ${get("lanes")})`)).join("\n    ")}
    (local.set $k1 (i32.shl (local.get $len) (i32.const 2)))
    (local.set $k2 (i32.shl (local.get $k1) (i32.const 1)))
    (local.set $k3 (i32.add (local.get $k2) (local.get $k1)))
    (local.set $p (local.get $out))
    (local.set $end (i32.add (local.get $out) (local.get $k1)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ${lanes.map((j) => word(`w${j}`)).join("\n        ")}
        ${transposed(0)}
        ${transposed(2)}
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    ${lanes.map((i) => `(v128.store offset=${16 * i} ${get("lanes")} ${s(i)})`).join("\n    ")})
`;
}

/** The full text of kernels.wat. */
export function kernelsWat(): string {
  return `${HEADER}${kernelList().map(kernel).join("")}${srWordsFunction()})\n`;
}
