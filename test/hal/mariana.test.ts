import { describe, expect, it } from "vitest";
import { FieldError, SdmaAbortError, SdmaAssertError } from "../../src/bits/index.js";
import {
  actSequencerForceRspcombEightDeep,
  B0_FEATURES_ENABLE,
  createHalDevice,
  csrAccessor,
  csrAddress,
  EMBEDDED_SEM_AXI_BASE,
  FP8_E4_DEFAULT,
  FP8_E5_DEFAULT,
  khalCall,
  MARIANA,
  MARIANA_CSR_MODEL,
  marianaEnableB0Features,
  marianaReadSeed,
  marianaSetFp8Defaults,
  marianaSetUdmaQos,
  marianaWriteSeed,
  s2mSetEmbeddedSemFields,
  sdmaCceUserOffset,
  topSpBase,
  topSpEvtSemIncBase,
  tpbBase,
  tpbEvtSemIncBase,
  unpackEmbeddedSem,
} from "../../src/hal/index.js";
import { EMBEDDED_SEM } from "../../src/spec/index.js";

const CSR = 0x1000n;
const writes = (dev: ReturnType<typeof createHalDevice>) =>
  dev.regs.writesSince().map((w) => [w.addr, w.value]);
const lo = (i: number) =>
  csrAddress(MARIANA, csrAccessor("aws_reg_write_embedded_semaphore_update_lo"), { base: CSR, index: i });
const hi = (i: number) =>
  csrAddress(MARIANA, csrAccessor("aws_reg_write_embedded_semaphore_update_hi"), { base: CSR, index: i });

describe("init_embedded_sem (trn3)", () => {
  it("ctrl cfg = 1, then 8 TPB + 16 TopSP regions, lo then hi; regions 24..31 untouched", () => {
    const dev = createHalDevice("trn3");
    khalCall(dev, "init_embedded_sem", CSR);
    const ctrl = csrAddress(MARIANA, csrAccessor("aws_reg_write_embedded_sem_ctrl_cfg"), {
      base: CSR,
      index: 0,
    });
    const expected: [bigint, number][] = [[ctrl, 1]];
    const bases = [
      ...Array.from({ length: 8 }, (_, i) => tpbEvtSemIncBase(i)),
      ...Array.from({ length: 16 }, (_, j) => topSpEvtSemIncBase(j)),
    ];
    bases.forEach((b, i) => {
      expected.push([lo(i), Number(b & 0xffffffffn)], [hi(i), Number(b >> 32n)]);
    });
    expect(writes(dev)).toEqual(expected);
    expect(writes(dev)).toHaveLength(1 + 2 * 24);
  });
  it("increment bases: TPB + 0x2700000 + 0x1800, TopSP + 0x1800 (the driver's event blocks)", () => {
    expect(tpbEvtSemIncBase(3) - tpbBase(3)).toBe(0x2701800n);
    expect(topSpEvtSemIncBase(15) - topSpBase(15)).toBe(0x1800n);
    expect([tpbBase(3), topSpBase(7), topSpBase(8)]).toEqual([
      0x70_0000_0000n,
      0x84_4000_0000n,
      0x8082_8000_0000n,
    ]);
  });
});

describe("embedded_sem_wr_address", () => {
  it("index 31 writes lo / hi; the rd side reads them back", () => {
    const dev = createHalDevice("trn3");
    khalCall(dev, "embedded_sem_wr_address", CSR, 31, 0x1234_5678_9abc_def0n);
    expect(writes(dev)).toEqual([
      [lo(31), 0x9abcdef0],
      [hi(31), 0x12345678],
    ]);
    expect(khalCall(dev, "embedded_sem_rd_address", CSR, 31)).toBe(0x1234_5678_9abc_def0n);
  });
  it("index 32 is the assert, no write", () => {
    const dev = createHalDevice("trn3");
    expect(() => khalCall(dev, "embedded_sem_wr_address", CSR, 32, 0n)).toThrow(SdmaAssertError);
    expect(() => khalCall(dev, "embedded_sem_wr_address", CSR, 32, 0n)).toThrow(
      /AL_HAL_NUM_EMBEDDED_SEM_REGIONS_MARIANA/,
    );
    expect(dev.regs.log).toEqual([]);
  });
});

describe("embedded_sem_csr_index", () => {
  it("0x802701800 = 0x2701800 | bit 35, not the bit-47 marker", () => {
    expect(EMBEDDED_SEM_AXI_BASE).toBe(0x2701800n | (1n << 35n));
    expect(EMBEDDED_SEM_AXI_BASE & 0x8000_0000_0000n).toBe(0n);
  });
  it("TPB i → i, TopSP j → 8 + j, anything else → -1", () => {
    const dev = createHalDevice("trn3");
    for (let i = 0; i < 8; i++) expect(khalCall(dev, "embedded_sem_csr_index", tpbBase(i))).toBe(i);
    for (let j = 0; j < 16; j++) expect(khalCall(dev, "embedded_sem_csr_index", topSpBase(j))).toBe(8 + j);
    expect(khalCall(dev, "embedded_sem_csr_index", 0n)).toBe(-1);
    expect(khalCall(dev, "embedded_sem_csr_index", tpbBase(0) + 4n)).toBe(-1);
  });
});

describe("aws_mariana_sdma_write_seed", () => {
  const addr = (q: number, dc: number) => CSR + 0x2000n + 8n * BigInt(dc + 16 * (q + 8));
  it.each([
    [0, 0],
    [0, 15],
    [15, 0],
    [15, 15],
    [5, 3],
  ])("queue %i converter %i → csr + 0x2000 + 8·(dc + 16·(q + 8))", (q, dc) => {
    const dev = createHalDevice("trn3");
    marianaWriteSeed(dev, CSR, { queue: q, dataConverter: dc }, 1234);
    expect(writes(dev)).toEqual([[addr(q, dc), 1234]]);
    expect(marianaReadSeed(dev, CSR, { queue: q, dataConverter: dc })).toBe(1234);
  });
  it("the bounds: first 0x2400, last 0x2bf8 past csr", () => {
    expect(addr(0, 0) - CSR).toBe(0x2400n);
    expect(addr(15, 15) - CSR).toBe(0x2bf8n);
  });
  it.each([
    [16, 0],
    [0, 16],
    [-1, 0],
  ])("queue %i converter %i aborts with no write", (q, dc) => {
    const dev = createHalDevice("trn3");
    expect(() => marianaWriteSeed(dev, CSR, { queue: q, dataConverter: dc }, 1)).toThrow(SdmaAbortError);
    expect(dev.regs.log).toEqual([]);
  });
});

describe("CCE user offset, FP8, QoS, B0, rspcomb", () => {
  it.each([
    ["trn1", 0],
    ["trn2", 0],
    ["trn3", 0x2000],
  ])("%s cce user offset %i", (arch, off) => {
    expect(sdmaCceUserOffset(createHalDevice(arch))).toBe(off);
  });
  it("FP8 defaults: two words at csr + 0x2000 + MODEL offsets", () => {
    const dev = createHalDevice("trn3");
    marianaSetFp8Defaults(dev, CSR);
    expect(writes(dev)).toEqual([
      [CSR + 0x2000n, FP8_E4_DEFAULT],
      [CSR + 0x2004n, FP8_E5_DEFAULT],
    ]);
    expect([FP8_E4_DEFAULT, FP8_E5_DEFAULT]).toEqual([0x13407, 0x1250f]);
  });
  it("UDMA QoS: queue 15 class 3; queue 16 aborts; class 4 is a FieldError", () => {
    const dev = createHalDevice("trn3");
    marianaSetUdmaQos(dev, CSR, 15, 3);
    expect(writes(dev)).toEqual([[CSR + BigInt(MARIANA_CSR_MODEL.udmaQosCtrl + 60), 0x13]]);
    expect(() => marianaSetUdmaQos(dev, CSR, 16, 0)).toThrow(SdmaAbortError);
    expect(() => marianaSetUdmaQos(dev, CSR, 0, 4)).toThrow(FieldError);
  });
  it.each([
    ["trn1", false],
    ["trn2", false],
    ["trn3", true],
  ] as const)("B0 enable on %s writes: %s", (arch, wrote) => {
    const dev = createHalDevice(arch);
    expect(marianaEnableB0Features(dev, CSR)).toBe(wrote);
    expect(writes(dev)).toEqual(
      wrote ? [[CSR + BigInt(MARIANA_CSR_MODEL.b0FeatureCtrl), B0_FEATURES_ENABLE]] : [],
    );
  });
  it.each([
    ["trn1", false],
    ["trn2", false],
    ["trn3", true],
  ] as const)("force_rspcomb_eight_deep_cayman_neff on %s: RMW at +708 only on arch 4 (%s)", (arch, rmw) => {
    const dev = createHalDevice(arch);
    dev.regs.write32(CSR + 708n, 0xf0);
    const mark = dev.regs.log.length;
    expect(actSequencerForceRspcombEightDeep(dev, CSR, true)).toBe(rmw);
    const log = dev.regs.log.slice(mark).map((a) => [a.op, a.addr, a.value]);
    expect(log).toEqual(
      rmw
        ? [
            ["read", CSR + 708n, 0xf0],
            ["write", CSR + 708n, 0xf1],
          ]
        : [],
    );
  });
});

describe("s2m_set_embedded_sem_fields", () => {
  it("desc byte 3 |= 0x80 and the MODEL packing in W1 (bytes 4..7); every other byte untouched", () => {
    const dev = createHalDevice("trn3");
    const desc = new Uint8Array(16).fill(0x11);
    const sem = EMBEDDED_SEM.decode(
      EMBEDDED_SEM.encode({ sow: true, wr_mode: 1, wr_val: 0xbeef, reg_sel: 9, intra_reg_offset: 0x42 }),
    );
    khalCall(dev, "s2m_set_embedded_sem_fields", desc, sem as never);
    const view = new DataView(desc.buffer);
    expect(view.getUint32(0, true)).toBe(0x91111111);
    expect(view.getUint32(4, true)).toBe((0x80000000 | (1 << 29) | (9 << 24) | (0x42 << 16) | 0xbeef) >>> 0);
    expect([...desc.slice(8)]).toEqual(new Array(8).fill(0x11));
  });
  it("leaves the ring bits of len_ctrl (ring_id 25:24, FIRST 26, LAST 27) to the ring writer", () => {
    const dev = createHalDevice("trn3");
    const desc = new Uint8Array(16);
    new DataView(desc.buffer).setUint32(0, (0b11 << 24) | (1 << 26) | (1 << 27) | 4, true);
    const sem = { sow: false, wr_mode: 2, wr_val: 1, reg_sel: 31, intra_reg_offset: 255 };
    s2mSetEmbeddedSemFields(dev, desc, sem);
    expect(new DataView(desc.buffer).getUint32(0, true)).toBe((0x80000000 | (0xf << 24) | 4) >>> 0);
    expect(unpackEmbeddedSem(new DataView(desc.buffer).getUint32(4, true))).toEqual(sem);
  });
  it("reg_sel 32, wr_mode 4 and a 4-byte desc do not fit: FieldError", () => {
    const dev = createHalDevice("trn3");
    const base = { sow: true, wr_mode: 0, wr_val: 0, reg_sel: 0, intra_reg_offset: 0 };
    expect(() => s2mSetEmbeddedSemFields(dev, new Uint8Array(16), { ...base, reg_sel: 32 })).toThrow(
      FieldError,
    );
    expect(() => s2mSetEmbeddedSemFields(dev, new Uint8Array(16), { ...base, wr_mode: 4 })).toThrow(
      FieldError,
    );
    expect(() => s2mSetEmbeddedSemFields(dev, new Uint8Array(4), base)).toThrow(FieldError);
  });
});
