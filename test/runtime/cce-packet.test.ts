/** The CCE packets: seed 000 §9 worked examples, every error path and every limit at its edge. */
import { describe, expect, it } from "vitest";
import { type Einval, FieldError, isEinval, SdmaAssertError } from "../../src/bits/index.js";
import { CAYMAN, SUNDA } from "../../src/hal/index.js";
import {
  addDmaPacketCce,
  awsCaymanSdmaM2mBuildComboOp,
  type CceRequest,
  fmaInfo,
  remapCceRequest,
  type WrittenDescriptor,
} from "../../src/runtime/index.js";
import { COMBO_MORE, Dtype, KbinDmaDescOp } from "../../src/spec/index.js";
import { makeVring, words } from "./fixtures.js";

const S = (k: number) => Array.from({ length: k }, (_, i) => BigInt(0x1000 * (i + 1)));
const DST = 0x10_0000n;

function ok(r: WrittenDescriptor[] | Einval): WrittenDescriptor[] {
  if (isEinval(r)) throw new Error(`unexpected -EINVAL: ${r.message}`);
  return r;
}
const tx = (w: WrittenDescriptor[]) => w.filter((d) => d.ring === "tx");
const rx = (w: WrittenDescriptor[]) => w.filter((d) => d.ring === "rx");

function add(over: Partial<CceRequest> = {}): CceRequest {
  return {
    op: KbinDmaDescOp.ADD,
    sources: S(3),
    dests: [DST],
    size: 64,
    inDtype: Dtype.BFLOAT16,
    cceInfo: null,
    ...over,
  };
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}

describe("seed 000 §9.1: three-source ADD, bf16 in, fp32 accumulate, bf16 out", () => {
  it("writes three TX descriptors with last only on the third, and one RX", () => {
    const { vring } = makeVring();
    const w = ok(addDmaPacketCce(vring, add({ outDtype: Dtype.BFLOAT16, accumDtype: Dtype.FP32 })));
    // len_ctrl: length 64, ring id 1 (<<24), FIRST (bit 26) on the first, LAST (bit 27) on the last.
    expect(tx(w).map((d) => words(d.bytes))).toEqual([
      [0x05000040, 0x020a6000, 0x1000, 0],
      [0x01000040, 0x020a6000, 0x2000, 0],
      [0x09000040, 0x020a6080, 0x3000, 0],
    ]);
    // RX: has_meta (bit 23), ring id 1, no FIRST / LAST (S2M has none: aws-neuron-driver udma.h);
    // S2M meta = add-meta(out bf16, accum fp32).
    expect(rx(w).map((d) => words(d.bytes))).toEqual([[0x01800040, 0x020a6000, 0x100000, 0]]);
    // add_meta_ctrl(in=6, accum=10, last) = 0x2000000 | 6 << 12 | 10 << 16 | 1 << 7.
    expect(words(tx(w)[2]!.bytes)[1]).toBe(0x2000000 | (6 << 12) | (10 << 16) | (1 << 7));
  });
});

describe("seed 000 §9.2: weighted-average FMA dst = 0.5·s0 + 0.5·s1", () => {
  it("puts 0x3F000000 in W3 of both FMA descriptors, selectors a=1 b=2 c=0", () => {
    const { vring } = makeVring();
    const cceInfo = { num_sources: 2, num_dests: 1, ...fmaInfo([0.5, 0.5]) };
    const w = tx(
      ok(
        addDmaPacketCce(vring, {
          op: KbinDmaDescOp.FMA,
          sources: S(2),
          dests: [DST],
          size: 64,
          inDtype: Dtype.FP32,
          cceInfo,
        }),
      ),
    );
    expect(w.map((d) => d.spec.layout.name)).toEqual(["fma-desc", "udma-tx", "fma-desc", "udma-tx"]);
    for (const d of [w[0]!, w[2]!]) {
      const [, w1, w2, w3] = words(d.bytes);
      expect(w3).toBe(0x3f000000);
      expect(w2).toBe((1 << 24) | (2 << 26) | (0 << 28));
      expect(w1).toBe(0x2100000);
    }
    const meta = (d: WrittenDescriptor) => words(d.bytes)[1]!;
    expect(meta(w[1]!) & 0x80).toBe(0);
    expect(meta(w[3]!) & 0x80).toBe(0x80);
    expect(meta(w[3]!)).toBe(0x2100000 | (10 << 8) | (10 << 12) | (10 << 16) | 0x80);
  });
  it("asserts cce_info != NULL at vring.c:0x3B8", () => {
    const { vring } = makeVring();
    const e = thrown(() =>
      addDmaPacketCce(vring, add({ op: KbinDmaDescOp.FMA, cceInfo: null })),
    ) as SdmaAssertError;
    expect(e).toBeInstanceOf(SdmaAssertError);
    expect([e.file, e.line, e.func, e.assertion]).toEqual([
      "tdrv/vring.c",
      0x3b8,
      "vring_add_dma_packet_cce_int",
      "cce_info != NULL",
    ]);
  });
  it("asserts the fp32 scale at vring.c:0x3BA", () => {
    const { vring } = makeVring();
    const cceInfo = { num_sources: 3, num_dests: 1, ...fmaInfo([1, 1, 1], Dtype.BFLOAT16) };
    const e = thrown(() =>
      addDmaPacketCce(vring, add({ op: KbinDmaDescOp.FMA, cceInfo })),
    ) as SdmaAssertError;
    expect([e.file, e.line, e.assertion]).toEqual([
      "tdrv/vring.c",
      0x3ba,
      "sdma_scale_dtype == al_sdma_m2m_meta_ctrl_data_type_fp32",
    ]);
    expect(e.message).toBe(
      "tdrv/vring.c:0x3BA: vring_add_dma_packet_cce_int: Assertion `sdma_scale_dtype == al_sdma_m2m_meta_ctrl_data_type_fp32' failed.",
    );
  });
  it("a cce_info without fma_info reads as the zeroed union: scale_dtype 0 asserts at helper.c:0x1AF", () => {
    const { vring } = makeVring();
    const e = thrown(() =>
      addDmaPacketCce(vring, add({ op: KbinDmaDescOp.FMA, cceInfo: { num_sources: 3, num_dests: 1 } })),
    ) as SdmaAssertError;
    expect([e.file, e.line]).toEqual(["tdrv/helper.c", 0x1af]);
  });
  it("needs one scale per source", () => {
    const { vring } = makeVring();
    const cceInfo = { num_sources: 3, num_dests: 1, ...fmaInfo([1, 1]) };
    expect(() => addDmaPacketCce(vring, add({ op: KbinDmaDescOp.FMA, cceInfo }))).toThrow(/fma_info\.scale/);
  });
});

describe("op and dtype remaps on the way in", () => {
  it("COPY and TRANSPOSE assert at helper.c:0x1C0", () => {
    const { vring } = makeVring();
    for (const op of [KbinDmaDescOp.COPY, KbinDmaDescOp.TRANSPOSE]) {
      const e = thrown(() => addDmaPacketCce(vring, add({ op }))) as SdmaAssertError;
      expect([e.line, e.assertion]).toEqual([0x1c0, `Unsupported CCE Op! ${op}`]);
    }
  });
  it("a dtype outside 1..15 asserts at helper.c:0x1AF", () => {
    const { vring } = makeVring();
    for (const bad of [{ inDtype: 0 }, { outDtype: 16 }, { accumDtype: 0 }]) {
      const e = thrown(() => addDmaPacketCce(vring, add(bad))) as SdmaAssertError;
      expect(e.line).toBe(0x1af);
    }
  });
});

describe("MIN / MAX", () => {
  const mm = (useConstant: boolean, constantDtype: number, constant = 0x3fc00000) => ({
    num_sources: 3,
    num_dests: 1,
    "min_max_info.use_constant": useConstant,
    "min_max_info.constant_dtype": constantDtype,
    "min_max_info.constant": constant,
  });
  it("cce_info may be null; the optype rides bits 22:20", () => {
    const { vring } = makeVring();
    const w = tx(ok(addDmaPacketCce(vring, add({ op: KbinDmaDescOp.MAX, inDtype: Dtype.FP32 }))));
    expect(w.map((d) => (words(d.bytes)[1]! >> 20) & 7)).toEqual([2, 2, 2]);
    const m = tx(ok(addDmaPacketCce(vring, add({ op: KbinDmaDescOp.MIN, inDtype: Dtype.FP32 }))));
    expect(m.map((d) => (words(d.bytes)[1]! >> 20) & 7)).toEqual([3, 3, 3]);
  });
  it.each([
    [Dtype.FP32, 2],
    [Dtype.INT32, 0],
    [Dtype.UINT32, 1],
  ])("use_constant with dtype %i writes the constant descriptor first (const_dt %i)", (dt, code) => {
    const { vring } = makeVring();
    const w = tx(
      ok(addDmaPacketCce(vring, add({ op: KbinDmaDescOp.MIN, inDtype: Dtype.FP32, cceInfo: mm(true, dt) }))),
    );
    expect(w[0]!.spec.layout.name).toBe("min-max-desc");
    expect(words(w[0]!.bytes).slice(1)).toEqual([(code << 20) | 0x6000000, 64 | 0x2000000, 0x3fc00000]);
    // use_const forces out_dt into every source's meta-control.
    expect(words(w[1]!.bytes)[1]! & 0xf020).toBe((10 << 12) | 0x20);
  });
  it.each([Dtype.BFLOAT16, Dtype.FP16, Dtype.INT8, Dtype.FP32R, Dtype.UINT64])(
    "-EINVAL for constant dtype %i",
    (dt) => {
      const { vring, registers } = makeVring();
      const mark = registers.log.length;
      const r = addDmaPacketCce(
        vring,
        add({ op: KbinDmaDescOp.MAX, inDtype: Dtype.FP32, cceInfo: mm(true, dt) }),
      );
      expect(isEinval(r)).toBe(true);
      expect((r as Einval).message).toMatch(/^Unsupported data type for min\/max op \w+$/);
      expect(registers.writesSince(mark)).toEqual([]);
    },
  );
  it.each([2 ** 32, -1, 0.5])(
    "a constant %d is no 32-bit word: FieldError with uintArg's range",
    (constant) => {
      const { vring } = makeVring();
      const r = add({ op: KbinDmaDescOp.MIN, inDtype: Dtype.FP32, cceInfo: mm(true, Dtype.FP32, constant) });
      expect(thrown(() => addDmaPacketCce(vring, r))).toMatchObject({
        context: "cce-info",
        field: "min_max_info.constant",
        allowed: "an integer 0..4294967295",
      });
    },
  );
  it("the constant dtype is not checked without use_constant", () => {
    const { vring } = makeVring();
    expect(
      isEinval(
        addDmaPacketCce(
          vring,
          add({ op: KbinDmaDescOp.MAX, inDtype: Dtype.FP32, cceInfo: mm(false, Dtype.BFLOAT16) }),
        ),
      ),
    ).toBe(false);
  });
});

describe("limits", () => {
  it("sources: 32 build on every profile (seed 000 §3.2: cce_info holds 32), 33 are refused naming the cap", () => {
    for (const arch of ["trn1", "trn2", "trn3"]) {
      const { vring } = makeVring({ arch });
      expect(tx(ok(addDmaPacketCce(vring, add({ sources: S(32) }))))).toHaveLength(32);
      expect(thrown(() => addDmaPacketCce(vring, add({ sources: S(33) })))).toBeInstanceOf(FieldError);
      expect(() => addDmaPacketCce(vring, add({ sources: S(33) }))).toThrow(
        /cce-info\(num_sources\).*1\.\.32/,
      );
    }
    const { vring } = makeVring();
    expect(() => addDmaPacketCce(vring, add({ sources: [] }))).toThrow(FieldError);
  });
  it("a profile that takes fewer sources caps the request; cce_info's 32 caps every profile", () => {
    const { vring } = makeVring({ profile: { ...CAYMAN, maxCceSources: 16 } });
    expect(() => addDmaPacketCce(vring, add({ sources: S(17) }))).toThrow(/1\.\.16/);
    const big = makeVring({ profile: { ...CAYMAN, maxCceSources: 64 } });
    expect(() => addDmaPacketCce(big.vring, add({ sources: S(33) }))).toThrow(/cce-info\(num_sources\)/);
  });
  it.each([
    ["trn1", 1024],
    ["trn2", 2048],
    ["trn3", 2048],
  ])("%s: max elements %i builds, one more is refused", (arch, max) => {
    const { vring } = makeVring({ arch });
    const r = ok(addDmaPacketCce(vring, add({ sources: S(1), size: max * 2 })));
    expect(words(tx(r)[0]!.bytes)[0]! & 0xffff).toBe(max * 2);
    expect(() => addDmaPacketCce(vring, add({ sources: S(1), size: (max + 1) * 2 }))).toThrow(
      /cce-request\(size\)/,
    );
  });
  it("size must be a whole number of input elements", () => {
    const { vring } = makeVring();
    expect(() => addDmaPacketCce(vring, add({ size: 63 }))).toThrow(FieldError);
    expect(() => addDmaPacketCce(vring, add({ size: 0 }))).toThrow(FieldError);
  });
  it("cce_info counts must match the addresses", () => {
    const { vring } = makeVring();
    expect(() => addDmaPacketCce(vring, add({ cceInfo: { num_sources: 2, num_dests: 1 } }))).toThrow(
      /num_sources/,
    );
    expect(() => addDmaPacketCce(vring, add({ cceInfo: { num_sources: 3, num_dests: 2 } }))).toThrow(
      /num_dests/,
    );
  });
});

describe("u8 → u16 accumulation lane (seed 000 §4.2)", () => {
  it("promotes a single 1-byte source with the same out dtype to uint16 on TX and RX", () => {
    const { vring } = makeVring();
    const w = ok(addDmaPacketCce(vring, add({ sources: S(1), inDtype: Dtype.UINT8, size: 64 })));
    expect((words(tx(w)[0]!.bytes)[1]! >> 12) & 0xf).toBe(Dtype.UINT16);
    expect((words(rx(w)[0]!.bytes)[1]! >> 12) & 0xf).toBe(Dtype.UINT16);
    expect(words(rx(w)[0]!.bytes)[0]! & 0xffff).toBe(64);
  });
  it("does not promote two sources, a 2-byte dtype or a dtype change", () => {
    const { vring } = makeVring();
    for (const r of [
      add({ sources: S(2), inDtype: Dtype.INT8 }),
      add({ sources: S(1) }),
      add({ sources: S(1), inDtype: Dtype.FP8_E4, outDtype: Dtype.FP8_E5 }),
    ]) {
      const w = ok(addDmaPacketCce(vring, r));
      expect((words(tx(w)[0]!.bytes)[1]! >> 12) & 0xf).toBe(r.inDtype);
    }
  });
  it("refuses an odd byte count it would have to promote", () => {
    const { vring } = makeVring();
    expect(() => addDmaPacketCce(vring, add({ sources: S(1), inDtype: Dtype.INT8, size: 3 }))).toThrow(
      /even byte count/,
    );
  });
});

describe("stochastic rounding: seed-init first", () => {
  it("prepends seed-init with the ring's seed when the vring has SR on", () => {
    const { vring } = makeVring({ sr: true, seed: 0xdeadbeef });
    const w = tx(ok(addDmaPacketCce(vring, add())));
    expect(w.map((d) => d.spec.layout.name)).toEqual(["seed-init-desc", "udma-tx", "udma-tx", "udma-tx"]);
    // W0: has_meta | meta_idx (phase 1 | FIRST); W1 0x6000000; W3 the seed.
    expect(words(w[0]!.bytes)).toEqual([0x05800000, 0x6000000, 0, 0xdeadbeef]);
    expect(words(w[1]!.bytes)[0]! & (1 << 26)).toBe(0);
  });
});

describe("replication and the combo / EXT packet (seed 000 §4.3, §5.1)", () => {
  it("trn1: num_dests > 1 is -EINVAL 'CCE replication not supported for v1/v2 archs'", () => {
    const { vring } = makeVring({ arch: "trn1" });
    const r = addDmaPacketCce(vring, add({ dests: [DST, DST + 0x1000n] }));
    expect(r).toEqual({ status: -22, message: "CCE replication not supported for v1/v2 archs" });
  });
  it("trn2: seed-init (combo member) · sources chained by the more-bit · replication descriptors; RX ext-meta", () => {
    const { vring } = makeVring();
    const dests = [DST, DST + 0x1000n, DST + 0x2000n];
    const w = ok(addDmaPacketCce(vring, add({ dests })));
    const t = tx(w);
    expect(t.map((d) => d.spec.layout.name)).toEqual([
      "seed-init-desc",
      "udma-tx",
      "udma-tx",
      "udma-tx",
      "replication-desc",
      "replication-desc",
    ]);
    expect(words(t[0]!.bytes)[1]).toBe(0x4000000);
    expect(t.slice(1, 4).map((d) => (words(d.bytes)[1]! & COMBO_MORE) !== 0)).toEqual([true, true, false]);
    expect(t.slice(4).map((d) => words(d.bytes).slice(1))).toEqual([
      [0x24a00000, 0x101000, 0],
      [0x24a00000, 0x102000, 0],
    ]);
    expect(words(rx(w)[0]!.bytes)[1]).toBe(0x2400000 | (6 << 12) | (10 << 16));
  });
  it("-EINVAL 'CCE concatenation not supported' when the chain overflows 64 descriptors", () => {
    const { vring } = makeVring();
    const fits = Array.from({ length: 48 }, (_, i) => DST + BigInt(i) * 0x100n); // 1 + 16 + 47 = 64
    expect(isEinval(addDmaPacketCce(vring, add({ sources: S(16), dests: fits })))).toBe(false);
    const over = [...fits, DST + 0x10000n];
    expect(addDmaPacketCce(vring, add({ sources: S(16), dests: over }))).toEqual({
      status: -22,
      message: "CCE concatenation not supported",
    });
  });
  it("the combo builder itself refuses arch ≤ 2", () => {
    const t = remapCceRequest(add({ dests: [DST, DST + 0x100n] }));
    expect(awsCaymanSdmaM2mBuildComboOp(SUNDA, { stochasticRounding: false, srSeed: 0 }, t)).toEqual({
      status: -22,
      message: "CCE concatenation not supported",
    });
  });
});
