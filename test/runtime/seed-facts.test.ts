// Runtime facts of seed 000 pinned to the seed's literal numbers (not the code's enums).
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { addDmaPacket, addDmaPacketCce, fmaInfo, kbinCceOpToSdmaCceOp } from "../../src/runtime/index.js";
import { makeVring, words } from "./fixtures.js";

const op = (meta: number) => (meta >>> 23) & 7;
const optype = (meta: number) => (meta >>> 20) & 7;

describe("seed 000 §1.1: kbin_cce_op_to_sdma_cce_op on the raw codes", () => {
  it("FMA 1 → 1, ADD 2 → 0, MIN 3 → 3, MAX 4 → 2", () => {
    expect([1, 2, 3, 4].map(kbinCceOpToSdmaCceOp)).toEqual([1, 0, 3, 2]);
  });
});

describe("seed 000 §6: a plain copy and a CCE transfer differ only in the descriptor bits", () => {
  it("plain COPY: SDMAOP_CME = 2, SDMA_CMETYPE_COPY = 0, W0 bit 23 clear", () => {
    const { vring } = makeVring();
    const w = addDmaPacket(vring, { src: 0x1000n, dst: 0x20_0000n, size: 256 });
    const t = w.filter((d) => d.ring === "tx").map((d) => words(d.bytes));
    expect(t.map((x) => [op(x[1] as number), optype(x[1] as number), (x[0] as number) & 0x800000])).toEqual([
      [2, 0, 0],
    ]);
  });
  it.each([
    [2, 0], // kbin ADD → SDMA ADD
    [1, 1], // kbin FMA → SDMA FMA
    [4, 2], // kbin MAX → SDMA MAX
    [3, 3], // kbin MIN → SDMA MIN
  ])("CCE kbin op %i: every source's meta-control has SDMAOP_CCE = 4 and optype %i", (kbinOp, sdmaOp) => {
    const { vring } = makeVring();
    const r = addDmaPacketCce(vring, {
      op: kbinOp as 1 | 2 | 3 | 4,
      sources: [0x1000n, 0x2000n],
      dests: [0x10_0000n],
      size: 64,
      inDtype: 10,
      cceInfo: { num_sources: 2, num_dests: 1, ...fmaInfo([1, 1], 10) },
    });
    if (isEinval(r)) throw new Error(r.message);
    const metas = r
      .filter((d) => d.ring === "tx" && d.spec.layout.name === "udma-tx")
      .map((d) => words(d.bytes)[1] as number);
    // FMA's meta rides the FMA descriptor (W1); the other ops' ride the per-source TX word.
    const fmaMetas = r
      .filter((d) => d.spec.layout.name === "fma-desc")
      .map((d) => words(d.bytes)[1] as number);
    const all = kbinOp === 1 ? fmaMetas : metas;
    expect(all).toHaveLength(2);
    for (const m of all) expect([op(m), optype(m)]).toEqual([4, sdmaOp]);
  });
});
