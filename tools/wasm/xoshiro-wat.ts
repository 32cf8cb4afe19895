// xoshiro128** (numerics/sr-stream.ts nextU32) as .wat, declared once for every generator that
// steps the stream: in scalar i32 locals (one stream), or in v128 locals whose four lanes are four
// streams (the SIMD lanes sr-jump.ts jumps apart). The state is in locals $s0..$s3.

/** rotl of each 32-bit lane of `x` by `k` (wasm has no SIMD rotate). */
export const rotl4 = (x: string, k: number) =>
  `(v128.or (i32x4.shl ${x} (i32.const ${k})) (i32x4.shr_u ${x} (i32.const ${32 - k})))`;

/** Local `into` ← the output word rotl(s1 · 5, 7) · 9 of `s1` (an i32, or four in a v128). */
export function xoshiroWord(simd: boolean, s1: string, into: string): string {
  if (!simd)
    return `(local.set $${into} (i32.mul (i32.rotl (i32.mul ${s1} (i32.const 5)) (i32.const 7)) (i32.const 9)))`;
  const v = `(local.get $${into})`;
  // x · 5 = x + (x << 2), x · 9 = x + (x << 3): i32x4.mul is pmulld on x64 (2 uops, 10 cycles'
  // latency), shift and add 2 one-cycle uops; 7–11 % faster draws (gen2_float_x4, sr_words). Through
  // `into`, as each reads its operand twice; `s1` is a local.get.
  return `(local.set $${into} (i32x4.add ${s1} (i32x4.shl ${s1} (i32.const 2))))
        (local.set $${into} ${rotl4(v, 7)})
        (local.set $${into} (i32x4.add ${v} (i32x4.shl ${v} (i32.const 3))))`;
}

/** One state update of $s0..$s3 (i32, or v128 lanes), `t` a temporary local of the same type. */
export function xoshiroStep(simd: boolean, t: string): string {
  const s = (i: number) => `(local.get $s${i})`;
  const xor = (a: number, b: string) => `(local.set $s${a} (${simd ? "v128" : "i32"}.xor ${s(a)} ${b}))`;
  const rotl = simd ? rotl4(s(3), 11) : `(i32.rotl ${s(3)} (i32.const 11))`;
  return [
    `(local.set $${t} (${simd ? "i32x4" : "i32"}.shl ${s(1)} (i32.const 9)))`,
    xor(2, s(0)),
    xor(3, s(1)),
    xor(1, s(2)),
    xor(0, s(3)),
    xor(2, `(local.get $${t})`),
    `(local.set $s3 ${rotl})`,
  ].join("\n        ");
}
