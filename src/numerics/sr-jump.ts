/**
 * Jumping the xoshiro128** stream (sr-stream.ts) ahead by a number of words, so that four SIMD
 * lanes can draw four quarters of a span at once and the span still takes the stream's words in
 * order (wasm/sr-lanes.ts; the check module's gen<w>_x4). The state update is linear over GF(2), so
 * L steps are a 128 × 128 bit matrix, made by squaring (≈ 2 ms) and applied in 128 xors of 4 words.
 */

/** A 128 × 128 bit matrix over GF(2): column j (4 words) is the image of state bit j. */
type Matrix = Uint32Array<ArrayBuffer>;

/** One state update of xoshiro128** (sr-stream.ts nextU32 without its output), in place. */
function step(s: Uint32Array): void {
  const s0 = s[0] as number;
  const s1 = s[1] as number;
  const s2 = (s[2] as number) ^ s0;
  const s3 = (s[3] as number) ^ s1;
  s[0] = s0 ^ s3;
  s[1] = s1 ^ s2;
  s[2] = s2 ^ (s1 << 9);
  s[3] = (s3 << 11) | (s3 >>> 21);
}

/** out ← m · v (out must not be v). */
function apply(m: Matrix, v: Uint32Array, out: Uint32Array, outAt = 0, mAt = 0): void {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let j = 0; j < 128; j++) {
    if ((((v[j >>> 5] as number) >>> (j & 31)) & 1) === 0) continue;
    const k = mAt + 4 * j;
    a ^= m[k] as number;
    b ^= m[k + 1] as number;
    c ^= m[k + 2] as number;
    d ^= m[k + 3] as number;
  }
  out[outAt] = a;
  out[outAt + 1] = b;
  out[outAt + 2] = c;
  out[outAt + 3] = d;
}

/** a ∘ b (apply b, then a). */
function compose(a: Matrix, b: Matrix): Matrix {
  const out = new Uint32Array(512);
  for (let j = 0; j < 128; j++) apply(a, b.subarray(4 * j, 4 * j + 4), out, 4 * j);
  return out;
}

/** The matrix of `steps` state updates. */
export function jumpMatrix(steps: number): Matrix {
  let power: Matrix = new Uint32Array(512); // one step
  for (let j = 0; j < 128; j++) {
    const s = power.subarray(4 * j, 4 * j + 4);
    s[j >>> 5] = 1 << (j & 31);
    step(s);
  }
  let result: Matrix | undefined;
  for (let n = steps; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) result = result === undefined ? power : compose(power, result);
    if (n > 1) power = compose(power, power);
  }
  if (result !== undefined) return result;
  const identity = new Uint32Array(512);
  for (let j = 0; j < 128; j++) identity[4 * j + (j >>> 5)] = 1 << (j & 31);
  return identity;
}

/** `out` ← the state `m` jumps `state` to. */
export function jump(m: Matrix, state: Uint32Array, out: Uint32Array): void {
  apply(m, state, out);
}

/** The jumps of 2^i steps, POWERS[i], made as far as asked (each the square of the one before). */
const POWERS: Matrix[] = [];

/**
 * Jump `state` (in place) `steps` words ahead, through the jumps of the powers of two in `steps`
 * (made once a process: a span's lanes jump by any length without a matrix of their own).
 */
export function jumpAhead(state: Uint32Array, steps: number): void {
  const next = new Uint32Array(4);
  for (let i = 0, n = steps; n > 0; i++, n = Math.floor(n / 2)) {
    POWERS[i] ??= i === 0 ? jumpMatrix(1) : compose(POWERS[i - 1] as Matrix, POWERS[i - 1] as Matrix);
    if (n % 2 === 0) continue;
    apply(POWERS[i] as Matrix, state, next);
    state.set(next);
  }
}
