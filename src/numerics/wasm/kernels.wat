;; sdmakit numerics: WebAssembly SIMD (128-bit) kernels for the FP32 ALU and the bf16 codec.
;;
;; Every kernel is pinned bit for bit to its JS twin in src/numerics (test/numerics/wasm-kernels.test.ts):
;; - FP32 add / min / max are IEEE binary32 (wasm f32x4.add rounds to nearest even like
;;   Math.fround(a + b); f32x4.min / max are IEEE 754-2019 minimum / maximum: NaN propagates,
;;   -0 < +0, like Math.min / Math.max); every NaN result is then rewritten as 0x7fc00000
;;   (MODEL "ALU NaN results", alu.ts), since wasm leaves a NaN result's bits nondeterministic.
;; - bf16 decode is code << 16 (exact, NaN payloads kept).
;; - bf16 encode, RNE: (a + 0x7fff + ((a >> 16) & 1)) >> 16 on the magnitude a, then a code at or
;;   above inf is resolved as float-encode.ts does: finite overflow -> $overflow, inf -> $inf,
;;   NaN -> 0x7fc0; the sign is put back last. SR adds the top 16 bits of one random word instead.
;;
;; Addresses are byte offsets into this module's memory; counts are elements. Each kernel runs a
;; 4- or 8-lane loop and a scalar loop for the tail. Regenerate the committed binary with
;; `npx tsx tools/wasm/build.ts` (src/numerics/wasm/kernels-binary.ts).
(module
  (memory (export "memory") 1)

  ;; ---- FP32 ALU: acc[i] = op(acc[i], src[i]) ---------------------------------------------------

  (func (export "add_f32") (param $acc i32) (param $src i32) (param $n i32)
    (local $vend i32) (local $end i32) (local $r v128) (local $s f32)
    (local.set $vend (i32.add (local.get $acc) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $acc) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $acc) (local.get $vend)))
        (local.set $r (f32x4.add (v128.load (local.get $acc)) (v128.load (local.get $src))))
        (v128.store (local.get $acc)
          (v128.bitselect (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)
            (local.get $r) (f32x4.ne (local.get $r) (local.get $r))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $acc) (local.get $end)))
        (local.set $s (f32.add (f32.load (local.get $acc)) (f32.load (local.get $src))))
        (i32.store (local.get $acc)
          (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $t))))

  (func (export "min_f32") (param $acc i32) (param $src i32) (param $n i32)
    (local $vend i32) (local $end i32) (local $r v128) (local $s f32)
    (local.set $vend (i32.add (local.get $acc) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $acc) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $acc) (local.get $vend)))
        (local.set $r (f32x4.min (v128.load (local.get $acc)) (v128.load (local.get $src))))
        (v128.store (local.get $acc)
          (v128.bitselect (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)
            (local.get $r) (f32x4.ne (local.get $r) (local.get $r))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $acc) (local.get $end)))
        (local.set $s (f32.min (f32.load (local.get $acc)) (f32.load (local.get $src))))
        (i32.store (local.get $acc)
          (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $t))))

  (func (export "max_f32") (param $acc i32) (param $src i32) (param $n i32)
    (local $vend i32) (local $end i32) (local $r v128) (local $s f32)
    (local.set $vend (i32.add (local.get $acc) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $acc) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $acc) (local.get $vend)))
        (local.set $r (f32x4.max (v128.load (local.get $acc)) (v128.load (local.get $src))))
        (v128.store (local.get $acc)
          (v128.bitselect (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)
            (local.get $r) (f32x4.ne (local.get $r) (local.get $r))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $acc) (local.get $end)))
        (local.set $s (f32.max (f32.load (local.get $acc)) (f32.load (local.get $src))))
        (i32.store (local.get $acc)
          (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br $t))))

  ;; ---- bf16 source fused into the FP32 ALU: acc[i] = op(acc[i], bf16[i] << 16) -----------------

  (func (export "add_bf16") (param $acc i32) (param $src i32) (param $n i32)
    (local $vend i32) (local $end i32) (local $r v128) (local $s f32)
    (local.set $vend (i32.add (local.get $acc) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $acc) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $acc) (local.get $vend)))
        (local.set $r (f32x4.add (v128.load (local.get $acc))
          (i32x4.shl (i32x4.extend_low_i16x8_u (v128.load64_zero (local.get $src))) (i32.const 16))))
        (v128.store (local.get $acc)
          (v128.bitselect (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)
            (local.get $r) (f32x4.ne (local.get $r) (local.get $r))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 8)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $acc) (local.get $end)))
        (local.set $s (f32.add (f32.load (local.get $acc))
          (f32.reinterpret_i32 (i32.shl (i32.load16_u (local.get $src)) (i32.const 16)))))
        (i32.store (local.get $acc)
          (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (br $t))))

  (func (export "min_bf16") (param $acc i32) (param $src i32) (param $n i32)
    (local $vend i32) (local $end i32) (local $r v128) (local $s f32)
    (local.set $vend (i32.add (local.get $acc) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $acc) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $acc) (local.get $vend)))
        (local.set $r (f32x4.min (v128.load (local.get $acc))
          (i32x4.shl (i32x4.extend_low_i16x8_u (v128.load64_zero (local.get $src))) (i32.const 16))))
        (v128.store (local.get $acc)
          (v128.bitselect (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)
            (local.get $r) (f32x4.ne (local.get $r) (local.get $r))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 8)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $acc) (local.get $end)))
        (local.set $s (f32.min (f32.load (local.get $acc))
          (f32.reinterpret_i32 (i32.shl (i32.load16_u (local.get $src)) (i32.const 16)))))
        (i32.store (local.get $acc)
          (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (br $t))))

  (func (export "max_bf16") (param $acc i32) (param $src i32) (param $n i32)
    (local $vend i32) (local $end i32) (local $r v128) (local $s f32)
    (local.set $vend (i32.add (local.get $acc) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $acc) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $acc) (local.get $vend)))
        (local.set $r (f32x4.max (v128.load (local.get $acc))
          (i32x4.shl (i32x4.extend_low_i16x8_u (v128.load64_zero (local.get $src))) (i32.const 16))))
        (v128.store (local.get $acc)
          (v128.bitselect (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)
            (local.get $r) (f32x4.ne (local.get $r) (local.get $r))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 8)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $acc) (local.get $end)))
        (local.set $s (f32.max (f32.load (local.get $acc))
          (f32.reinterpret_i32 (i32.shl (i32.load16_u (local.get $src)) (i32.const 16)))))
        (i32.store (local.get $acc)
          (select (i32.const 0x7fc00000) (i32.reinterpret_f32 (local.get $s)) (f32.ne (local.get $s) (local.get $s))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (br $t))))

  ;; ---- bf16 codec ---------------------------------------------------------------------------------

  ;; out[i] = bf16[i] << 16 (FP32 bits).
  (func (export "decode_bf16") (param $src i32) (param $out i32) (param $n i32)
    (local $vend i32) (local $end i32)
    (local.set $vend (i32.add (local.get $out) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $out) (local.get $vend)))
        (v128.store (local.get $out)
          (i32x4.shl (i32x4.extend_low_i16x8_u (v128.load64_zero (local.get $src))) (i32.const 16)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 8)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out) (i32.shl (i32.load16_u (local.get $src)) (i32.const 16)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (br $t))))

  ;; One lane group of the bf16 encoder: codes (in i32 lanes) of the FP32 bits $u with the rounding
  ;; increment $inc added to each magnitude (RNE: 0x7fff + kept LSB; SR: random >> 16).
  (func $bf16_codes (param $u v128) (param $inc v128) (param $overflow v128) (param $inf v128) (result v128)
    (local $a v128) (local $code v128)
    (local.set $a (v128.and (local.get $u) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
    (local.set $code (i32x4.shr_u (i32x4.add (local.get $a) (local.get $inc)) (i32.const 16)))
    ;; code >= 0x7f80: finite overflow (a < inf bits), inf (a == inf bits) or NaN -> 0x7fc0
    (local.set $code
      (v128.bitselect
        (v128.bitselect (local.get $overflow)
          (v128.bitselect (local.get $inf) (v128.const i32x4 0x7fc0 0x7fc0 0x7fc0 0x7fc0)
            (i32x4.eq (local.get $a) (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000)))
          (i32x4.lt_u (local.get $a) (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000)))
        (local.get $code)
        (i32x4.ge_u (local.get $code) (v128.const i32x4 0x7f80 0x7f80 0x7f80 0x7f80))))
    (v128.or (local.get $code)
      (v128.and (i32x4.shr_u (local.get $u) (i32.const 16)) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000))))

  ;; The scalar twin of $bf16_codes, for tails.
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

  ;; RNE: out[i] = bf16 code of the FP32 bits src[i]; $overflow / $inf are the magnitude codes a
  ;; finite overflow / an infinite input become under the overflow policy (float-encode.ts).
  (func (export "encode_bf16_rne") (param $src i32) (param $out i32) (param $n i32) (param $overflow i32) (param $inf i32)
    (local $vend i32) (local $end i32) (local $u v128) (local $w v128) (local $ov v128) (local $iv v128) (local $s i32)
    (local.set $ov (i32x4.splat (local.get $overflow)))
    (local.set $iv (i32x4.splat (local.get $inf)))
    (local.set $vend (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -8)) (i32.const 2))))
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $src) (local.get $vend)))
        (local.set $u (v128.load (local.get $src)))
        (local.set $w (v128.load offset=16 (local.get $src)))
        (v128.store (local.get $out)
          (i16x8.narrow_i32x4_u
            (call $bf16_codes (local.get $u)
              (i32x4.add (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)
                (v128.and (i32x4.shr_u (local.get $u) (i32.const 16)) (v128.const i32x4 1 1 1 1)))
              (local.get $ov) (local.get $iv))
            (call $bf16_codes (local.get $w)
              (i32x4.add (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)
                (v128.and (i32x4.shr_u (local.get $w) (i32.const 16)) (v128.const i32x4 1 1 1 1)))
              (local.get $ov) (local.get $iv))))
        (local.set $src (i32.add (local.get $src) (i32.const 32)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $s (i32.load (local.get $src)))
        (i32.store16 (local.get $out)
          (call $bf16_code (local.get $s)
            (i32.add (i32.const 0x7fff) (i32.and (i32.shr_u (local.get $s) (i32.const 16)) (i32.const 1)))
            (local.get $overflow) (local.get $inf)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (br $t))))

  ;; SR: as RNE, with the top 16 bits of random[i] (one 32-bit word per element) as the increment.
  (func (export "encode_bf16_sr") (param $src i32) (param $random i32) (param $out i32) (param $n i32) (param $overflow i32) (param $inf i32)
    (local $vend i32) (local $end i32) (local $ov v128) (local $iv v128)
    (local.set $ov (i32x4.splat (local.get $overflow)))
    (local.set $iv (i32x4.splat (local.get $inf)))
    (local.set $vend (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -8)) (i32.const 2))))
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $n) (i32.const 2))))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.ge_u (local.get $src) (local.get $vend)))
        (v128.store (local.get $out)
          (i16x8.narrow_i32x4_u
            (call $bf16_codes (v128.load (local.get $src))
              (i32x4.shr_u (v128.load (local.get $random)) (i32.const 16)) (local.get $ov) (local.get $iv))
            (call $bf16_codes (v128.load offset=16 (local.get $src))
              (i32x4.shr_u (v128.load offset=16 (local.get $random)) (i32.const 16)) (local.get $ov) (local.get $iv))))
        (local.set $src (i32.add (local.get $src) (i32.const 32)))
        (local.set $random (i32.add (local.get $random) (i32.const 32)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $t
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (i32.store16 (local.get $out)
          (call $bf16_code (i32.load (local.get $src))
            (i32.shr_u (i32.load (local.get $random)) (i32.const 16)) (local.get $overflow) (local.get $inf)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (local.set $random (i32.add (local.get $random) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (br $t))))
)
