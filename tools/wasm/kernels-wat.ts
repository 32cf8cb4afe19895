// Writes the text of src/numerics/wasm/kernels.wat. The kernels differ only in three choices (the
// ALU op, the source dtype, what is stored), so they are generated from one loop template here
// instead of being copied by hand; tools/wasm/build.ts writes the .wat and compiles it, and
// test/numerics/wasm-kernels.test.ts checks both committed files are current.

/** How a kernel combines an element x with the accumulator. */
type Combine = "add" | "min" | "max" | "load" | "pass";
/** Source dtype: FP32 words or bf16 codes (decoded as code << 16). */
type Source = "f32" | "bf16";
/** What is stored: FP32 bits, or bf16 codes rounded to nearest even / stochastically. */
type Store = "f32" | "bf16rne" | "bf16sr";

interface Kernel {
  readonly name: string;
  readonly combine: Combine;
  readonly src: Source;
  readonly store: Store;
  readonly doc: string;
}

const CANON = "(v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)";
const splat = (x: string) => `(v128.const i32x4 ${x} ${x} ${x} ${x})`;
const isAlu = (c: Combine) => c === "add" || c === "min" || c === "max";
/** add / min / max / load write every NaN as 0x7fc00000; pass (the plain codecs) keeps the bits. */
const canonicalises = (c: Combine) => c !== "pass";

/** Lanes 0..3 and 4..7 of the 8 elements at $src, as FP32 bits, into $x0 / $x1. */
function loadSource(src: Source): string {
  return src === "f32"
    ? "(local.set $x0 (v128.load (local.get $src))) (local.set $x1 (v128.load offset=16 (local.get $src)))"
    : "(local.set $x1 (v128.load (local.get $src)))\n" +
        "        (local.set $x0 (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $x1)) (i32.const 16)))\n" +
        "        (local.set $x1 (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $x1)) (i32.const 16)))";
}

/** Lanes k*4..k*4+3 combined with the accumulator, NaN canonicalised where the kernel does, into $rk. */
function combineLanes(c: Combine, k: 0 | 1): string {
  const x = `(local.get $x${k})`;
  const r = isAlu(c) ? `(f32x4.${c} (v128.load offset=${16 * k} (local.get $acc)) ${x})` : x;
  if (!canonicalises(c)) return `(local.set $r${k} ${r})`;
  return `(local.set $r${k} ${r})\n        (local.set $r${k} (v128.bitselect ${CANON} (local.get $r${k}) (f32x4.ne (local.get $r${k}) (local.get $r${k}))))`;
}

/**
 * $rk (FP32 bits) → its bf16 codes in i32 lanes, in place (float-encode.ts encodeBf16): the
 * increment added to the magnitude, then a code at or above inf resolved by the overflow policy.
 * The compares are signed (native on x64 SSE, unlike unsigned ones): the magnitude is below 2^31
 * and the code below 2^16, so signed and unsigned order agree.
 */
function bf16Codes(k: 0 | 1, store: Store): string {
  const u = `(local.get $r${k})`;
  const inc =
    store === "bf16rne"
      ? `(i32x4.add ${splat("0x7fff")} (v128.and (i32x4.shr_u ${u} (i32.const 16)) ${splat("1")}))`
      : `(i32x4.shr_u (v128.load offset=${16 * k} (local.get $random)) (i32.const 16))`;
  return [
    `(local.set $ea (v128.and ${u} ${splat("0x7fffffff")}))`,
    `(local.set $ec (i32x4.shr_u (i32x4.add (local.get $ea) ${inc}) (i32.const 16)))`,
    `(local.set $ec (v128.bitselect
          (v128.bitselect (local.get $ov)
            (v128.bitselect (local.get $iv) ${splat("0x7fc0")} (i32x4.eq (local.get $ea) ${splat("0x7f800000")}))
            (i32x4.lt_s (local.get $ea) ${splat("0x7f800000")}))
          (local.get $ec) (i32x4.gt_s (local.get $ec) ${splat("0x7f7f")})))`,
    `(local.set $r${k} (v128.or (local.get $ec) (v128.and (i32x4.shr_u ${u} (i32.const 16)) ${splat("0x8000")})))`,
  ].join("\n        ");
}

function storeLanes(store: Store): string {
  if (store === "f32") {
    return "(v128.store (local.get $out) (local.get $r0)) (v128.store offset=16 (local.get $out) (local.get $r1))";
  }
  return [
    bf16Codes(0, store),
    bf16Codes(1, store),
    "(v128.store (local.get $out) (i16x8.narrow_i32x4_u (local.get $r0) (local.get $r1)))",
  ].join("\n        ");
}

/** The scalar twin for the tail (fewer than 8 elements): FP32 bits of one element into $u. */
function scalarElement(c: Combine, src: Source): string {
  const bits =
    src === "f32"
      ? "(i32.load (local.get $src))"
      : "(i32.shl (i32.load16_u (local.get $src)) (i32.const 16))";
  if (!canonicalises(c)) return `(local.set $u ${bits})`;
  const x = `(f32.reinterpret_i32 ${bits})`;
  const r = isAlu(c) ? `(f32.${c} (f32.load (local.get $acc)) ${x})` : x;
  return `(local.set $s ${r})
        (local.set $u (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))`;
}

function scalarStore(store: Store): string {
  if (store === "f32") return "(i32.store (local.get $out) (local.get $u))";
  const inc =
    store === "bf16rne"
      ? "(i32.add (i32.const 0x7fff) (i32.and (i32.shr_u (local.get $u) (i32.const 16)) (i32.const 1)))"
      : "(i32.shr_u (i32.load (local.get $random)) (i32.const 16))";
  return `(i32.store16 (local.get $out) (call $bf16_code (local.get $u) ${inc} (local.get $overflow) (local.get $inf)))`;
}

function kernel(k: Kernel): string {
  const alu = isAlu(k.combine);
  const sr = k.store === "bf16sr";
  const codes = k.store !== "f32";
  const srcStep = k.src === "f32" ? 4 : 2;
  const outStep = codes ? 2 : 4;
  const params = [
    alu ? "(param $acc i32)" : "",
    "(param $src i32)",
    sr ? "(param $random i32)" : "",
    "(param $out i32) (param $n i32)",
    codes ? "(param $overflow i32) (param $inf i32)" : "",
  ]
    .filter((p) => p !== "")
    .join(" ");
  const bump = (step: number) =>
    [
      alu ? `(local.set $acc (i32.add (local.get $acc) (i32.const ${4 * step})))` : "",
      `(local.set $src (i32.add (local.get $src) (i32.const ${srcStep * step})))`,
      sr ? `(local.set $random (i32.add (local.get $random) (i32.const ${4 * step})))` : "",
      `(local.set $out (i32.add (local.get $out) (i32.const ${outStep * step})))`,
    ]
      .filter((p) => p !== "")
      .join("\n        ");
  return `
  ;; ${k.doc}
  (func (export "${k.name}") ${params}
    (local $vn i32) (local $x0 v128) (local $x1 v128) (local $r0 v128) (local $r1 v128) (local $s f32) (local $u i32)${
      codes
        ? ` (local $ea v128) (local $ec v128) (local $ov v128) (local $iv v128)
    (local.set $ov (i32x4.splat (local.get $overflow)))
    (local.set $iv (i32x4.splat (local.get $inf)))`
        : ""
    }
    (local.set $vn (i32.shr_u (local.get $n) (i32.const 3)))
    (local.set $n (i32.and (local.get $n) (i32.const 7)))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.eqz (local.get $vn)))
        ${loadSource(k.src)}
        ${combineLanes(k.combine, 0)}
        ${combineLanes(k.combine, 1)}
        ${storeLanes(k.store)}
        ${bump(8)}
        (local.set $vn (i32.sub (local.get $vn) (i32.const 1)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.eqz (local.get $n)))
        ${scalarElement(k.combine, k.src)}
        ${scalarStore(k.store)}
        ${bump(1)}
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $t))))
`;
}

const HEADER = `;; GENERATED by tools/wasm/kernels-wat.ts — do not edit; \`npx tsx tools/wasm/build.ts\` rewrites
;; this file and src/numerics/wasm/kernels-binary.ts (test/numerics/wasm-kernels.test.ts checks both).
;;
;; sdmakit numerics: WebAssembly SIMD (128-bit) kernels for the FP32 ALU and the bf16 codec.
;; Every kernel is pinned bit for bit to its JS twin in src/numerics (test/numerics/wasm-kernels.test.ts):
;; - FP32 add / min / max are IEEE binary32 (wasm f32x4.add rounds to nearest even like
;;   Math.fround(a + b); f32x4.min / max are IEEE 754-2019 minimum / maximum: NaN propagates,
;;   -0 < +0, like Math.min / Math.max); every NaN result is then rewritten as 0x7fc00000
;;   (MODEL "ALU NaN results", alu.ts), since wasm leaves a NaN result's bits nondeterministic.
;; - load_* is op(identity, x) for ADD (identity -0), MIN (+inf) and MAX (-inf) alike: x itself,
;;   -0 included, NaN as 0x7fc00000 (aluLoadEncoded, alu.ts).
;; - bf16 decode is code << 16 (exact, NaN payloads kept).
;; - bf16 encode, RNE: (a + 0x7fff + ((a >> 16) & 1)) >> 16 on the magnitude a, then a code at or
;;   above inf is resolved as float-encode.ts does: finite overflow -> $overflow, inf -> $inf,
;;   NaN -> 0x7fc0; the sign is put back last. SR adds the top 16 bits of one random word instead.
;;   The *_bf16rne ALU kernels store the canonicalised result encoded so (and leave $acc as it was).
;;
;; Addresses are byte offsets into this module's memory; counts are elements; $out may equal $acc
;; (in place). Each kernel runs 8 elements per iteration (two 4-lane groups) and a scalar loop for
;; the tail.
(module
  (memory (export "memory") 1)

  ;; The scalar bf16 encoder of one FP32 word $u with rounding increment $inc (tails only).
  (func $bf16_code (param $u i32) (param $inc i32) (param $overflow i32) (param $inf i32) (result i32)
    (local $a i32) (local $code i32)
    (local.set $a (i32.and (local.get $u) (i32.const 0x7fffffff)))
    (local.set $code (i32.shr_u (i32.add (local.get $a) (local.get $inc)) (i32.const 16)))
    (if (i32.ge_u (local.get $code) (i32.const 0x7f80))
      (then
        (local.set $code
          (select (local.get $overflow)
            (select (local.get $inf) (i32.const 0x7fc0) (i32.eq (local.get $a) (i32.const 0x7f800000)))
            (i32.lt_u (local.get $a) (i32.const 0x7f800000))))))
    (i32.or (local.get $code) (i32.and (i32.shr_u (local.get $u) (i32.const 16)) (i32.const 0x8000))))
`;

/** Every kernel, in export order. */
function kernels(): Kernel[] {
  const list: Kernel[] = [];
  for (const src of ["f32", "bf16"] as const) {
    for (const op of ["add", "min", "max"] as const) {
      list.push({
        name: `${op}_${src}`,
        combine: op,
        src,
        store: "f32",
        doc: `out[i] = ${op}(acc[i], ${src}[i])`,
      });
      list.push({
        name: `${op}_${src}_bf16rne`,
        combine: op,
        src,
        store: "bf16rne",
        doc: `out[i] = bf16 RNE code of ${op}(acc[i], ${src}[i])`,
      });
    }
    list.push({
      name: `load_${src}`,
      combine: "load",
      src,
      store: "f32",
      doc: `out[i] = ${src}[i] as FP32, NaN canonical`,
    });
  }
  list.push({
    name: "decode_bf16",
    combine: "pass",
    src: "bf16",
    store: "f32",
    doc: "out[i] = bf16[i] << 16",
  });
  list.push({
    name: "encode_bf16_rne",
    combine: "pass",
    src: "f32",
    store: "bf16rne",
    doc: "out[i] = bf16 RNE code of src[i]",
  });
  list.push({
    name: "encode_bf16_sr",
    combine: "pass",
    src: "f32",
    store: "bf16sr",
    doc: "out[i] = bf16 SR code of src[i], top 16 bits of random[i] added",
  });
  return list;
}

/** The full text of kernels.wat. */
export function kernelsWat(): string {
  return `${HEADER}${kernels().map(kernel).join("")})\n`;
}
