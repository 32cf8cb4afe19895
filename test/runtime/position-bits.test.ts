/**
 * The ring writer stamps a descriptor's chain position (ring phase, FIRST, LAST, DMB) through the
 * layout's declared position view: len_ctrl on the UDMA views, meta_idx's `position` view on the
 * compute descriptors. The two views sit on the same W0 bits, which the engine relies on when it
 * reads a compute descriptor's position through len_ctrl (spec/packet-model.ts).
 */
import { describe, expect, it } from "vitest";
import { chain, descriptor, encodeDescriptor } from "../../src/runtime/index.js";
import { FMA_DESC, MIN_MAX_DESC, SEED_INIT_DESC, UDMA_TX } from "../../src/spec/index.js";

const POSITION = ["ring_id", "first", "last", "dmb"] as const;

describe("position bits through the declaration", () => {
  const computes = [
    descriptor(FMA_DESC, { a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 }),
    descriptor(MIN_MAX_DESC, { length: 64 }),
    descriptor(SEED_INIT_DESC, { seed: 42 }),
  ];

  it.each([0, 1, 2, 3])(
    "phase %i: each compute descriptor's position view reads what len_ctrl reads",
    (phase) => {
      for (const item of computes) {
        for (const d of chain("tx", [item, item, item], true)) {
          const bytes = encodeDescriptor(d, phase);
          const pos = d.layout.decode(bytes);
          const len = UDMA_TX.decode(bytes);
          expect(POSITION.map((n) => pos[`position.${n}`])).toEqual([phase, d.first, d.last, d.dmb]);
          expect(POSITION.map((n) => len[`len_ctrl.${n}`])).toEqual([phase, d.first, d.last, d.dmb]);
        }
      }
    },
  );

  it("the meta_idx byte holds phase 1:0, FIRST 2, LAST 3, DMB 6", () => {
    const [only] = chain("tx", [computes[0]!], true);
    expect(FMA_DESC.decode(encodeDescriptor(only!, 2)).meta_idx).toBe(2 | (1 << 2) | (1 << 3) | (1 << 6));
  });
});
