/**
 * Seed 000 §3.2, §4.1, §6: a CCE op takes up to 32 sources (cce_info.num_sources ≤ 32). Public docs
 * say 16 (a recorded contradiction, docs/FIDELITY.md); 17–32-source ADD / FMA / MIN / MAX requests
 * build through the runtime and run on the engine with the right result.
 */
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { HBM_BASE } from "../../src/engine/index.js";
import { addDmaPacketCce, type CceInfo, fmaInfo } from "../../src/runtime/index.js";
import { Dtype, KbinDmaDescOp } from "../../src/spec/index.js";
import { deviceVring } from "./fixtures.js";

const ELEMENTS = 4;
const f32 = (a: readonly number[]) => new Uint8Array(Float32Array.from(a).buffer);
/** Source i holds [i+1, −(i+1), 2(i+1), i % 5]: exact in fp32 for every op below. */
const values = (i: number) => [i + 1, -(i + 1), 2 * (i + 1), i % 5];

function run(op: number, n: number, cceInfo: CceInfo | null, stochasticRounding = false): number[] {
  const { dev, vring } = deviceVring({ slots: 128, sr: stochasticRounding });
  const sources = Array.from({ length: n }, (_, i) => HBM_BASE + 0x10000n + BigInt(i) * 0x100n);
  for (const [i, s] of sources.entries()) dev.memory.write(s, f32(values(i)));
  const dest = HBM_BASE + 0x40000n;
  const size = ELEMENTS * 4;
  const written = addDmaPacketCce(vring, { op, sources, dests: [dest], size, inDtype: Dtype.FP32, cceInfo });
  expect(isEinval(written)).toBe(false);
  expect(dev.run().faults).toEqual([]);
  return Array.from(new Float32Array(dev.memory.read(dest, size).slice().buffer));
}

const column = (n: number, k: number) => Array.from({ length: n }, (_, i) => values(i)[k] as number);

describe("17–32 sources per CCE op (seed 000 §3.2)", () => {
  it.each([17, 24, 32])("ADD of %i sources", (n) => {
    const want = [0, 1, 2, 3].map((k) => column(n, k).reduce((a, b) => a + b, 0));
    expect(run(KbinDmaDescOp.ADD, n, null)).toEqual(want);
  });
  it.each([17, 32])("MIN and MAX of %i sources", (n) => {
    const info = { num_sources: n, num_dests: 1 };
    expect(run(KbinDmaDescOp.MIN, n, info)).toEqual([0, 1, 2, 3].map((k) => Math.min(...column(n, k))));
    expect(run(KbinDmaDescOp.MAX, n, info)).toEqual([0, 1, 2, 3].map((k) => Math.max(...column(n, k))));
  });
  it.each([17, 32])("FMA of %i sources, scale 0.5 each, with the SR seed-init in front", (n) => {
    const want = [0, 1, 2, 3].map((k) => column(n, k).reduce((a, b) => a + 0.5 * b, 0));
    expect(
      run(
        KbinDmaDescOp.FMA,
        n,
        { num_sources: n, num_dests: 1, ...fmaInfo(Array.from({ length: n }, () => 0.5)) },
        true,
      ),
    ).toEqual(want);
  });
});
