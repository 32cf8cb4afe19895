// Writes the text of src/collectives/check/gen/check-kernels.wat: the collectives' check loops in
// WebAssembly (check/check-kernels.ts binds them; each is pinned to its JS twin by the tests).
// - gen<width>: exact input data (check/inputs.ts) drawn and encoded in one pass. Each element
//   draws one xoshiro128** word w of the stream (numerics/sr-stream.ts fillU32; the state lives in
//   memory at STATE, read before the loop and written back after) and stores the table's code
//   number ⌊w · span / 2^32⌋ — the same integer as inputs.ts's ⌊(w / 2^32) · span⌋, exact in
//   float64 (w · span < 2^49).
// - acc_add / acc_max / acc_min: the float64 exact result (check/exact-result.ts reduceInto):
//   acc[i] ← acc[i] + x[i]·scale, max(acc[i], x[i]), min(acc[i], x[i]) with x[i] an FP32 value
//   widened; wasm's f64 max / min are Math.max / Math.min (NaN wins, −0 < +0), and wasm never fuses
//   a multiply into an add.
// - demote: FP32 of each float64 (RNE, as a Float32Array store); max_abs_err: max |x[i] − acc[i]|,
//   +inf when any is NaN (verify.ts maxAbsError); count_wrong: elements whose bytes differ
//   (verify.ts countWrong).
// - widen_bf16: bf16 codes (at any offset of the module's memory) to FP32 bits in the FP32 tile,
//   code << 16 (numerics decodeToF32, NaN payloads kept), so a check decodes a tile of device
//   bytes in place (an instance over the device's arena) or after one copy in.
// - spread: sparse exact data's drawn codes spread in place over their elements (check-spread-wat.ts).
// Every offset of the layout is from the global `base`: 0 in the module's own memory, a block of a
// device arena in an instance over that arena's memory (check-kernels.ts kernelsOver).
// tools/wasm/build-check-kernels.ts writes the .wat and compiles it; test/collectives/
// check-kernels.test.ts checks both committed files are current.
import {
  CHECK_FORMULAS,
  CHECK_KERNELS_TILE,
  CHECK_KERNELS_LAYOUT as L,
} from "../../src/collectives/check/check-kernels.js";
import { exactBf16Function } from "./check-exact-wat.js";
import { spreadFunction } from "./check-spread-wat.js";
import { xoshiroStep, xoshiroWord } from "./xoshiro-wat.js";

const get = (name: string) => `(local.get $${name})`;
const WIDTHS = [1, 2, 4] as const;
const LOAD = { 1: "i32.load8_u", 2: "i32.load16_u", 4: "i32.load" } as const;
const STORE = { 1: "i32.store8", 2: "i32.store16", 4: "i32.store" } as const;
const SHIFT = { 1: 0, 2: 1, 4: 2 } as const;

function genFunction(width: 1 | 2 | 4): string {
  const load = [0, 1, 2, 3].map(
    (i) => `(local.set $s${i} (i32.load offset=${L.STATE + 4 * i} (global.get $base)))`,
  );
  const save = [0, 1, 2, 3].map(
    (i) => `(i32.store offset=${L.STATE + 4 * i} (global.get $base) ${get(`s${i}`)})`,
  );
  return `  ;; out[i] <- table[floor(w_i * span / 2^32)] for i < n, codes of ${width} byte(s)
  (func $gen${width} (export "gen${width}") (param $span i32) (param $out i32) (param $n i32)
    (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32) (local $t i32) (local $w i32)
    (local $end i32) (local $span64 i64)
    ${load.join("\n    ")}
    (local.set $span64 (i64.extend_i32_u (local.get $span)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const ${SHIFT[width]}))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        ${xoshiroWord(false, get("s1"), "w")}
        (${STORE[width]} (local.get $out)
          (${LOAD[width]} offset=${L.TABLE}
            (i32.add (global.get $base) (i32.shl
              (i32.wrap_i64 (i64.shr_u (i64.mul (i64.extend_i32_u (local.get $w)) (local.get $span64)) (i64.const 32)))
              (i32.const ${SHIFT[width]})))))
        ${xoshiroStep(false, "t")}
        (local.set $out (i32.add (local.get $out) (i32.const ${width})))
        (br $next)))
    ${save.join("\n    ")})`;
}

/** The four SIMD lanes' xoshiro states, loaded from and stored back to the module's LANES block. */
const LOAD_LANES = [0, 1, 2, 3]
  .map((i) => `(local.set $s${i} (v128.load offset=${L.LANES + 16 * i} (global.get $base)))`)
  .join("\n    ");
const SAVE_LANES = [0, 1, 2, 3]
  .map((i) => `(v128.store offset=${L.LANES + 16 * i} (global.get $base) ${get(`s${i}`)})`)
  .join("\n    ");

/** Lane k writes its `len` codes of `width` bytes from out + k·len·width: k1..k3, the cursor and the end. */
function laneStarts(width: 1 | 2 | 4): string {
  return `(local.set $k1 (i32.shl (local.get $len) (i32.const ${SHIFT[width]})))
    (local.set $k2 (i32.shl (local.get $k1) (i32.const 1)))
    (local.set $k3 (i32.add (local.get $k2) (local.get $k1)))
    (local.set $p (local.get $out))
    (local.set $end (i32.add (local.get $out) (local.get $k1)))`;
}

/** $w ← the next word of each lane's xoshiro128** stream (the output function of the states $s0–$s3). */
const LANE_WORD = xoshiroWord(true, get("s1"), "w");

/** Each lane's code number ⌊$w · $sp / 2^32⌋: the high words of the four 64-bit products. */
const LANE_CODE = `(i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31
            (i64x2.extmul_low_i32x4_u ${get("w")} ${get("sp")}) (i64x2.extmul_high_i32x4_u ${get("w")} ${get("sp")}))`;

/** Each lane's xoshiro128** state update (sr-stream.ts nextU32), in $s0–$s3 ($t a temporary). */
const LANE_STEP = xoshiroStep(true, "t");

/**
 * gen<width>_x4: the same draw in four SIMD lanes, each with its own xoshiro128** state (at LANES,
 * set by the caller to the stream jumped 0, L, 2L and 3L words ahead: numerics/sr-jump.ts): lane k's
 * j-th word makes code k · L + j of the tile, so the tile is the stream's 4L words in order; the
 * lanes' states are written back (lane 3's is then the stream's state after the tile).
 */
function genX4Function(width: 1 | 2 | 4): string {
  const code = (lane: number) => {
    const at = lane === 0 ? get("p") : `(i32.add ${get("p")} ${get(`k${lane}`)})`;
    return `(${STORE[width]} ${at} (${LOAD[width]} offset=${L.TABLE} (i32.add (global.get $base) (i32x4.extract_lane ${lane} ${get("lo")}))))`;
  };
  return `  ;; four lanes: code k*len + j <- lane k's word j, for j < len
  (func $gen${width}_x4 (export "gen${width}_x4") (param $span i32) (param $out i32) (param $len i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $t v128) (local $w v128)
    (local $lo v128) (local $sp v128)
    (local $p i32) (local $end i32) (local $k1 i32) (local $k2 i32) (local $k3 i32)
    ${LOAD_LANES}
    (local.set $sp (i32x4.splat (local.get $span)))
    ${laneStarts(width)}
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ${LANE_WORD}
        ;; the code numbers as byte offsets into the table
        (local.set $lo (i32x4.shl ${LANE_CODE} (i32.const ${SHIFT[width]})))
        ${[0, 1, 2, 3].map(code).join("\n        ")}
        ${LANE_STEP}
        (local.set $p (i32.add (local.get $p) (i32.const ${width})))
        (br $next)))
    ${SAVE_LANES})`;
}

/** A computed-code draw (check-kernels.ts CHECK_FORMULAS), its code `at` a byte offset of its value's bits. */
type Arith = (typeof CHECK_FORMULAS)[number] & { readonly at: number };
const ARITH: readonly Arith[] = CHECK_FORMULAS.map((f) => ({ ...f, at: f.shift / 8 }));

/**
 * Store four steps' codes $c0–$c3 (lane k's at $p + k · $k1): A = c0, c1's codes interleaved
 * [c0.0 c1.0 c0.1 c1.1 …], B = c2, c3's; then lane k's four codes are A's and B's k-th pairs.
 */
function packStore(a: Arith): string {
  const at = (k: number) => (k === 0 ? get("p") : `(i32.add ${get("p")} ${get(`k${k}`)})`);
  const bytes = (j: number) => Array.from({ length: a.width }, (_, i) => 4 * j + a.at + i);
  const interleave = [0, 1, 2, 3].flatMap((j) => [...bytes(j), ...bytes(j).map((b) => b + 16)]);
  const pad = Array.from({ length: 16 - interleave.length }, () => 0);
  const pairs = (x: string, y: string) =>
    `(i8x16.shuffle ${[...interleave, ...pad].join(" ")} ${get(x)} ${get(y)})`;
  const pair = 2 * a.width;
  const lanesOf = (k: number) => Array.from({ length: pair }, (_, i) => k * pair + i);
  const gather = (ks: number[]) =>
    ks.flatMap((k) => [...lanesOf(k), ...lanesOf(k).map((i) => i + 16)]).join(" ");
  const head = `(local.set $w ${pairs("c0", "c1")})
        (local.set $t ${pairs("c2", "c3")})`;
  if (a.width === 2) {
    return `${head}
        (local.set $v (i8x16.shuffle ${gather([0, 1])} ${get("w")} ${get("t")}))
        (local.set $w (i8x16.shuffle ${gather([2, 3])} ${get("w")} ${get("t")}))
        (v128.store64_lane 0 ${at(0)} ${get("v")})
        (v128.store64_lane 1 ${at(1)} ${get("v")})
        (v128.store64_lane 0 ${at(2)} ${get("w")})
        (v128.store64_lane 1 ${at(3)} ${get("w")})`;
  }
  return `${head}
        (local.set $v (i8x16.shuffle ${gather([0, 1, 2, 3])} ${get("w")} ${get("t")}))
        ${[0, 1, 2, 3].map((k) => `(v128.store32_lane ${k} ${at(k)} ${get("v")})`).join("\n        ")}`;
}

/**
 * gen2_float_x4, gen2_int_x4, gen1_int_x4: gen<width>_x4 where each code is computed, not looked
 * up: the code of the integer v = ⌊w · span / 2^32⌋ − off is `width` bytes at `at` of v's FP32
 * bits (float) or of v. Four steps at once, their codes transposed so that each lane stores its
 * four with one store. The caller uses one only when it gives every code of the table
 * (check-kernels.ts), with `len` a multiple of 4.
 */
function genArithX4Function(a: Arith): string {
  const v = `(i32x4.sub ${LANE_CODE} ${get("offv")})`;
  const step = (u: number) => `${LANE_WORD}
        (local.set $c${u} ${a.float ? `(f32x4.convert_i32x4_s ${v})` : v})
        ${LANE_STEP}`;
  return `  ;; four lanes, four steps a pass: code k*len + j <- the code of lane k's word j, for j < len
  (func $${a.name} (export "${a.name}") (param $span i32) (param $out i32) (param $len i32) (param $off i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $t v128) (local $w v128)
    (local $v v128) (local $sp v128) (local $offv v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $p i32) (local $end i32) (local $k1 i32) (local $k2 i32) (local $k3 i32)
    ${LOAD_LANES}
    (local.set $sp (i32x4.splat (local.get $span)))
    (local.set $offv (i32x4.splat (local.get $off)))
    ${laneStarts(a.width)}
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ${[0, 1, 2, 3].map(step).join("\n        ")}
        ${packStore(a)}
        (local.set $p (i32.add (local.get $p) (i32.const ${4 * a.width})))
        (br $next)))
    ${SAVE_LANES})`;
}

/**
 * A loop over elements i < $n of the FP32 tile at F32 and the float64 tile at ACC: `four` for four
 * elements at once ($x: the FP32 lanes, $lo / $hi: lanes 0–1 / 2–3 widened, $a0 / $a1: acc there,
 * $f / $d pointing at them), `one` for each element of the tail ($x1 its FP32 value widened, $a acc).
 */
function tileLoop(
  name: string,
  params: string,
  result: string,
  four: string,
  one: string,
  end: string,
): string {
  return `  (func $${name} (export "${name}") ${params}${result}
    (local $f i32) (local $d i32) (local $fEnd i32) (local $fTail i32)
    (local $x v128) (local $lo v128) (local $hi v128) (local $a0 v128) (local $a1 v128) (local $w v128)
    (local $x1 f64) (local $a f64) (local $worst f64)
    (local.set $f (i32.add (global.get $base) (i32.const ${L.F32})))
    (local.set $d (i32.add (global.get $base) (i32.const ${L.ACC})))
    (local.set $fEnd (i32.add (local.get $f) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $fTail (i32.add (local.get $f) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $f) (local.get $fTail)))
        (local.set $x (v128.load (local.get $f)))
        (local.set $lo (f64x2.promote_low_f32x4 (local.get $x)))
        (local.set $hi (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x))))
        (local.set $a0 (v128.load (local.get $d)))
        (local.set $a1 (v128.load offset=16 (local.get $d)))
        ${four}
        (local.set $f (i32.add (local.get $f) (i32.const 16)))
        (local.set $d (i32.add (local.get $d) (i32.const 32)))
        (br $next)))
    (block $done1
      (loop $next1
        (br_if $done1 (i32.ge_u (local.get $f) (local.get $fEnd)))
        (local.set $x1 (f64.promote_f32 (f32.load (local.get $f))))
        (local.set $a (f64.load (local.get $d)))
        ${one}
        (local.set $f (i32.add (local.get $f) (i32.const 4)))
        (local.set $d (i32.add (local.get $d) (i32.const 8)))
        (br $next1)))${end})`;
}

const N = "(param $n i32)";
const storeAcc = (lo: string, hi: string) =>
  `(v128.store (local.get $d) ${lo})\n        (v128.store offset=16 (local.get $d) ${hi})`;
const combine = (op: "max" | "min") =>
  tileLoop(
    `acc_${op}`,
    N,
    "",
    storeAcc(`(f64x2.${op} ${get("a0")} ${get("lo")})`, `(f64x2.${op} ${get("a1")} ${get("hi")})`),
    `(f64.store (local.get $d) (f64.${op} (local.get $a) (local.get $x1)))`,
    "",
  );

/**
 * $w ← lanewise max($w, |x − a|) with the cheap pmax (one instruction; NaN-blind), and a NaN
 * difference kept by OR-ing its all-ones compare mask into $w (a NaN then stays NaN: pmax keeps
 * its first operand when the compare is false).
 */
const worstOf = (x: string, a: string) =>
  `(local.set $x (f64x2.abs (f64x2.sub ${get(x)} ${get(a)})))
        (local.set $w (v128.or (f64x2.pmax (local.get $w) (local.get $x)) (f64x2.ne (local.get $x) (local.get $x))))`;

/**
 * count_wrong(actual, n, eb): elements of eb bytes (1, 2, 4 or 8) among the n bytes at `actual` (the
 * ACTUAL tile, or device bytes in place when the instance is over a device's arena) that differ
 * from those at CODES: 64 equal bytes are skipped at once (then 16), a block that differs is counted
 * element by element, and so is the tail.
 */
function countWrong(): string {
  return `  (func $count_wrong (export "count_wrong") (param $actual i32) (param $n i32) (param $eb i32) (result i32)
    (local $i i32) (local $blocks i32) (local $wrong i32) (local $want i32) (local $a i32) (local $b i32)
    (local.set $want (i32.add (global.get $base) (i32.const ${L.CODES})))
    ;; 64 bytes a pass while they last: four blocks' differences OR-ed, one test
    (local.set $blocks (i32.and (local.get $n) (i32.const -64)))
    (block $done64
      (loop $next64
        (br_if $done64 (i32.ge_u (local.get $i) (local.get $blocks)))
        (local.set $a (i32.add (local.get $actual) (local.get $i)))
        (local.set $b (i32.add (local.get $want) (local.get $i)))
        (if (v128.any_true (v128.or
              (v128.or (v128.xor (v128.load (local.get $a)) (v128.load (local.get $b)))
                (v128.xor (v128.load offset=16 (local.get $a)) (v128.load offset=16 (local.get $b))))
              (v128.or (v128.xor (v128.load offset=32 (local.get $a)) (v128.load offset=32 (local.get $b)))
                (v128.xor (v128.load offset=48 (local.get $a)) (v128.load offset=48 (local.get $b))))))
          (then (local.set $wrong (i32.add (local.get $wrong) (call $wrong_in (local.get $a) (local.get $b) (i32.const 64) (local.get $eb))))))
        (local.set $i (i32.add (local.get $i) (i32.const 64)))
        (br $next64)))
    (local.set $blocks (i32.and (local.get $n) (i32.const -16)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $blocks)))
        (if (i32.eqz (i8x16.all_true (i8x16.eq (v128.load (i32.add (local.get $actual) (local.get $i))) (v128.load (i32.add (local.get $want) (local.get $i))))))
          (then (local.set $wrong (i32.add (local.get $wrong)
            (call $wrong_in (i32.add (local.get $actual) (local.get $i)) (i32.add (local.get $want) (local.get $i)) (i32.const 16) (local.get $eb))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))
    (i32.add (local.get $wrong) (call $wrong_in (i32.add (local.get $actual) (local.get $blocks))
      (i32.add (local.get $want) (local.get $blocks)) (i32.sub (local.get $n) (local.get $blocks)) (local.get $eb))))
  ;; elements of eb bytes among the n bytes at a that differ in any byte from those at b
  (func $wrong_in (param $a i32) (param $b i32) (param $n i32) (param $eb i32) (result i32)
    (local $i i32) (local $k i32) (local $bad i32) (local $wrong i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $bad (i32.const 0))
        (local.set $k (i32.const 0))
        (block $elem
          (loop $byte
            (br_if $elem (i32.ge_u (local.get $k) (local.get $eb)))
            (local.set $bad (i32.or (local.get $bad)
              (i32.ne (i32.load8_u (i32.add (local.get $a) (i32.add (local.get $i) (local.get $k))))
                      (i32.load8_u (i32.add (local.get $b) (i32.add (local.get $i) (local.get $k)))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $byte)))
        (local.set $wrong (i32.add (local.get $wrong) (local.get $bad)))
        (local.set $i (i32.add (local.get $i) (local.get $eb)))
        (br $next)))
    (local.get $wrong))`;
}

/**
 * count_wrong_many(nout, n, eb): count_wrong for each of nout outputs at once (their addresses the
 * SOURCES words, their counts written to the words after them, at SOURCES + 64): each 64 bytes
 * of the wanted codes are loaded once and tested against every output's, so the outputs are
 * read as parallel streams; a pass that differs is counted element by element, and so is the tail.
 */
function countWrongMany(): string {
  const diff = (k: number) => `(v128.xor (v128.load offset=${16 * k} (local.get $a)) (local.get $w${k}))`;
  return `  (func $count_wrong_many (export "count_wrong_many") (param $nout i32) (param $n i32) (param $eb i32)
    (local $i i32) (local $blocks i32) (local $want i32) (local $a i32) (local $p i32) (local $end i32)
    (local $w0 v128) (local $w1 v128) (local $w2 v128) (local $w3 v128)
    (local.set $want (i32.add (global.get $base) (i32.const ${L.CODES})))
    (local.set $end (i32.add (i32.add (global.get $base) (i32.const ${L.SOURCES})) (i32.shl (local.get $nout) (i32.const 2))))
    (local.set $p (i32.add (global.get $base) (i32.const ${L.SOURCES})))
    (block $zeroed
      (loop $zero
        (br_if $zeroed (i32.ge_u (local.get $p) (local.get $end)))
        (i32.store offset=${L.COUNTS - L.SOURCES} (local.get $p) (i32.const 0))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $zero)))
    (local.set $blocks (i32.and (local.get $n) (i32.const -64)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $blocks)))
        ${[0, 1, 2, 3].map((k) => `(local.set $w${k} (v128.load offset=${16 * k} (i32.add (local.get $want) (local.get $i))))`).join("\n        ")}
        (local.set $p (i32.add (global.get $base) (i32.const ${L.SOURCES})))
        (block $outs
          (loop $out
            (br_if $outs (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $a (i32.add (i32.load (local.get $p)) (local.get $i)))
            (if (v128.any_true (v128.or (v128.or ${diff(0)} ${diff(1)}) (v128.or ${diff(2)} ${diff(3)})))
              (then (i32.store offset=${L.COUNTS - L.SOURCES} (local.get $p) (i32.add (i32.load offset=${L.COUNTS - L.SOURCES} (local.get $p))
                (call $wrong_in (local.get $a) (i32.add (local.get $want) (local.get $i)) (i32.const 64) (local.get $eb))))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $out)))
        (local.set $i (i32.add (local.get $i) (i32.const 64)))
        (br $next)))
    (local.set $p (i32.add (global.get $base) (i32.const ${L.SOURCES})))
    (block $tails
      (loop $tail
        (br_if $tails (i32.ge_u (local.get $p) (local.get $end)))
        (i32.store offset=${L.COUNTS - L.SOURCES} (local.get $p) (i32.add (i32.load offset=${L.COUNTS - L.SOURCES} (local.get $p))
          (call $wrong_in (i32.add (i32.load (local.get $p)) (local.get $blocks)) (i32.add (local.get $want) (local.get $blocks))
            (i32.sub (local.get $n) (local.get $blocks)) (local.get $eb))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $tail))))`;
}

/** widen_bf16(src, n): F32[i] ← (u16 at src + 2i) << 16 for i < n, eight at a time, then the tail. */
function widenBf16(): string {
  return `  (func $widen_bf16 (export "widen_bf16") (param $src i32) (param $n i32)
    (local $f i32) (local $end i32) (local $tail i32) (local $x v128)
    (local.set $f (i32.add (global.get $base) (i32.const ${L.F32})))
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $tail (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -8)) (i32.const 1))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $src) (local.get $tail)))
        (local.set $x (v128.load (local.get $src)))
        (v128.store (local.get $f) (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $x)) (i32.const 16)))
        (v128.store offset=16 (local.get $f) (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $x)) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (local.set $f (i32.add (local.get $f) (i32.const 32)))
        (br $next)))
    (block $done1
      (loop $next1
        (br_if $done1 (i32.ge_u (local.get $src) (local.get $end)))
        (i32.store (local.get $f) (i32.shl (i32.load16_u (local.get $src)) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (local.set $f (i32.add (local.get $f) (i32.const 4)))
        (br $next1))))`;
}

/** The module's text. */
export function checkKernelsWat(): string {
  const pages = Math.ceil(L.END / 65536);
  const accAdd = tileLoop(
    "acc_add",
    `${N} (param $scale f64)`,
    "",
    storeAcc(
      "(f64x2.add (local.get $a0) (f64x2.mul (local.get $lo) (f64x2.splat (local.get $scale))))",
      "(f64x2.add (local.get $a1) (f64x2.mul (local.get $hi) (f64x2.splat (local.get $scale))))",
    ),
    "(f64.store (local.get $d) (f64.add (local.get $a) (f64.mul (local.get $x1) (local.get $scale))))",
    "",
  );
  const demote = tileLoop(
    "demote",
    N,
    "",
    `(v128.store (local.get $f) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
          (f32x4.demote_f64x2_zero (local.get $a0)) (f32x4.demote_f64x2_zero (local.get $a1))))`,
    "(f32.store (local.get $f) (f32.demote_f64 (local.get $a)))",
    "",
  );
  const maxAbsErr = tileLoop(
    "max_abs_err",
    N,
    " (result f64)",
    `${worstOf("lo", "a0")}
        ${worstOf("hi", "a1")}`,
    "(local.set $worst (f64.max (local.get $worst) (f64.abs (f64.sub (local.get $x1) (local.get $a)))))",
    `
    (local.set $worst (f64.max (local.get $worst)
      (f64.max (f64x2.extract_lane 0 (local.get $w)) (f64x2.extract_lane 1 (local.get $w)))))
    ;; a NaN difference anywhere: +inf, as maxAbsError
    (select (f64.const inf) (local.get $worst) (f64.ne (local.get $worst) (local.get $worst)))`,
  );
  return `;; GENERATED by tools/wasm/check-kernels-wat.ts - do not edit.
;; The collectives' check loops (see the generator). Memory: the stream state at ${L.STATE}, the code
;; table at ${L.TABLE}, code tiles at ${L.CODES} and ${L.ACTUAL}, an FP32 tile at ${L.F32}, a float64
;; tile at ${L.ACC}
;; (${CHECK_KERNELS_TILE} elements each).
(module
  (memory (export "memory") ${pages})
  ;; where this instance's layout starts: 0 over its own memory, a block of an arena over a device's
  (global $base (export "base") (mut i32) (i32.const 0))
  ;; exact_bf16's passes summed in FP32 (read by tests: the fast path is taken)
  (global $fp32_passes (export "fp32_passes") (mut i32) (i32.const 0))
${WIDTHS.map(genFunction).join("\n")}
${WIDTHS.map(genX4Function).join("\n")}
${ARITH.map(genArithX4Function).join("\n")}
${accAdd}
${combine("max")}
${combine("min")}
${demote}
${maxAbsErr}
${countWrong()}
${countWrongMany()}
${widenBf16()}
${exactBf16Function()}
${spreadFunction()}
)
`;
}
