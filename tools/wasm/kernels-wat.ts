// Writes the text of src/numerics/wasm/kernels.wat. Every kernel is one loop over four-element
// groups (two groups an iteration, then single elements for the tail) built from three choices:
// the source dtype (how a group is loaded and decoded to FP32 bits), what is combined (the ALU op
// with the accumulator, or nothing), and what is stored (FP32 bits, or codes of a narrow float /
// integer dtype). The snippets below are the only place each choice is written; the JS twins they
// are pinned to are named beside them. tools/wasm/build.ts writes the .wat and compiles it;
// test/numerics/wasm-kernels.test.ts checks both committed files are current.

/** A dtype as the kernels see it: its width and how its codes become FP32 (or FP32 becomes codes). */
interface Kind {
  /** The name in kernel exports (`add_fp8_e4`, `enc_fp16_sr`). */
  readonly name: string;
  readonly width: 1 | 2 | 4;
  readonly kind: "f32" | "bf16" | "narrow" | "int";
  /** narrow floats: exponent and mantissa bits (float-formats.ts). */
  readonly expBits?: number;
  readonly manBits?: number;
  /** ints: signed, and whether 32-bit (converted unsigned when not signed). */
  readonly signed?: boolean;
}

const narrow = (name: string, width: 1 | 2, expBits: number, manBits: number): Kind => ({
  name,
  width,
  kind: "narrow",
  expBits,
  manBits,
});
const int = (name: string, width: 1 | 2 | 4, signed: boolean): Kind => ({ name, width, kind: "int", signed });

/** Every dtype with kernels, in Dtype order (int64 / uint64 stay in JS: no 64-bit lanes worth it). */
export const KINDS: readonly Kind[] = [
  int("int8", 1, true),
  int("uint8", 1, false),
  int("int16", 2, true),
  int("uint16", 2, false),
  { name: "bf16", width: 2, kind: "bf16" },
  narrow("fp16", 2, 5, 10),
  int("int32", 4, true),
  int("uint32", 4, false),
  { name: "fp32", width: 4, kind: "f32" },
  narrow("fp8_e3", 1, 3, 4),
  narrow("fp8_e4", 1, 4, 3),
  narrow("fp8_e5", 1, 5, 2),
];
const F32 = KINDS.find((k) => k.kind === "f32") as Kind;

/** What a kernel combines an element x with: the ALU op with acc, NaN canonical; or x as is. */
type Combine = "load" | "scale" | "add" | "min" | "max" | "fma" | "pass";
export const ALU_COMBINES = ["load", "scale", "add", "min", "max", "fma"] as const;

const v = (x: number | string) => `(v128.const i32x4 ${x} ${x} ${x} ${x})`;
const get = (name: string) => `(local.get $${name})`;
const set = (name: string, expr: string) => `(local.set $${name} ${expr})`;

/**
 * `fix` (statements) only when some lane of `mask` is set: NaN results, specials and results
 * outside a format's normal range are rare, and skipping their selects halves a group's work.
 */
const rarely = (mask: string, fix: string) => `(if (v128.any_true ${mask}) (then\n          ${fix}))`;

/** Where a group is: group k of an 8-element iteration, or one element (the tail). */
type At = 0 | 1 | "one";
const offset = (at: At, width: number) => (at === 1 ? ` offset=${4 * width}` : "");

/** The group's codes as i32 lanes (sign- or zero-extended), or FP32 bits for a 4-byte dtype. */
function loadCodes(k: Kind, at: At, from = "src"): string {
  const src = get(from);
  const signed = k.kind === "int" && k.signed;
  const s = signed ? "s" : "u";
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

/**
 * $x combined with the accumulator into $r, every NaN written as 0x7fc00000 (alu.ts MODEL "NaN
 * results"; wasm leaves a NaN result's bits open). f32x4.min / max are IEEE 754-2019 minimum /
 * maximum (NaN propagates, −0 < +0), like Math.min / Math.max. FMA is x·scale + acc with one
 * rounding: x·scale is exact in a double, the double sum is made round-to-odd from its exact error
 * (TwoSum), and round-to-odd at 53 bits then to nearest at 24 is the correctly rounded FMA (53 ≥
 * 24 + 2); fma.ts gets the same bits another way.
 */
function combine(c: Combine, at: At, fromSource: boolean): string {
  if (c === "pass") return set("r", get("x"));
  const acc = fromSource
    ? get("b")
    : at === "one"
      ? `(v128.load32_zero ${get("acc")})`
      : `(v128.load${offset(at, 4)} ${get("acc")})`;
  let r: string;
  if (c === "load") r = set("r", get("x"));
  else if (c === "scale") {
    // FMA into a +0 accumulator: x·scale is exact in a double, so one demote is its one rounding;
    // adding +0 turns a −0 product into +0 as x·scale + (+0) does.
    const product = (x: string) =>
      `(f32x4.demote_f64x2_zero (f64x2.mul (f64x2.promote_low_f32x4 ${x}) ${get("scale2")}))`;
    const high = `(i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 ${get("x")} ${get("x")})`;
    r = set(
      "r",
      `(f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 ${product(get("x"))} ${product(high)}) ${v(0)})`,
    );
  } else if (c !== "fma") r = set("r", `(f32x4.${c} ${acc} ${get("x")})`);
  else {
    const half = (x: string, a: string, to: string) =>
      [
        set("p", `(f64x2.mul (f64x2.promote_low_f32x4 ${x}) ${get("scale2")})`),
        set("q", `(f64x2.promote_low_f32x4 ${a})`),
        set("s", `(f64x2.add ${get("p")} ${get("q")})`),
        // The double sum made round-to-odd from TwoSum's exact error e: inexact (e ≠ 0, not NaN)
        // with an even last bit → one ulp towards the exact sum. Branch-free: a branch on "sum on
        // an FP32 midpoint" mispredicts on ordinary data (two FP32 values an exponent apart sum to
        // a midpoint half the time) and cost 2.5× this.
        set("t", `(f64x2.sub ${get("s")} ${get("p")})`),
        set(
          "e",
          `(f64x2.add (f64x2.sub ${get("p")} (f64x2.sub ${get("s")} ${get("t")})) (f64x2.sub ${get("q")} ${get("t")}))`,
        ),
        set(
          "t",
          `(v128.and
          (v128.and (v128.or (f64x2.lt ${get("e")} (v128.const f64x2 0 0)) (f64x2.gt ${get("e")} (v128.const f64x2 0 0)))
            (i64x2.eq (v128.and ${get("s")} (v128.const i64x2 1 1)) (v128.const i64x2 0 0)))
          (v128.or (v128.xor (f64x2.gt ${get("e")} (v128.const f64x2 0 0)) (f64x2.gt ${get("s")} (v128.const f64x2 0 0))) (v128.const i64x2 1 1)))`,
        ),
        set(to, `(f32x4.demote_f64x2_zero (i64x2.add ${get("s")} ${get("t")}))`),
      ].join("\n        ");
    const high = (x: string) => `(i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 ${x} ${x})`;
    r = [
      set("a", acc),
      half(get("x"), get("a"), "r"),
      half(high(get("x")), high(get("a")), "y"),
      set("r", `(i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 ${get("r")} ${get("y")})`),
    ].join("\n        ");
  }
  const nan = `(f32x4.ne ${get("r")} ${get("r")})`;
  return `${r}
        ${rarely(nan, set("r", `(v128.bitselect ${v(0x7fc00000)} ${get("r")} ${nan})`))}`;
}

/** The next xoshiro128** word of the stream held in $s0..$s3 into $w (sr-stream.ts fillU32). */
const XOSHIRO = `(local.set $w (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9)))
        (local.set $t0 (i32.shl (local.get $s1) (i32.const 9)))
        (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
        (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
        (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
        (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
        (local.set $s2 (i32.xor (local.get $s2) (local.get $t0)))
        (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))`;

/** One random word per element of the group, in element order, into $rnd. */
function randomWords(at: At): string {
  if (at === "one") return `${XOSHIRO}\n        ${set("rnd", "(i32x4.splat (local.get $w))")}`;
  const lanes = [0, 1, 2, 3].map(
    (lane) =>
      `${XOSHIRO}\n        ${set("rnd", lane === 0 ? "(i32x4.splat (local.get $w))" : `(i32x4.replace_lane ${lane} ${get("rnd")} (local.get $w))`)}`,
  );
  return lanes.join("\n        ");
}

/**
 * FP32 bits $r → the codes of a narrow float, rounded to nearest even or stochastically, into $c
 * (float-encode.ts encodeBf16 / encodeGeneric, the MODEL documented there). bf16 adds the increment
 * to the magnitude (FP32 subnormals included). Other formats: a normal result is rebiased and
 * rounded by add-and-shift; one below the format's smallest normal is scaled exactly so that its
 * code is the integer part: rounded with f32x4.nearest (ties to even), or truncated at the random
 * window and the random bits added; finite overflow → $ov, ±inf → $iv, NaN → the quiet NaN.
 */
function encodeFloat(k: Kind, sr: boolean): string {
  const u = get("r");
  const a = `(v128.and ${u} ${v(0x7fffffff)})`;
  if (k.kind === "bf16") {
    const inc = sr
      ? `(i32x4.shr_u ${get("rnd")} (i32.const 16))`
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
  const random = `(i32x4.shr_u ${get("rnd")} (i32.const ${32 - dropped}))`;
  const inc = sr
    ? random
    : `(i32x4.add ${v((1 << (dropped - 1)) - 1)} (v128.and (i32x4.shr_u ${get("c")} (i32.const ${dropped})) ${v(1)}))`;
  // |x| · 2^scale is the code of a value below the smallest normal (plus `dropped` more bits for SR)
  const scale = bias + manBits - 1 + (sr ? dropped : 0);
  const scaled = `(f32x4.mul ${get("m")} (v128.const f32x4 0x1p${scale} 0x1p${scale} 0x1p${scale} 0x1p${scale}))`;
  const below = sr
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
 * (trunc_sat saturates to 32 bits and maps NaN to 0; the narrowing stores saturate further).
 */
function encodeInt(k: Kind): string {
  const trunc = k.width === 4 && !k.signed ? "i32x4.trunc_sat_f32x4_u" : "i32x4.trunc_sat_f32x4_s";
  return set("c", `(${trunc} (f32x4.nearest ${get("r")}))`);
}

/** Store $c (codes) or $r (FP32 bits) for the group; 8- and 16-bit codes narrow with saturation. */
function store(k: Kind, at: At): string {
  const out = get("out");
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

interface Kernel {
  readonly name: string;
  readonly src: Kind;
  readonly combine: Combine;
  /**
   * Where the accumulator operand comes from: FP32 words at $acc, or (the two-source kernels) a
   * first source of this dtype at $acc, decoded like $src.
   */
  readonly first?: Kind;
  /** The stored dtype (FP32 for the ALU kernels) and, for a narrow float, stochastic rounding. */
  readonly out: Kind;
  readonly sr: boolean;
  readonly doc: string;
}

function group(k: Kernel, at: At): string {
  const encoded =
    k.out.kind === "f32" ? "" : k.out.kind === "int" ? encodeInt(k.out) : encodeFloat(k.out, k.sr);
  const first = k.first;
  return [
    first ? `${decode(first, loadCodes(first, at, "acc"))}\n        ${set("b", get("x"))}` : "",
    decode(k.src, loadCodes(k.src, at)),
    combine(k.combine, at, first !== undefined),
    k.sr ? randomWords(at) : "",
    encoded,
    store(k.out, at),
  ]
    .filter((s) => s !== "")
    .join("\n        ");
}

function kernel(k: Kernel): string {
  const acc = k.combine !== "load" && k.combine !== "scale" && k.combine !== "pass";
  const codes = k.out.kind === "narrow" || k.out.kind === "bf16";
  const bump = (elements: number) =>
    [
      acc
        ? `(local.set $acc (i32.add (local.get $acc) (i32.const ${(k.first?.width ?? 4) * elements})))`
        : "",
      `(local.set $src (i32.add (local.get $src) (i32.const ${k.src.width * elements})))`,
      `(local.set $out (i32.add (local.get $out) (i32.const ${k.out.width * elements})))`,
    ]
      .filter((p) => p !== "")
      .join("\n        ");
  const params = [
    acc ? "(param $acc i32)" : "",
    "(param $src i32) (param $out i32) (param $n i32)",
    k.combine === "fma" || k.combine === "scale" ? "(param $scale f64)" : "",
    codes ? "(param $overflow i32) (param $inf i32)" : "",
  ]
    .filter((p) => p !== "")
    .join(" ");
  const locals = [
    "(local $vn i32) (local $x v128) (local $r v128) (local $c v128) (local $m v128) (local $b v128)",
    k.combine === "fma" || k.combine === "scale"
      ? "(local $a v128) (local $y v128) (local $p v128) (local $q v128) (local $s v128) (local $t v128) (local $e v128) (local $scale2 v128)"
      : "",
    codes ? "(local $ov v128) (local $iv v128)" : "",
    k.sr
      ? "(local $rnd v128) (local $w i32) (local $t0 i32) (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32)"
      : "",
  ]
    .filter((p) => p !== "")
    .join("\n    ");
  const setup = [
    k.combine === "fma" || k.combine === "scale"
      ? "(local.set $scale2 (f64x2.splat (local.get $scale)))"
      : "",
    codes
      ? "(local.set $ov (i32x4.splat (local.get $overflow))) (local.set $iv (i32x4.splat (local.get $inf)))"
      : "",
    k.sr
      ? "(local.set $s0 (global.get $sr0)) (local.set $s1 (global.get $sr1)) (local.set $s2 (global.get $sr2)) (local.set $s3 (global.get $sr3))"
      : "",
  ]
    .filter((p) => p !== "")
    .join("\n    ");
  const finish = k.sr
    ? "\n    (global.set $sr0 (local.get $s0)) (global.set $sr1 (local.get $s1)) (global.set $sr2 (local.get $s2)) (global.set $sr3 (local.get $s3))"
    : "";
  return `
  ;; ${k.doc}
  (func (export "${k.name}") ${params}
    ${locals}
    ${setup}
    (local.set $vn (i32.shr_u (local.get $n) (i32.const 3)))
    (local.set $n (i32.and (local.get $n) (i32.const 7)))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.eqz (local.get $vn)))
        ${group(k, 0)}
        ${group(k, 1)}
        ${bump(8)}
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
;; this file and src/numerics/wasm/kernels-binary.ts (test/numerics/wasm-kernels.test.ts checks both).
;;
;; sdmakit numerics: WebAssembly SIMD (128-bit) kernels for every dtype but the 64-bit integers.
;; Each is pinned bit for bit to its JS twin in src/numerics (test/numerics/wasm-kernels.test.ts)
;; and to the APFloat golden vectors (test/vectors):
;; - dec_<dt>(src, out, n): codes → FP32 bits, exact, NaN payloads kept (codec.ts decodeToF32).
;; - load_<dt>(src, out, n): the same with every NaN as 0x7fc00000 (alu.ts aluLoadEncoded).
;; - add / min / max_<dt>(acc, src, out, n): out = op(acc, decoded src), NaN canonical (alu.ts).
;; - fma_<dt>(acc, src, out, n, scale): out = src·scale + acc rounded once (fma.ts), NaN canonical;
;;   scale_<dt>(src, out, n, scale): the same with acc = +0 (an FMA reduce's first source).
;; - add2 / min2 / max2_<dt>[_sr](a, src, out, n, overflow, inf): out = the <dt> code of op(a, src),
;;   both sources of <dt>, no accumulator (a two-source reduce in one pass).
;; - enc_<dt>(src, out, n[, overflow, inf]): FP32 bits → codes, RNE (float-encode.ts, int-encode.ts);
;;   enc_<dt>_sr: stochastic rounding, drawing one xoshiro128** word per element from the stream in
;;   globals sr0..sr3 (sr-stream.ts), which the caller loads before and reads back after.
;;   $overflow / $inf: the magnitude codes the overflow policy gives a finite overflow / an inf.
;; Addresses are byte offsets into this module's memory (any alignment); counts are elements; $out
;; may equal $acc. Two four-element groups an iteration, then one element at a time.
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
  for (const src of KINDS) {
    if (src.kind !== "f32") {
      list.push({
        name: `dec_${src.name}`,
        src,
        combine: "pass",
        out: F32,
        sr: false,
        doc: `out[i] = ${src.name}[i] as FP32 bits`,
      });
    }
    for (const c of ALU_COMBINES) {
      list.push({
        name: `${c}_${src.name}`,
        src,
        combine: c,
        out: F32,
        sr: false,
        doc: `out[i] = ${c}(acc[i], ${src.name}[i])`,
      });
    }
  }
  for (const src of KINDS) {
    for (const c of ["add", "min", "max"] as const) {
      const two = { src, first: src, combine: c, out: src };
      list.push({
        ...two,
        name: `${c}2_${src.name}`,
        sr: false,
        doc: `out[i] = ${src.name} RNE code of ${c}(first[i], src[i])`,
      });
      if (src.kind === "narrow" || src.kind === "bf16") {
        list.push({
          ...two,
          name: `${c}2_${src.name}_sr`,
          sr: true,
          doc: `out[i] = ${src.name} SR code of ${c}(first[i], src[i])`,
        });
      }
    }
  }
  for (const out of KINDS) {
    if (out.kind === "f32") continue;
    list.push({
      name: `enc_${out.name}`,
      src: F32,
      combine: "pass",
      out,
      sr: false,
      doc: `out[i] = ${out.name} RNE code of src[i]`,
    });
    if (out.kind !== "int") {
      list.push({
        name: `enc_${out.name}_sr`,
        src: F32,
        combine: "pass",
        out,
        sr: true,
        doc: `out[i] = ${out.name} SR code of src[i]`,
      });
    }
  }
  return list;
}

/** The full text of kernels.wat. */
export function kernelsWat(): string {
  return `${HEADER}${kernelList().map(kernel).join("")})\n`;
}
