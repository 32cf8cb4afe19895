// The small pieces of .wat text every kernel generator shares (kernels-wat.ts, wide.ts): the dtype
// as the kernels see it, local access, constants, the rare-branch wrapper, group addressing and a
// group's random words (the stream itself: xoshiro-wat.ts).
import type { KernelDtype } from "../../src/numerics/wasm/catalog.js";
import { xoshiroStep, xoshiroWord } from "./xoshiro-wat.js";

/** A dtype as the kernels see it (the catalogue's row: numerics/wasm/catalog.ts). */
export type Kind = KernelDtype;

/** What a kernel combines an element x with: the ALU op with acc, NaN canonical; or x as is. */
export type Combine = "load" | "scale" | "add" | "min" | "max" | "fma" | "pass";

/** The local holding a group's random words (stochastic rounding), or undefined (RNE). */
export type Rnd = string | undefined;

/** Where a group is: group k of an iteration (elements 4k..4k+3), or one element (the tail). */
export type At = number | "one";

/** The memarg of lane `lane` of group `at` for elements `width` bytes wide. */
export function offset(at: At, width: number, lane = 0): string {
  const bytes = (at === "one" ? 0 : 4 * width * at) + lane * width;
  return bytes === 0 ? "" : ` offset=${bytes}`;
}

/** An i32x4 constant with every lane `x`. */
export const v = (x: number | string) => `(v128.const i32x4 ${x} ${x} ${x} ${x})`;
/** An i16x8 / i8x16 constant with every lane `x`. */
export const v16 = (x: number) => `(v128.const i16x8 ${Array(8).fill(x).join(" ")})`;
export const v8 = (x: number) => `(v128.const i8x16 ${Array(16).fill(x).join(" ")})`;
export const get = (name: string) => `(local.get $${name})`;
export const set = (name: string, expr: string) => `(local.set $${name} ${expr})`;

/**
 * `fix` (statements) only when some lane of `mask` is set: NaN results, specials and results
 * outside a format's normal range are rare, and skipping their selects halves a group's work.
 */
export const rarely = (mask: string, fix: string) => `(if (v128.any_true ${mask}) (then\n          ${fix}))`;

/** One xoshiro128** step of the stream in $s0..$s3 (sr-stream.ts), its output word's s1 first kept in lane `lane` of $rs. */
const step = (lane: number) =>
  `${set("rs", lane === 0 ? "(i32x4.splat (local.get $s1))" : `(i32x4.replace_lane ${lane} ${get("rs")} (local.get $s1))`)}
        ${xoshiroStep(false, "t0")}`;

/**
 * Where a stochastic-rounding kernel takes its random words: none (RNE); the xoshiro128** stream
 * in the sr0..sr3 globals, stepped in the kernel ("stream"); or words the stream drew before, at
 * $words, one per element in element order ("words": sr_words draws them in four SIMD lanes).
 */
export type WordSource = false | "stream" | "words";

/** One random word per element of the group into `into`, from the kernel's random source. */
export function drawWords(from: WordSource, at: At, into: string): string {
  if (from === "stream") return randomWords(at, into);
  const load = at === "one" ? "v128.load32_zero" : `v128.load${offset(at, 4)}`;
  return set(into, `(${load} ${get("words")})`);
}

/**
 * One random word per element of the group, in element order, into `into` (sr-stream.ts fillU32):
 * the state steps in scalar locals, and the output function rotl(s1 · 5, 7) · 9 runs once for the
 * four lanes.
 */
function randomWords(at: At, into: string): string {
  const lanes = at === "one" ? [0] : [0, 1, 2, 3];
  return `${lanes.map(step).join("\n        ")}
        ${xoshiroWord(true, get("rs"), into)}`;
}
