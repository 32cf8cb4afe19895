import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countRankGuardErrors, countWrong, GUARD_FILL } from "../../src/collectives/index.js";
import { Dtype, dtypeBytes } from "../../src/spec/index.js";

/** The definition: elements with any differing byte, plus the length difference in elements. */
function naiveWrong(a: Uint8Array, e: Uint8Array, eb: number): number {
  let wrong = 0;
  for (let i = 0; i < a.length; i += eb) {
    let bad = false;
    for (let k = 0; k < eb; k++) bad ||= a[i + k] !== e[i + k];
    if (bad) wrong++;
  }
  return wrong + Math.abs(a.length - e.length) / eb;
}

describe("countWrong", () => {
  it("equals the element-by-element count across block boundaries and length differences", () => {
    const block = 1 << 16;
    fc.assert(
      fc.property(
        fc.constantFrom(Dtype.INT8, Dtype.BFLOAT16, Dtype.FP32, Dtype.INT64),
        fc.integer({ min: 0, max: 3 * block + 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: -2, max: 2 }),
        (dt, bytes, flips, extra) => {
          const eb = dtypeBytes(dt);
          const len = bytes - (bytes % eb);
          const a = new Uint8Array(len).map((_, i) => i * 31);
          const e = new Uint8Array(Math.max(0, len + extra * eb));
          e.set(a.subarray(0, Math.min(len, e.length)));
          for (const f of flips) if (e.length > 0) e[f % e.length]! ^= 1;
          expect(countWrong(a, e, dt)).toBe(naiveWrong(a, e, eb));
        },
      ),
      { numRuns: 60 },
    );
  });
  it("finds a difference at either end of a block", () => {
    const a = new Uint8Array(3 << 16);
    for (const at of [0, (1 << 16) - 1, 1 << 16, (3 << 16) - 1]) {
      const e = a.slice();
      e[at] = 1;
      expect(countWrong(a, e, Dtype.INT8)).toBe(1);
      expect(countWrong(a, e, Dtype.FP32)).toBe(1);
    }
  });
});

describe("countRankGuardErrors", () => {
  it("counts every guard byte of every rank that lost the pattern, and only those", () => {
    const memory = new Uint8Array(64).fill(GUARD_FILL);
    const read = (addr: bigint, bytes: number) => memory.subarray(Number(addr), Number(addr) + bytes);
    const guardsOf = (r: number) => [
      { addr: BigInt(16 * r), bytes: 4 },
      { addr: BigInt(16 * r + 8), bytes: 4 },
    ];
    expect(countRankGuardErrors({ read }, 3, guardsOf)).toBe(0);
    memory[1] = 0; // rank 0's first guard
    memory[16 + 11] = 0; // rank 1's second guard
    memory[32 + 5] = 0; // rank 2, between its guards: not a guard byte
    memory[48 + 9] = 0; // rank 3: not counted among 3 ranks
    expect(countRankGuardErrors({ read }, 3, guardsOf)).toBe(2);
  });
});
