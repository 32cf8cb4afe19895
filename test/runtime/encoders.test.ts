/** Each meta-control and descriptor encoder against the seed's literal formula (seed 000 §2.3–2.6). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import {
  buildAddMetaCtrl,
  buildCceExtMetaCtrl,
  buildFmaDescriptor,
  buildFmaMetaCtrl,
  buildGradientDescriptor,
  buildGradientMetaCtrl,
  buildMinMaxDescriptor,
  buildMinMaxMetaCtrl,
  buildReplicationDescriptor,
  buildReplicationMetaCtrl,
  buildSeedInitDescriptor,
  copyMetaCtrl,
  GceMode,
} from "../../src/runtime/index.js";
import { FMA_META } from "../../src/spec/index.js";
import { words } from "./fixtures.js";

const nib = fc.integer({ min: 0, max: 15 });
const sub = fc.integer({ min: 0, max: 7 });
const b = fc.boolean();
const n = (x: boolean) => (x ? 1 : 0);
const u32 = (x: number) => x >>> 0;

describe("meta-control encoders = the seed's formulas", () => {
  it("FMA @0x451bd0", () => {
    fc.assert(
      fc.property(sub, nib, nib, nib, b, b, b, (s, i, sc, a, f4, f5, f6) => {
        const lit =
          s | (i << 8) | (sc << 12) | (a << 16) | (n(f5) << 6) | (n(f6) << 4) | (n(f4) << 7) | 0x2100000;
        expect(
          buildFmaMetaCtrl({ sub: s, in_dt: i, scale_dt: sc, accum_dt: a, last: f4, wrbar: f5, flag4: f6 }),
        ).toBe(u32(lit));
      }),
    );
  });
  it("MIN/MAX @0x451ca0 (out_dt only with use_const)", () => {
    fc.assert(
      fc.property(
        sub,
        fc.integer({ min: 0, max: 255 }), // libnrt keeps const_dt & 7
        nib,
        nib,
        nib,
        b,
        b,
        b,
        b,
        (s, c, i, o, a, notif, wrbar, uc, last) => {
          const lit =
            s |
            ((c & 7) << 20) |
            (i << 8) |
            ((uc ? o : 0) << 12) |
            (a << 16) |
            (n(notif) << 7) |
            (n(wrbar) << 6) |
            (n(uc) << 5) |
            (n(last) << 4) |
            0x2000000;
          expect(
            buildMinMaxMetaCtrl({
              sub: s,
              const_dt: c,
              in_dt: i,
              out_dt: o,
              accum_dt: a,
              last: notif, // seed arg notif is bit 7, the flush bit the layout calls last
              wrbar,
              use_const: uc,
              flag4: last, // seed arg last is bit 4
            }),
          ).toBe(u32(lit));
        },
      ),
    );
  });
  it("ADD @0x451b80", () => {
    fc.assert(
      fc.property(sub, nib, nib, b, b, b, (s, o, a, last, wrbar, f) => {
        const lit = s | (o << 12) | (a << 16) | (n(last) << 7) | (n(wrbar) << 6) | (n(f) << 4) | 0x2000000;
        expect(buildAddMetaCtrl({ sub: s, out_dt: o, accum_dt: a, last, wrbar, flag4: f })).toBe(u32(lit));
      }),
    );
  });
  it("GCE / gradient @0x451d70", () => {
    fc.assert(
      fc.property(sub, nib, nib, nib, b, b, b, (s, i, sc, a, wrbar, f, last) => {
        const lit =
          s | (i << 8) | (sc << 12) | (a << 16) | (n(wrbar) << 6) | (n(f) << 4) | (n(last) << 7) | 0x2500000;
        expect(
          buildGradientMetaCtrl({ sub: s, in_dt: i, scale_dt: sc, accum_dt: a, wrbar, flag4: f, last }),
        ).toBe(u32(lit));
      }),
    );
  });
  it("EXT @0x451dc0", () => {
    fc.assert(
      fc.property(sub, nib, nib, (s, m, a) => {
        expect(buildCceExtMetaCtrl({ sub: s, mid_dt: m, accum_dt: a })).toBe(
          u32(s | (m << 12) | (a << 16) | 0x2400000),
        );
      }),
    );
  });
  it("replication @0x451b00 and the copy default", () => {
    expect(buildReplicationMetaCtrl(0)).toBe(0);
    for (let m = 1; m < 8; m++) expect(buildReplicationMetaCtrl(m)).toBe(u32(0x4a00000 | (m << 29)));
    expect(copyMetaCtrl(false)).toBe(0x01080003);
    expect(copyMetaCtrl(true)).toBe(0x05080003);
  });
  it("the libnrt encoders mask what libnrt masks and refuse the rest; encode stays strict", () => {
    expect(() => buildAddMetaCtrl({ out_dt: 16, accum_dt: 10 })).toThrow(FieldError);
    expect(buildFmaMetaCtrl({ sub: 9, in_dt: 1, scale_dt: 10, accum_dt: 10 })).toBe(
      buildFmaMetaCtrl({ sub: 1, in_dt: 1, scale_dt: 10, accum_dt: 10 }),
    );
    expect(() => FMA_META.encode({ sub: 9 })).toThrow(/fma-meta\(sub\)/);
    expect(() => buildReplicationMetaCtrl(8)).toThrow(FieldError);
    // Selector 3 is not an al_sdma_m2s_fma_operand: refused rather than written.
    expect(() => buildFmaDescriptor({ meta_idx: 0, a_sel: 3, b_sel: 2, c_sel: 0, scale: 1 })).toThrow(
      /fma-desc\(a_sel\)/,
    );
  });
});

describe("descriptor encoders = the seed's formulas", () => {
  const metaIdx = fc.integer({ min: 0, max: 255 });
  it("FMA @0x451c20", () => {
    fc.assert(
      fc.property(
        metaIdx,
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.float({ noNaN: true }),
        fc.integer({ min: 0, max: 0xffffffff }), // libnrt keeps sema & 0xFFFFFF
        fc.integer({ min: 0, max: 255 }), // … a9 & 7
        fc.integer({ min: 0, max: 255 }), // … and a8 << 29 in a u32
        b,
        (mi, as, bs, cs, scale, sema, a9, a8, a10) => {
          const w = words(
            buildFmaDescriptor({
              meta_idx: mi,
              a_sel: as,
              b_sel: bs,
              c_sel: cs,
              scale,
              sema,
              sub: a9,
              a8,
              wrbar: a10,
            }),
          );
          const scaleBits = new DataView(Float32Array.of(scale).buffer).getUint32(0, true);
          expect(w).toEqual([
            u32(0x800000 | (mi << 24)),
            u32((a9 & 7) | (n(a10) << 26) | (a8 << 29) | 0x2100000),
            u32((sema & 0xffffff) | (as << 24) | (bs << 26) | (cs << 28)),
            scaleBits,
          ]);
        },
      ),
    );
  });
  it("MIN/MAX @0x451d10", () => {
    fc.assert(
      fc.property(
        metaIdx,
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }), // libnrt keeps length & 0xFFFFFF
        b,
        nib,
        (mi, c, len, uc, dt) => {
          const w = words(
            buildMinMaxDescriptor({ meta_idx: mi, constant: c, length: len, use_const: uc, const_dt: dt }),
          );
          expect(w).toEqual([
            u32(0x800000 | (mi << 24)),
            uc ? u32(((dt & 7) << 20) | 0x6000000) : 0,
            u32((len & 0xffffff) | 0x2000000),
            c,
          ]);
        },
      ),
    );
  });
  it("seed-init @0x451e40 (+ the combo-member flag 0x4000000)", () => {
    fc.assert(
      fc.property(metaIdx, b, b, fc.integer({ min: 0, max: 0xffffffff }), (mi, en, combo, seed) => {
        const w = words(
          buildSeedInitDescriptor({ meta_idx: mi, seed_enable: en, seed, combo_member: combo }),
        );
        expect(w).toEqual([
          u32(0x800000 | (mi << 24)),
          u32((en ? 0x6000000 : 0) | (combo ? 0x4000000 : 0)),
          0,
          seed,
        ]);
      }),
    );
  });
  it("replication @0x451b10 (W2..W3 destination, MODEL)", () => {
    const w = words(buildReplicationDescriptor({ meta_idx: 9, mode: 1, dest: 0x1234_5678_9abcn }));
    expect(w).toEqual([u32(0x800000 | (9 << 24)), 0x24a00000, 0x56789abc, 0x1234]);
  });
  it("gradient @0x451de0 (body MODEL)", () => {
    const w = words(
      buildGradientDescriptor({
        meta_idx: 1,
        mode: GceMode.DECOMPRESS,
        block_log2: 5,
        header_addr: 0x10_0000_0040n,
      }),
    );
    expect(w).toEqual([u32(0x800000 | (1 << 24)), u32(2 | (5 << 8) | 0x2500000), 0x40, 0x10]);
  });
});
