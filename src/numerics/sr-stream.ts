import { FieldError } from "../bits/errors.js";

/** A source of uniformly random 32-bit words: what stochastic rounding draws from. */
export interface RandomSource {
  /** The next 32 random bits, as an unsigned integer in 0..2^32−1. */
  nextU32(): number;
  /**
   * Optional fast path: the next `count` words into out[0, count), exactly the words `count`
   * calls of {@link nextU32} would return. The encoders use it when present.
   */
  fillU32?(out: Uint32Array, count: number): void;
}

/**
 * State words `from` into `to` (four each), element by element: a typed array's set() is a builtin
 * call, ≈ 14 ns for four words against ≈ 3, and the engine does it for every SR packet.
 */
export function copyState(to: Uint32Array, from: Uint32Array): void {
  to[0] = from[0] as number;
  to[1] = from[1] as number;
  to[2] = from[2] as number;
  to[3] = from[3] as number;
}

/**
 * MODEL — the stochastic-rounding random source. The device RNG is unpublished
 * (../shared/GROUND_TRUTH.md); we use xoshiro128** (Blackman & Vigna, 2018): 128 bits of uint32
 * state, full period 2^128 − 1, passes BigCrush, four xors and two multiplies per word. The
 * 32-bit seed (what the seed-init descriptor loads, NEURON_RT_STOCHASTIC_ROUNDING_SEED) is
 * expanded into the four state words by splitmix32 (a Weyl sequence through murmur3's fmix32),
 * so that nearby seeds give unrelated streams and no seed gives the forbidden all-zero state.
 * One stream per DMA queue; test/vectors/xoshiro.json pins the words against the C reference.
 */
export class SrStream implements RandomSource {
  // A typed array keeps the state unboxed: uint32 values above 2^31 in object fields would be
  // heap numbers in V8.
  private readonly state = new Uint32Array(4);
  /**
   * The last seed (NaN before the first, which no seed equals) and the state it gave: {@link atSeed}
   * tells whether the stream is still there.
   */
  private seed = Number.NaN;
  private readonly seeded = new Uint32Array(4);

  /**
   * @param seed the 32-bit seed, an integer in 0..2^32−1.
   * @throws {FieldError} when the seed is not such an integer.
   * @example const rng = new SrStream(42); rng.nextU32();
   */
  constructor(seed: number) {
    this.reseed(seed);
  }

  /**
   * Restart the stream from a seed, as the seed-init descriptor does for its queue.
   * @throws {FieldError} when the seed is not an integer in 0..2^32−1.
   * @example rng.reseed(7);
   */
  reseed(seed: number): void {
    // A queue's SR packets reseed with its one seed, packet after packet: the state it gave
    // (≈ 4 ns against ≈ 18 for the expansion).
    if (seed === this.seed) {
      copyState(this.state, this.seeded);
      return;
    }
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new FieldError("sr-stream", "seed", seed, "0..4294967295");
    }
    let weyl = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      weyl = (weyl + 0x9e3779b9) >>> 0;
      let z = weyl;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      this.state[i] = z ^ (z >>> 16);
    }
    this.seed = seed;
    copyState(this.seeded, this.state);
    // fmix32 is a bijection, so four distinct Weyl inputs give four distinct words: never all zero.
  }

  /**
   * The next 32 random bits, as an unsigned integer.
   * @example const bits = rng.nextU32(); // 0 ≤ bits < 2^32
   */
  nextU32(): number {
    const s = this.state;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    s[0] = s0 ^ s3;
    s[1] = s1 ^ s2;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /**
   * The seed of the last {@link reseed} when the state is still the one it gave (no word drawn
   * since), else undefined. The words ahead then depend on the seed alone: the engine reseeds every
   * SR packet of a queue with the queue's seed, so they can be drawn once (wasm/sr-words.ts).
   * @example new SrStream(7).atSeed(); // 7
   */
  atSeed(): number | undefined {
    const s = this.state;
    const t = this.seeded;
    return s[0] === t[0] && s[1] === t[1] && s[2] === t[2] && s[3] === t[3] ? this.seed : undefined;
  }

  /**
   * The live state (four uint32 words), for the wasm kernels that run this stream in place
   * (wasm/kernels.ts): they read it before and write it back after, as if fillU32 had run.
   * @example const [s0] = rng.stateWords();
   */
  stateWords(): Uint32Array {
    return this.state;
  }

  /**
   * The next `count` words into out[0, count): the same words as `count` calls of
   * {@link nextU32}, with the state held in locals for the whole run (how the encoders draw).
   * @example rng.fillU32(words, words.length);
   */
  fillU32(out: Uint32Array, count: number): void {
    const s = this.state;
    let s0 = s[0]!;
    let s1 = s[1]!;
    let s2 = s[2]!;
    let s3 = s[3]!;
    for (let i = 0; i < count; i++) {
      const x = Math.imul(s1, 5);
      out[i] = Math.imul((x << 7) | (x >>> 25), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }
}
