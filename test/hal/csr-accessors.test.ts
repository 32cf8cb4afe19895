import { describe, expect, it } from "vitest";
import { SdmaAbortError, SdmaAssertError } from "../../src/bits/index.js";
import { CSR_ACCESSORS, csrAccessor, csrRead, csrWrite, HalDevice } from "../../src/hal/index.js";

const BASE = 0x1000n;
const ARCHES = ["trn1", "trn2", "trn3"] as const;

function run(arch: string, symbol: string, index: number, value = 7) {
  const dev = new HalDevice(arch);
  const addr = csrWrite(dev, csrAccessor(symbol), { base: BASE, index }, value);
  return { addr, writes: dev.regs.writesSince().map((w) => [w.addr, w.value, w.accessor]) };
}

describe("per-queue notification (16 queues, stride 24, arch-invariant)", () => {
  const fields = [
    ["m2s_trigger", 0x200],
    ["m2s_crc_init", 0x204],
    ["m2s_sw_queue", 0x208],
    ["s2m_trigger", 0x20c],
    ["s2m_crc_init", 0x210],
    ["s2m_sw_queue", 0x214],
  ] as const;
  for (const arch of ARCHES) {
    for (const [field, off] of fields) {
      const sym = `aws_reg_write_tdma_model_notific_cfg_per_queue_${field}`;
      it(`${arch} ${field}: base + 24·q + 0x${off.toString(16)} at q = 0 and 15`, () => {
        expect(run(arch, sym, 0).writes).toEqual([[BASE + BigInt(off), 7, sym]]);
        expect(run(arch, sym, 15).writes).toEqual([[BASE + BigInt(24 * 15 + off), 7, sym]]);
      });
      it(`${arch} ${field}: q = 16 aborts (al_abort_program(-1))`, () => {
        expect(() => run(arch, sym, 16)).toThrow(SdmaAbortError);
      });
    }
  }
  it("the seed's example: m2s_sw_queue is base + 24·idx + 520", () => {
    expect(run("trn2", "aws_reg_write_tdma_model_notific_cfg_per_queue_m2s_sw_queue", 5).addr).toBe(
      BASE + 24n * 5n + 520n,
    );
  });
});

describe("fabric trigger (2 indices, stride 48 / 48 / 52)", () => {
  const sym = "aws_reg_write_tdma_model_notific_cfg_fabric_trigger_axi_req_sw_queue";
  it.each([
    ["trn1", 48],
    ["trn2", 48],
    ["trn3", 52],
  ] as const)("%s: index 1 lands at base + %i + 0x50c", (arch, stride) => {
    expect(run(arch, sym, 0).addr).toBe(BASE + 0x50cn);
    expect(run(arch, sym, 1).addr).toBe(BASE + BigInt(stride) + 0x50cn);
  });
  it("MARIANA index 1 differs from SUNDA index 1 by 4", () => {
    expect((run("trn3", sym, 1).addr as bigint) - (run("trn1", sym, 1).addr as bigint)).toBe(4n);
  });
  it.each(ARCHES)("%s: index 2 aborts", (arch) => {
    expect(() => run(arch, sym, 2)).toThrow(SdmaAbortError);
  });
  it("field bases span 0x500..0x52c on every arch", () => {
    const offs = [...CSR_ACCESSORS.values()]
      .filter((a) => a.op === "write" && a.family.name === "tdma_model_notific_cfg_fabric_trigger")
      .map((a) => Number((run("trn3", a.symbol, 0).addr as bigint) - BASE));
    expect(Math.min(...offs)).toBe(0x500);
    expect(Math.max(...offs)).toBe(0x52c);
  });
});

describe("gated families: M2S prefetch, CC-queue, XT-local (arch > 2)", () => {
  const gated = [
    ["aws_reg_write_udma_m2s_q_prefetch_dual_tail_ptr_en", 3, BASE + 0x1050n + 3n * 0x1000n],
    ["aws_reg_write_cc_queue_enable", 2, BASE + 0x300cn + 0x20n],
    ["aws_reg_write_xt_local_reg", 38, BASE + 38n * 4n],
  ] as const;
  for (const [sym, idx, addr] of gated) {
    it(`${sym}: SUNDA is a silent no-op (no write, no error, even out of range)`, () => {
      expect(run("trn1", sym, idx).writes).toEqual([]);
      expect(run("trn1", sym, 1_000_000).writes).toEqual([]);
    });
    for (const arch of ["trn2", "trn3"]) {
      it(`${sym}: ${arch} writes 0x${addr.toString(16)}`, () => {
        expect(run(arch, sym, idx).writes).toEqual([[addr, 7, sym]]);
        expect(() => run(arch, sym, 1_000_000)).toThrow(SdmaAbortError);
      });
    }
  }
  it("SUNDA xt-local read returns 0 without touching the register file", () => {
    const dev = new HalDevice("trn1");
    expect(csrRead(dev, csrAccessor("aws_reg_read_xt_local_reg"), { base: BASE, index: 38 })).toBe(0);
    expect(dev.regs.log).toEqual([]);
  });
});

describe("every accessor reads the arch first", () => {
  it("INVALID hal_target asserts before any write", () => {
    const dev = new HalDevice("trn2");
    dev.halTarget = 0;
    expect(() =>
      csrWrite(dev, csrAccessor("aws_reg_write_xt_local_reg"), { base: BASE, index: 0 }, 1),
    ).toThrow(SdmaAssertError);
    expect(dev.regs.log).toEqual([]);
  });
  it("reads return what the write left", () => {
    const dev = new HalDevice("trn3");
    csrWrite(dev, csrAccessor("aws_reg_write_cc_queue_size"), { base: BASE, index: 4 }, 0xabc);
    expect(csrRead(dev, csrAccessor("aws_reg_read_cc_queue_size"), { base: BASE, index: 4 })).toBe(0xabc);
  });
});
