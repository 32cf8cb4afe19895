/** The largest finite FP32, (2 − 2^-23)·2^127. */
const F32_MAX = 3.4028234663852886e38;
/** Halfway between F32_MAX and 2^128: the FP32 overflow threshold, (2 − 2^-24)·2^127. */
const F32_OVERFLOW_MIDPOINT = 3.4028235677973366e38;

/**
 * The fused multiply-add a·b + c of FP32 values, rounded once to FP32 (nearest, ties to even).
 *
 * a·b is exact in a double (2 × 24 ≤ 53 bits); p + c is not, and rounding it to a double and then
 * to FP32 can round twice: `Math.fround(a*b + c)` is wrong exactly when the double sum s lands on
 * an FP32 midpoint while the exact sum does not. (Every FP32 midpoint is a double and rounding is
 * monotone, so an s that is not a midpoint already lies on the correct side.) TwoSum gives the
 * exact error e = (p + c) − s; when e ≠ 0 and s is a midpoint, the correct result is the
 * neighbour on e's side. s is a midpoint iff its reflection 2s − r about r = fround(s) (exact in
 * a double) is itself an FP32 value; at the overflow threshold the neighbours are ±max and ±inf.
 */
export function fmaF32(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = Math.fround(s);
  if (r === s || Number.isNaN(s)) return r;
  const sp = s - p;
  const err = p - (s - sp) + (c - sp);
  if (err === 0) return r;
  const overflowed = r === Number.POSITIVE_INFINITY || r === Number.NEGATIVE_INFINITY;
  const other = overflowed ? Math.sign(s) * F32_MAX : 2 * s - r;
  const midpoint = overflowed ? Math.abs(s) === F32_OVERFLOW_MIDPOINT : Math.fround(other) === other;
  if (!midpoint) return r;
  return err > 0 === other > r ? other : r;
}
