// The check module's fused exact sum of bf16 tiles (check-kernels-wat.ts puts it in the module;
// check/check-kernels.ts wasmExactSum binds it): in one pass over the tiles of up to
// SOURCES_MAX sources it does what widen_bf16 then acc_add did per source, and then demote,
// numerics' bf16 RNE encode and max_abs_err did over the result — so each source's codes are read
// once, in place, and the float64 sum never leaves the registers unless asked.
import { CHECK_KERNELS_LAYOUT as L } from "../../src/collectives/check/check-kernels.js";

const get = (name: string) => `(local.get $${name})`;
const i32x4 = (c: number) => `(v128.const i32x4 ${c} ${c} ${c} ${c})`;

/** FP32 bits of bf16 codes: lanes 0–3 (`low`) or 4–7 of the i16x8 `x`, each code << 16. */
const widen = (x: string, low: boolean) =>
  `(i32x4.shl (i32x4.extend_${low ? "low" : "high"}_i16x8_u ${x}) (i32.const 16))`;
/** Lanes 2–3 of `x` moved to 0–1. */
const high = (x: string) => `(i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 ${x} ${x})`;

/**
 * numerics float-encode.ts encodeBf16 (RNE) of the FP32 bits in $u, each lane's code in the low
 * half of the result: u + 0x7fff + (bit 16 of u), shifted down, keeps u's sign while the
 * magnitude a = u & 0x7fffffff rounds below inf (a ≤ 0x7f7f7fff); past that (rare: a branch) it
 * becomes $finite (a finite value), $inf (an infinity) or 0x7fc0 (NaN), with u's sign.
 */
function encodeBf16(): string {
  const special = `(v128.bitselect ${get("finv")}
            (v128.bitselect ${get("infv")} ${i32x4(0x7fc0)} (i32x4.eq ${get("a")} ${i32x4(0x7f800000)}))
            (i32x4.gt_s ${i32x4(0x7f800000)} ${get("a")}))`;
  return `(local.set $a (v128.and ${get("u")} ${get("cAbs")}))
        (local.set $r (i32x4.shr_u (i32x4.add (i32x4.add ${get("u")} ${get("cRnd")})
          (v128.and (i32x4.shr_u ${get("u")} (i32.const 16)) ${get("cOne")})) (i32.const 16)))
        (local.set $big (i32x4.gt_s ${get("a")} ${get("cBig")}))
        (if (v128.any_true ${get("big")})
          (then (local.set $r (v128.bitselect
            (v128.or (v128.and (i32x4.shr_u ${get("u")} (i32.const 16)) ${i32x4(0x8000)}) ${special})
            ${get("r")} ${get("big")}))))`;
}

/**
 * $w ← max($w, |x − a|) lanewise with the cheap pmax (NaN-blind), and $nan ← $nan + |x − a|: a sum
 * of magnitudes is NaN exactly when one of them is (inf + inf is inf).
 */
const worst = (x: string, a: string) =>
  `(local.set $e (f64x2.abs (f64x2.sub ${x} ${a})))
        (local.set $w (f64x2.pmax ${get("w")} ${get("e")}))
        (local.set $nan (f64x2.add ${get("nan")} ${get("e")}))`;

/** An i16x8 reduced across its lanes by `op` (max_u, min_u): the result in lane 0, as an i32. */
const across = (op: string, v: string) => {
  const halve = (x: string, bytes: string) => `(i16x8.${op} ${x} (i8x16.shuffle ${bytes} ${x} ${x}))`;
  const r1 = halve(v, "8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15");
  return `(local.set $mx ${r1})
            (local.set $mx ${halve(get("mx"), "4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7")})
            (i16x8.extract_lane_u 0 ${halve(get("mx"), "2 3 2 3 2 3 2 3 2 3 2 3 2 3 2 3")})`;
};
/** A bf16 magnitude code's exponent field, a subnormal's (and zero's) taken as 1: its scale is 2^(e − 134). */
const exponent = (code: string) =>
  `(local.set $t (i32.shr_u ${code} (i32.const 7)))
            (select ${get("t")} (i32.const 1) (i32.gt_u ${get("t")} (i32.const 1)))`;

/**
 * The FP32 sums of the pass's 16 elements (in $f0–$f3, from +0, in source order) and whether
 * they are exact. Each nonzero element is a multiple of 2^(emin − 134) below 2^(emax − 126) (e
 * its exponent field, a subnormal's 1), so every partial sum of nsrc ≤ 2^$lg of them is a whole
 * multiple of 2^(emin − 134) below 2^(emax − 126 + $lg): exactly an FP32 (24-bit significand, no
 * overflow) when emax − emin + 8 + $lg ≤ 24 and emax + $lg ≤ 254; NaN and inf (e = 255) fail the
 * second. Exact FP32 sums are the float64 sums, signed zeros too, so the result is the same.
 */
function fp32Sums(): string {
  const at = `(i32.add (i32.load ${get("k")}) ${get("j")})`;
  const unpack = (x: string, low: boolean) =>
    low
      ? `(i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 ${get("z")} ${x})`
      : `(i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 ${get("z")} ${x})`;
  const bounds = (x: string) => `(local.set $${x} (v128.and ${get(x)} ${get("c16")}))
            (local.set $mx (i16x8.max_u ${get("mx")} ${get(x)}))
            (local.set $mn (i16x8.min_u ${get("mn")} (v128.or ${get(x)} (i16x8.eq ${get(x)} ${get("z")}))))`;
  return `(local.set $f0 ${get("z")}) (local.set $f1 ${get("z")}) (local.set $f2 ${get("z")}) (local.set $f3 ${get("z")})
        (local.set $mx ${get("z")})
        (local.set $mn ${i32x4(-1)})
        (local.set $k ${get("srcs")})
        (block $fsrcs
          (loop $fsrc
            (br_if $fsrcs (i32.ge_u ${get("k")} ${get("srcsEnd")}))
            (local.set $x (v128.load ${at}))
            (local.set $y (v128.load offset=16 ${at}))
            (local.set $f0 (f32x4.add ${get("f0")} ${unpack(get("x"), true)}))
            (local.set $f1 (f32x4.add ${get("f1")} ${unpack(get("x"), false)}))
            (local.set $f2 (f32x4.add ${get("f2")} ${unpack(get("y"), true)}))
            (local.set $f3 (f32x4.add ${get("f3")} ${unpack(get("y"), false)}))
            ${bounds("x")}
            ${bounds("y")}
            (local.set $k (i32.add ${get("k")} (i32.const 4)))
            (br $fsrc)))
        (local.set $emax ${exponent(across("max_u", get("mx")))})
        (local.set $emin ${exponent(across("min_u", get("mn")))})
        (i32.and (i32.le_s (i32.sub ${get("emax")} ${get("emin")}) (i32.sub (i32.const 16) ${get("lg")}))
          (i32.le_s (i32.add ${get("emax")} ${get("lg")}) (i32.const 254)))`;
}

/** The exact FP32 sums $f0–$f3 as the float64 sums $a0–$a7 (elements 0–1, 2–3, …). */
const promoted = () =>
  ["f0", "f1", "f2", "f3"]
    .flatMap((f, i) => [
      `(local.set $a${2 * i} (f64x2.promote_low_f32x4 ${get(f)}))`,
      `(local.set $a${2 * i + 1} (f64x2.promote_low_f32x4 ${high(get(f))}))`,
    ])
    .join("\n            ");

/**
 * The pass's codes and errors from its exact FP32 sums $f0–$f3, as the float64 path's: the sums
 * are its sums, so the codes are; and a code's error is exact in FP32 (RNE's rounding error has
 * at most 16 significant bits; a finite overflow under satfinite differs by < 2^120 in steps of
 * 2^104; inf and NaN stay so), so the FP32 $w32 and $nan32 are its $w and $nan, in part.
 */
function fp32Want(): string {
  const err = (codes: string, f: string) =>
    `(local.set $e (f32x4.abs (f32x4.sub (i32x4.shl ${get(codes)} (i32.const 16)) ${get(f)})))
            (local.set $w32 (f32x4.pmax ${get("w32")} ${get("e")}))
            (local.set $nan32 (f32x4.add ${get("nan32")} ${get("e")}))`;
  return [0, 1]
    .map(
      (v) => `(local.set $u ${get(`f${2 * v}`)})
            ${encodeBf16()}
            (local.set $lo${v} ${get("r")})
            (local.set $u ${get(`f${2 * v + 1}`)})
            ${encodeBf16()}
            (local.set $hi${v} ${get("r")})
            (v128.store offset=${16 * v} (i32.add ${get("c")} ${get("j")}) (i16x8.narrow_i32x4_u ${get(`lo${v}`)} ${get(`hi${v}`)}))
            ${err(`lo${v}`, `f${2 * v}`)}
            ${err(`hi${v}`, `f${2 * v + 1}`)}`,
    )
    .join("\n            ");
}

/**
 * The body for `lanes` elements at byte offset $j of each source (16: the SIMD pass, two vectors of
 * eight; 1: an element of the tail, its code alone in lane 0 of a v128 and its sum in lane 0 of $a0).
 */
function elements(lanes: 16 | 1): string {
  const simd = lanes === 16;
  const vectors = simd ? [0, 1] : [0];
  const at = `(i32.add (i32.load ${get("k")}) ${get("j")})`;
  const load = (v: number) =>
    simd ? `(v128.load offset=${16 * v} ${at})` : `(i32x4.splat (i32.load16_u ${at}))`;
  const acc = simd ? [0, 1, 2, 3, 4, 5, 6, 7] : [0];
  // Vector v's FP32 bits in $lo<v> (its elements 0–3) and $hi<v> (4–7), free until the sums are encoded.
  const xs = vectors.flatMap((v) =>
    [get(`lo${v}`), high(get(`lo${v}`)), get(`hi${v}`), high(get(`hi${v}`))].map(
      (f) => `(f64x2.promote_low_f32x4 ${f})`,
    ),
  );
  const accAt = (k: number) => `(i32.add ${get("d")} (i32.const ${16 * k}))`;
  const start = acc
    .map((k) =>
      simd
        ? `(local.set $a${k} (if (result v128) ${get("first")} (then ${i32x4(0)}) (else (v128.load ${accAt(k)}))))`
        : `(local.set $a0 (if (result v128) ${get("first")} (then ${i32x4(0)}) (else (v128.load64_zero ${get("d")}))))`,
    )
    .join("\n        ");
  const add = (scaled: boolean) =>
    acc
      .map(
        (k) =>
          `(local.set $a${k} (f64x2.add ${get(`a${k}`)} ${scaled ? `(f64x2.mul ${xs[k]} ${get("sc")})` : xs[k]}))`,
      )
      .join("\n            ");
  const widened = vectors
    .map(
      (v) => `(local.set $x ${load(v)})
            (local.set $lo${v} ${widen(get("x"), true)})
            ${simd ? `(local.set $hi${v} ${widen(get("x"), false)})` : ""}`,
    )
    .join("\n            ");
  // Each source's elements added to the sums, in source order ($k walks the SOURCES words); with
  // `scaled`, each times $sc.
  const sources = (scaled: boolean) => `(local.set $k ${get("srcs")})
        (block $srcs${lanes}${scaled}
          (loop $src${lanes}${scaled}
            (br_if $srcs${lanes}${scaled} (i32.ge_u ${get("k")} ${get("srcsEnd")}))
            ${widened}
            ${add(scaled)}
            (local.set $k (i32.add ${get("k")} (i32.const 4)))
            (br $src${lanes}${scaled})))`;
  const store = acc
    .map((k) =>
      simd ? `(v128.store ${accAt(k)} ${get(`a${k}`)})` : `(v128.store64_lane 0 ${get("d")} ${get("a0")})`,
    )
    .join("\n            ");
  // FP32 of the sums (lanes 0–3: elements 0–3; $h: 4–7), encoded, the codes packed to i16 lanes.
  const demote = (p: string, q: string) =>
    `(i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero ${get(p)}) (f32x4.demote_f64x2_zero ${get(q)}))`;
  // The codes' values as FP32 bits (code << 16) and the error of each pair of sums.
  const errors = (codes: string, p: string, q?: string) =>
    `(local.set $u (i32x4.shl ${get(codes)} (i32.const 16)))
            ${worst(`(f64x2.promote_low_f32x4 ${get("u")})`, get(p))}
            ${q === undefined ? "" : worst(`(f64x2.promote_low_f32x4 ${high(get("u"))})`, get(q))}`;
  const a = (v: number, k: number) => `a${4 * v + k}`;
  const want = simd
    ? vectors
        .map(
          (v) => `(local.set $u ${demote(a(v, 0), a(v, 1))})
            ${encodeBf16()}
            (local.set $lo${v} ${get("r")})
            (local.set $u ${demote(a(v, 2), a(v, 3))})
            ${encodeBf16()}
            (local.set $hi${v} ${get("r")})
            (v128.store offset=${16 * v} (i32.add ${get("c")} ${get("j")}) (i16x8.narrow_i32x4_u ${get(`lo${v}`)} ${get(`hi${v}`)}))
            ${errors(`lo${v}`, a(v, 0), a(v, 1))}
            ${errors(`hi${v}`, a(v, 2), a(v, 3))}`,
        )
        .join("\n            ")
    : `(local.set $u (f32x4.demote_f64x2_zero ${get("a0")}))
            ${encodeBf16()}
            (v128.store16_lane 0 (i32.add ${get("c")} ${get("j")}) ${get("r")})
            ${errors("r", "a0")}`;
  const float64 = `${start}
        ;; x · 1 is x, bit for bit (a NaN from promote is already quiet): no multiply then
        (if ${get("unit")} (then ${sources(false)}) (else ${sources(true)}))
        (if ${get("store")}
          (then
            ${store}))
        (if ${get("want")}
          (then
            ${want}))`;
  if (!simd) return float64;
  // The SIMD pass sums in FP32 while that is exact (twice the lanes); once a pass is not, float64.
  return `(if (if (result i32) ${get("fast")} (then ${fp32Sums()}) (else (i32.const 0)))
          (then
            (global.set $fp32_passes (i32.add (global.get $fp32_passes) (i32.const 1)))
            (if ${get("store")}
              (then
                ${promoted()}
                ${store}))
            (if ${get("want")}
              (then
                ${fp32Want()})))
          (else
            (local.set $fast (i32.const 0))
            ${float64}))`;
}

/** A loop of {@link elements}(lanes) while $j is below $`until`, the cursors moved on each time. */
const pass = (lanes: 16 | 1, until: string) => `(block $done${lanes}
      (loop $next${lanes}
        (br_if $done${lanes} (i32.ge_u ${get("j")} ${get(until)}))
        ${elements(lanes)}
        (local.set $j (i32.add ${get("j")} (i32.const ${2 * lanes})))
        (local.set $d (i32.add ${get("d")} (i32.const ${8 * lanes})))
        (br $next${lanes})))`;

/**
 * exact_bf16(nsrc, n, scale, flags, finite, inf): for element i < n, the float64 sum — from +0
 * (flags & 1) or from the ACC tile — of each source's bf16 code at byte 2i, widened and times
 * `scale`, in source order (acc_add's steps exactly); the sources' addresses are the nsrc words at
 * SOURCES. flags & 2: the sums stored to ACC. flags & 4: their FP32 encoded to bf16 (RNE; a
 * finite overflow becomes `finite`, an infinity `inf`) at CODES, and the result is max |code's
 * value − sum|, +inf when any is NaN (max_abs_err); else 0.
 */
export function exactBf16Function(): string {
  return `  (func $exact_bf16 (export "exact_bf16") (param $nsrc i32) (param $n i32) (param $scale f64)
    (param $flags i32) (param $finite i32) (param $inf i32) (result f64)
    (local $first i32) (local $store i32) (local $want i32) (local $unit i32) (local $j i32) (local $end i32) (local $tail i32)
    (local $k i32) (local $d i32) (local $c i32) (local $x v128) (local $sc v128) (local $finv v128) (local $infv v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a v128)
    (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128) (local $srcs i32) (local $srcsEnd i32)
    (local $lo0 v128) (local $hi0 v128) (local $lo1 v128) (local $hi1 v128) (local $r v128) (local $e v128) (local $w v128) (local $nan v128) (local $u v128)
    (local $big v128) (local $fast i32) (local $lg i32) (local $t i32) (local $emax i32) (local $emin i32)
    (local $y v128) (local $z v128) (local $c16 v128) (local $mx v128) (local $mn v128)
    (local $w32 v128) (local $nan32 v128) (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128) (local $cAbs v128) (local $cRnd v128) (local $cOne v128) (local $cBig v128)
    (local.set $first (i32.and ${get("flags")} (i32.const 1)))
    ;; FP32 sums need a start of +0 and no scale; $lg = ceil(log2 nsrc)
    (local.set $fast (i32.and ${get("first")} (f64.eq ${get("scale")} (f64.const 1))))
    (local.set $lg (i32.sub (i32.const 32) (i32.clz (i32.sub ${get("nsrc")} (i32.const 1)))))
    (local.set $z ${i32x4(0)})
    (local.set $c16 ${i32x4(0x7fff7fff)})
    (local.set $store (i32.and ${get("flags")} (i32.const 2)))
    (local.set $want (i32.and ${get("flags")} (i32.const 4)))
    (local.set $unit (f64.eq ${get("scale")} (f64.const 1)))
    (local.set $sc (f64x2.splat ${get("scale")}))
    (local.set $srcs (i32.add (global.get $base) (i32.const ${L.SOURCES})))
    (local.set $srcsEnd (i32.add ${get("srcs")} (i32.shl ${get("nsrc")} (i32.const 2))))
    ;; the encode's constants, made once
    (local.set $cAbs ${i32x4(0x7fffffff)})
    (local.set $cRnd ${i32x4(0x7fff)})
    (local.set $cOne ${i32x4(1)})
    (local.set $cBig ${i32x4(0x7f7f7fff)})
    (local.set $finv (i32x4.splat ${get("finite")}))
    (local.set $infv (i32x4.splat ${get("inf")}))
    (local.set $d (i32.add (global.get $base) (i32.const ${L.ACC})))
    (local.set $c (i32.add (global.get $base) (i32.const ${L.CODES})))
    (local.set $end (i32.shl ${get("n")} (i32.const 1)))
    (local.set $tail (i32.and ${get("end")} (i32.const -32)))
    ${pass(16, "tail")}
    ${pass(1, "end")}
    ;; the FP32 passes' errors joined to the float64 passes'
    (local.set $w (f64x2.pmax (f64x2.pmax ${get("w")} (f64x2.promote_low_f32x4 ${get("w32")}))
      (f64x2.promote_low_f32x4 ${high(get("w32"))})))
    (local.set $nan (f64x2.add (f64x2.add ${get("nan")} (f64x2.promote_low_f32x4 ${get("nan32")}))
      (f64x2.promote_low_f32x4 ${high(get("nan32"))})))
    ;; a NaN difference anywhere: +inf, as max_abs_err
    (local.set $e (f64x2.add ${get("nan")} (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 ${get("nan")} ${get("nan")})))
    (select (f64.const inf) (f64.max (f64x2.extract_lane 0 ${get("w")}) (f64x2.extract_lane 1 ${get("w")}))
      (f64.ne (f64x2.extract_lane 0 ${get("e")}) (f64x2.extract_lane 0 ${get("e")}))))`;
}
