// The wide two-source ADD / MIN / MAX kernels of bf16 and the narrow floats (fp16, fp8 e3/e4/e5):
// one 16-byte vector of each source an iteration, decoded, combined and rounded with no per-group
// special cases, falling back to the exact group snippets (kernels-wat.ts) for a vector that holds
// a special.
//
// Why it is exact. A narrow float's code with its magnitude shifted under FP32's mantissa (sign at
// bit 31) is an FP32 number 2^(bias − 127) times the value: normals and subnormals alike, with no
// multiply (the group snippets multiply to rebias). In that scaled domain:
// - the sum of two values is the scaled FP32 sum: scaling by a power of two commutes with rounding
//   unless the scaled sum is an FP32 subnormal, and a sum that small (below the format's smallest
//   normal) is a multiple of the format's smallest subnormal with at most manBits + 1 bits, exact
//   either way; MIN / MAX pick an operand, and order, −0 < +0 and ties are unchanged by scaling.
// - the code of an FP32 result is its bits rounded at the format's dropped bits, one add-and-shift
//   whether the code is normal or subnormal: a code below the smallest normal is the scaled FP32
//   subnormal's bits rounded at the same position (what nearest / floor + random do in the group
//   snippets on |x| · 2^(bias + man − 1 …)). The sign rides along above the magnitude (no carry
//   reaches it from a finite sum) and is moved to the code's top bit after.
// - it needs: no inf / NaN among the inputs (a code with an all-ones exponent is a finite FP32 in
//   the scaled domain), and for ADD no result at or past the format's inf code (overflow follows
//   the policy). A vector with either runs the group snippets, which are the JS encoders' twins.
// bf16 is FP32's top half, so it is the same with no scaling; its check is on the rounded codes
// (an all-ones exponent: NaN, inf, or a rounding past the largest finite).
import type { Kernel } from "./kernels-wat.js";
import { drawWords, get, type Kind, set, v, v8, v16 } from "./wat-snippets.js";

/** Elements a wide iteration takes: one 16-byte vector of codes. */
export function wideElements(k: Kind): number {
  return 16 / k.width;
}

const ZERO = "(v128.const i32x4 0 0 0 0)";

/** 16-bit lanes 4·half..4·half+3 of `x` as the top halves of four 32-bit lanes (zero below). */
const topHalves = (x: string, half: number) =>
  half === 0
    ? `(i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 ${ZERO} ${x})`
    : `(i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 ${ZERO} ${x})`;

/** Bytes 8·half..8·half+7 of `x` as the top bytes of eight 16-bit lanes (the low bytes a copy). */
const topBytes = (x: string, half: number) => {
  const lanes = Array.from({ length: 8 }, (_, i) => `${8 * half + i} ${8 * half + i}`).join(" ");
  return `(i8x16.shuffle ${lanes} ${x} ${x})`;
};

/**
 * The statements that leave group g's scaled FP32 bits of source `vec` in an expression: for the
 * 8-bit formats the two 16-bit halves first (into `t0`, `t1`), whose lanes are the FP32 top halves.
 */
function scaled(k: Kind, vec: string, t: [string, string]): { prep: string; group: (g: number) => string } {
  if (k.kind === "bf16") return { prep: "", group: (g) => topHalves(get(vec), g) };
  const m = k.manBits as number;
  if (k.width === 2) {
    // code << 16 shifted arithmetically so the magnitude tops FP32's mantissa; sign copies masked off
    const mask = (0x80000000 | (0x7fff << (23 - m))) >>> 0;
    return {
      prep: "",
      group: (g) => `(v128.and (i32x4.shr_s ${topHalves(get(vec), g)} (i32.const ${m - 7})) ${v(mask)})`,
    };
  }
  const mask = 0x8000 | (0x7f << (7 - m));
  const half = (h: number) =>
    set(
      t[h] as string,
      `(v128.and (i16x8.shr_s ${topBytes(get(vec), h)} (i32.const ${m + 1})) ${v16(mask)})`,
    );
  return {
    prep: `${half(0)}\n          ${half(1)}`,
    group: (g) => topHalves(get(t[g >> 1] as string), g & 1),
  };
}

/** Lanes of a vector of codes whose exponent is all ones (inf, NaN): the group snippets take them. */
function specials(k: Kind): string {
  const { expBits, manBits } = k as Required<Kind>;
  const infCode = ((1 << expBits) - 1) << manBits;
  if (k.width === 1) {
    const mag = (x: string) => `(v128.and ${get(x)} ${v8(0x7f)})`;
    return `(i8x16.gt_s (i8x16.max_u ${mag("va")} ${mag("vb")}) ${v8(infCode - 1)})`;
  }
  const mag = (x: string) => `(v128.and ${get(x)} ${v16(0x7fff)})`;
  return `(i16x8.gt_s (i16x8.max_u ${mag("va")} ${mag("vb")}) ${v16(infCode - 1)})`;
}

/**
 * The rounded codes of the sums $u0.. into $c0.. with the sign still above the magnitude: bits
 * plus the increment (RNE: half − 1 + the kept lsb; SR: the random window), shifted.
 */
function round(k: Kind, g: number, sr: boolean): string {
  const dropped = k.kind === "bf16" ? 16 : 23 - (k.manBits as number);
  const u = get(`u${g}`);
  const inc = sr
    ? `(i32x4.shr_u ${get(`rnd${g}`)} (i32.const ${32 - dropped}))`
    : `(i32x4.add ${v((1 << (dropped - 1)) - 1)} (v128.and (i32x4.shr_u ${u} (i32.const ${dropped})) ${v(1)}))`;
  return set(`c${g}`, `(i32x4.shr_u (i32x4.add ${u} ${inc}) (i32.const ${dropped}))`);
}

/**
 * Codes with the sign at bit `from` (the magnitude below it) in local `x` of `lanes`-bit lanes →
 * the sign at the code's top bit `to`; for ADD, lanes whose magnitude reaches the inf code (an
 * overflow) are or'ed into $spec.
 */
function signDown(
  x: string,
  lanes: 16 | 32,
  from: number,
  to: number,
  overflowAt: number | undefined,
): string {
  const c = lanes === 16 ? v16 : v;
  const shape = lanes === 16 ? "i16x8" : "i32x4";
  const flag =
    overflowAt === undefined
      ? ""
      : `\n          ${set("spec", `(v128.or ${get("spec")} (${shape}.gt_s ${get(x)} ${c(overflowAt - 1)}))`)}`;
  return `${set("m", `(v128.and ${get(x)} ${c(1 << from)})`)}
          ${set(x, `(v128.xor ${get(x)} ${get("m")})`)}${flag}
          ${set(x, `(v128.or ${get(x)} (${shape}.shr_u ${get("m")} (i32.const ${from - to})))`)}`;
}

/**
 * The packed codes of the block into $h0; for bf16 (every op) and a narrow ADD, $spec set where the
 * group snippets must run instead (bf16: a NaN, inf or overflowing result; narrow: an overflow).
 */
function pack(k: Kind, add: boolean): string {
  if (k.kind === "bf16") {
    // The rounded codes with an all-ones exponent: a NaN, an inf, or a finite sum rounded past the
    // largest finite (the increment cannot carry out of a 32-bit lane: a NaN or inf sum's low half
    // is zero, or all of the default NaN's low bits are).
    return `${set("h0", `(i16x8.narrow_i32x4_u ${get("c0")} ${get("c1")})`)}
          ${set("spec", `(i16x8.gt_s (v128.and ${get("h0")} ${v16(0x7fff)}) ${v16(0x7f7f)})`)}`;
  }
  const { expBits, manBits } = k as Required<Kind>;
  const infCode = ((1 << expBits) - 1) << manBits;
  const signAt = 8 + manBits; // 31 − dropped
  const overflowAt = add ? infCode : undefined;
  const start = add ? set("spec", ZERO) : "";
  if (k.width === 2) {
    const fix = [0, 1].map((g) => signDown(`c${g}`, 32, signAt, 15, overflowAt)).join("\n          ");
    return `${start}\n          ${fix}\n          ${set("h0", `(i16x8.narrow_i32x4_u ${get("c0")} ${get("c1")})`)}`;
  }
  const narrow = (h: number) =>
    set(`h${h}`, `(i16x8.narrow_i32x4_u ${get(`c${2 * h}`)} ${get(`c${2 * h + 1}`)})`);
  const fix = [0, 1].map((h) => `${narrow(h)}\n          ${signDown(`h${h}`, 16, signAt, 7, overflowAt)}`);
  return `${start}\n          ${fix.join("\n          ")}
          ${set("h0", `(i8x16.narrow_i16x8_u ${get("h0")} ${get("h1")})`)}`;
}

/**
 * The body of one wide iteration: sources at $acc and $src, codes to $out. `exact(g, rnd)` is the
 * group snippet for group g (with SR, drawing nothing: the block's words are drawn first, in
 * element order, and either path uses them).
 */
export function wideBlock(k: Kernel, exact: (g: number, rnd: string | undefined) => string): string {
  const kind = k.src;
  const groups = 4 / kind.width;
  const gs = Array.from({ length: groups }, (_, g) => g);
  const a = scaled(kind, "va", ["c0", "c1"]);
  const b = scaled(kind, "vb", ["c2", "c3"]);
  const op = k.combine as "add" | "min" | "max";
  return `${set("va", `(v128.load ${get("acc")})`)}
        ${set("vb", `(v128.load ${get("src")})`)}
        ${k.sr ? gs.map((g) => drawWords(k.sr, g, `rnd${g}`)).join("\n        ") : ""}
        (block $wide
          (block $exact
          ${kind.kind === "narrow" ? `(br_if $exact (v128.any_true ${specials(kind)}))` : ""}
          ${[a.prep, b.prep].filter((p) => p !== "").join("\n          ")}
          ${gs.map((g) => set(`u${g}`, `(f32x4.${op} ${a.group(g)} ${b.group(g)})`)).join("\n          ")}
          ${gs.map((g) => round(kind, g, k.sr !== false)).join("\n          ")}
          ${pack(kind, op === "add")}
          ${kind.kind === "bf16" || op === "add" ? `(br_if $exact (v128.any_true ${get("spec")}))` : ""}
          (v128.store ${get("out")} ${get("h0")})
          (br $wide))
        ${gs.map((g) => exact(g, k.sr ? `rnd${g}` : undefined)).join("\n        ")})`;
}
