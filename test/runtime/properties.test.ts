/**
 * Properties: any CCE or copy request either builds descriptors whose decode (from the ring bytes)
 * gives back the request's parameters, or fails with a typed error (SdmakitError thrown, -EINVAL
 * returned); and no request writes outside its rings.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isEinval, SdmakitError } from "../../src/bits/index.js";
import {
  addDmaPacket,
  addDmaPacketCce,
  type CceRequest,
  fmaInfo,
  fmaScale,
  type WrittenDescriptor,
} from "../../src/runtime/index.js";
import {
  COMBO_MORE,
  Dtype,
  dtypeBytes,
  FMA_DESC,
  KbinDmaDescOp,
  MIN_MAX_DESC,
  REPLICATION_DESC,
  UDMA_RX,
  UDMA_TX,
} from "../../src/spec/index.js";
import { type Fixture, makeVring } from "./fixtures.js";

const addr = fc.bigInt({ min: 0n, max: 2n ** 48n });
const OPS = [KbinDmaDescOp.ADD, KbinDmaDescOp.FMA, KbinDmaDescOp.MIN, KbinDmaDescOp.MAX];

const cceArb = fc.record({
  arch: fc.constantFrom("trn1", "trn2", "trn3"),
  sr: fc.boolean(),
  op: fc.constantFrom(...OPS),
  sources: fc.array(addr, { minLength: 0, maxLength: 18 }),
  dests: fc.array(addr, { minLength: 1, maxLength: 3 }),
  elements: fc.integer({ min: 1, max: 2100 }),
  inDtype: fc.integer({ min: 0, max: 16 }),
  accumDtype: fc.integer({ min: 1, max: 15 }),
  outDtype: fc.integer({ min: 1, max: 15 }),
  scales: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 18, maxLength: 18 }),
  useConstant: fc.boolean(),
  constantDtype: fc.constantFrom(Dtype.FP32, Dtype.INT32, Dtype.UINT32, Dtype.BFLOAT16),
  constant: fc.integer({ min: 0, max: 0xffffffff }),
  dmb: fc.boolean(),
  wrbar: fc.boolean(),
});

/** Record every memory write; the check it returns ends the case: each landed inside a ring. */
function guardWrites(f: Fixture): () => void {
  const { memory, vring } = f;
  const write = memory.write.bind(memory);
  const bad: string[] = [];
  memory.write = (a: bigint, data: Uint8Array, what?: string) => {
    const inside = [vring.tx, vring.rx].some(
      (r) => a >= r.base && a + BigInt(data.length) <= r.base + BigInt(r.slots * 16),
    );
    if (!inside) bad.push(`0x${a.toString(16)}+${data.length}`);
    write(a, data, what);
  };
  return () => {
    // The case is over: the next one's memory reuses the arena (a new WebAssembly memory a case
    // kept the collector busy).
    memory.release();
    expect(bad).toEqual([]);
  };
}

function checkCce(r: CceRequest, w: WrittenDescriptor[], useConstant: boolean): void {
  const tx = w.filter((d) => d.ring === "tx").map((d) => ({ d, f: d.spec.layout.decode(d.bytes) }));
  const rx = w.filter((d) => d.ring === "rx").map((d) => UDMA_RX.decode(d.bytes));
  const data = tx.filter((t) => t.d.spec.layout === UDMA_TX);
  expect(data.map((t) => t.f.buf_ptr)).toEqual(r.sources);
  expect(data.map((t) => t.f["len_ctrl.has_meta"])).toEqual(r.sources.map(() => false));
  expect(data.map((t) => t.f["len_ctrl.length"])).toEqual(r.sources.map(() => r.size));
  const metas = data.map((t) => Number(t.f.meta_ctrl));
  expect(metas.map((m) => (m >>> 7) & 1)).toEqual(
    r.sources.map((_, i) => (i === r.sources.length - 1 ? 1 : 0)),
  );
  const optype = {
    [KbinDmaDescOp.ADD]: 0,
    [KbinDmaDescOp.FMA]: 1,
    [KbinDmaDescOp.MAX]: 2,
    [KbinDmaDescOp.MIN]: 3,
  }[r.op];
  expect(metas.map((m) => [(m >>> 23) & 7, (m >>> 20) & 7])).toEqual(r.sources.map(() => [4, optype]));
  const combo = r.dests.length > 1;
  expect(metas.map((m) => (m & COMBO_MORE) !== 0)).toEqual(
    r.sources.map((_, i) => combo && i < r.sources.length - 1),
  );
  expect(rx).toHaveLength(1);
  expect(rx[0]!.buf1_ptr).toBe(r.dests[0]);
  const rxMeta = Number(rx[0]!.buf2_ptr_lo);
  expect((rxMeta >>> 16) & 0xf).toBe(r.accumDtype);
  const promoted = r.sources.length === 1 && r.inDtype === r.outDtype && dtypeBytes(r.inDtype as Dtype) === 1;
  expect((rxMeta >>> 12) & 0xf).toBe(promoted ? Dtype.UINT16 : r.outDtype);
  const elements = r.size / dtypeBytes(r.inDtype as Dtype);
  expect(rx[0]!["len_ctrl.length"]).toBe(promoted ? r.size : elements * dtypeBytes(r.outDtype as Dtype));
  if (r.op === KbinDmaDescOp.FMA) {
    const scales = tx.filter((t) => t.d.spec.layout === FMA_DESC).map((t) => t.f.scale);
    expect(scales).toEqual(r.sources.map((_, i) => Math.fround(fmaScale(r.cceInfo!, i)!)));
  }
  const consts = tx.filter((t) => t.d.spec.layout === MIN_MAX_DESC).map((t) => t.f.constant);
  expect(consts).toEqual(
    useConstant && (r.op === KbinDmaDescOp.MIN || r.op === KbinDmaDescOp.MAX)
      ? [r.cceInfo!["min_max_info.constant"]]
      : [],
  );
  expect(tx.filter((t) => t.d.spec.layout === REPLICATION_DESC).map((t) => t.f.dest)).toEqual(
    r.dests.slice(1),
  );
  // A fresh ring: every descriptor carries phase 1, FIRST on the first of each chain, LAST on the last.
  expect(w.every((d) => d.phase === 1 && (d.bytes[3]! & 3) === 1)).toBe(true);
  expect(tx.map((t) => (t.d.bytes[3]! >> 2) & 3)).toEqual(
    tx.map((_, i) => (i === 0 ? 1 : 0) | (i === tx.length - 1 ? 2 : 0)),
  );
}

describe("properties", () => {
  it("a CCE request builds what it asked for, or fails typed; nothing lands outside the rings", () => {
    fc.assert(
      fc.property(cceArb, (g) => {
        const f = makeVring({ arch: g.arch, sr: g.sr, seed: 7 });
        const done = guardWrites(f);
        const inBytes = g.inDtype >= 1 && g.inDtype <= 15 ? dtypeBytes(g.inDtype as Dtype) : 1;
        const n = g.sources.length;
        const cceInfo =
          g.op === KbinDmaDescOp.FMA
            ? { num_sources: n, num_dests: g.dests.length, ...fmaInfo(g.scales) }
            : {
                num_sources: n,
                num_dests: g.dests.length,
                "min_max_info.use_constant": g.useConstant,
                "min_max_info.constant_dtype": g.constantDtype,
                "min_max_info.constant": g.constant,
              };
        const r: CceRequest = {
          op: g.op,
          sources: g.sources,
          dests: g.dests,
          size: g.elements * inBytes,
          inDtype: g.inDtype,
          accumDtype: g.accumDtype,
          outDtype: g.outDtype,
          dmb: g.dmb,
          wrbar: g.wrbar,
          cceInfo,
        };
        let out: ReturnType<typeof addDmaPacketCce>;
        try {
          out = addDmaPacketCce(f.vring, r);
        } catch (e) {
          expect(e).toBeInstanceOf(SdmakitError);
          done();
          return;
        }
        if (!isEinval(out)) checkCce(r, out, g.useConstant);
        done();
      }),
      { numRuns: 400 },
    );
  });

  it("a copy moves exactly its bytes in ≤ 64 KiB descriptors, or fails typed", () => {
    fc.assert(
      fc.property(
        addr,
        addr,
        fc.integer({ min: -1, max: 5 * 2 ** 20 }),
        fc.integer({ min: 0, max: 40 }),
        (src, dst, size, pre) => {
          const f = makeVring({ slots: 128 });
          const done = guardWrites(f);
          try {
            for (let i = 0; i < pre; i++) addDmaPacket(f.vring, { src, dst, size: 1 });
            const w = addDmaPacket(f.vring, { src, dst, size });
            for (const ring of ["tx", "rx"] as const) {
              const ds = w
                .filter((d) => d.ring === ring)
                .map((d) => (ring === "tx" ? UDMA_TX : UDMA_RX).decode(d.bytes));
              const lens = ds.map((d) => (d["len_ctrl.length"] === 0 ? 65536 : Number(d["len_ctrl.length"])));
              expect(lens.reduce((a, b) => a + b, 0)).toBe(size);
              const ptrs = ds.map((d) => ("buf_ptr" in d ? d.buf_ptr : d.buf1_ptr));
              expect(ptrs[0]).toBe(ring === "tx" ? src : dst);
            }
          } catch (e) {
            expect(e).toBeInstanceOf(SdmakitError);
          }
          done();
        },
      ),
      { numRuns: 150 },
    );
  });
});
