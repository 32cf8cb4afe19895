/**
 * The fuzz suite's seeded random source: the numerics' xoshiro128** stream (one PRNG in the repo),
 * with the few draws the generators need.
 */
import { SrStream } from "../../src/numerics/index.js";

export class Rng {
  private readonly s: SrStream;
  constructor(seed: number) {
    this.s = new SrStream(seed >>> 0);
  }
  /** An integer in 0..n−1 (n ≤ 2^32). */
  int(n: number): number {
    return Math.floor((this.s.nextU32() / 2 ** 32) * n);
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.s.nextU32() / 2 ** 32 < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  u32(): number {
    return this.s.nextU32();
  }
  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.s.nextU32() & 0xff;
    return b;
  }
  /** Flip one random bit of `b` in place. */
  flip(b: Uint8Array): void {
    if (b.length === 0) return;
    const i = this.int(b.length * 8);
    b[i >> 3] = (b[i >> 3] as number) ^ (1 << (i & 7));
  }
}
