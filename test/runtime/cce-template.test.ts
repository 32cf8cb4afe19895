/**
 * The packet templates (runtime/builders/cce-template.ts): a request of a shape seen before on a vring is
 * posted from its template — it must write the very bytes building it afresh writes, at every ring
 * position, across the wrap, for every packet kind; and a new shape must never hit an old template.
 */
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import {
  addDmaPacket,
  addDmaPacketCce,
  type CceInfo,
  type CceRequest,
  cceTemplateOf,
  copyTemplateOf,
  fmaInfo,
  minMaxConstant,
  postDmaPacket,
  postDmaPacketCce,
  remapCceRequest,
  vringAddDmaPacketCceInt,
  type WrittenDescriptor,
} from "../../src/runtime/index.js";
import { Dtype, KbinDmaDescOp, queueRegisterAddress } from "../../src/spec/index.js";
import { makeVring, RING_REGION } from "./fixtures.js";

/** The smallest ring the driver allows (udma.h UDMA_MIN_Q_SIZE): 12 packets wrap it. */
const SLOTS = 32;

/** Requests of one shape, packet p at its own addresses. */
function requests(op: number, sources: number, dests: number, useConst: boolean): CceRequest[] {
  const cceInfo: CceInfo = {
    num_sources: sources,
    num_dests: dests,
    ...fmaInfo(Array.from({ length: sources }, (_, i) => 0.5 + i)),
    ...minMaxConstant(0x3f80_0000),
    "min_max_info.use_constant": useConst,
  };
  return Array.from({ length: 12 }, (_, p) => ({
    op,
    sources: Array.from({ length: sources }, (_, i) => BigInt(p * 0x1_0000 + i * 0x100)),
    dests: Array.from({ length: dests }, (_, i) => 0x80_0000n + BigInt(p * 0x1_0000 + i * 0x100)),
    size: 64,
    inDtype: Dtype.BFLOAT16,
    wrbar: p % 2 === 0,
    cceInfo,
  }));
}

/** Post every request on a fresh 32-slot vring, the engine's head kept just behind the tail. */
function postAll<R>(
  rs: readonly R[],
  post: (v: ReturnType<typeof makeVring>["vring"], r: R) => ReturnType<typeof addDmaPacketCce>,
  sr: boolean,
) {
  const f = makeVring({ slots: SLOTS, sr, seed: 99 });
  const written: WrittenDescriptor[][] = [];
  for (const r of rs) {
    for (const side of ["tx", "rx"] as const) {
      const drhp = queueRegisterAddress(f.vring.profile, { engine: 0, queue: 0 }, side, "drhp");
      f.registers.write32(drhp, f.vring[side].tail, "engine");
    }
    const w = post(f.vring, r);
    if (isEinval(w)) throw new Error(w.message);
    written.push(w);
  }
  const ring = (base: bigint) => f.memory.read(base, SLOTS * 16);
  const rings = { written, tx: ring(RING_REGION.base), rx: ring(RING_REGION.base + 0x8_0000n) };
  f.memory.release(); // read as copies: the next vring reuses the arena, not a new one
  return rings;
}

const view = (w: WrittenDescriptor) => ({
  ring: w.ring,
  slot: w.slot,
  addr: w.addr,
  phase: w.phase,
  bytes: w.bytes,
  layout: w.spec.layout.name,
  fields: w.spec.fields,
  first: w.spec.first,
  last: w.spec.last,
});

const CASES: [string, number, number, number, boolean][] = [];
for (const [name, op] of Object.entries({ ADD: 2, FMA: 1, MIN: 3, MAX: 4 }))
  for (const [sources, dests] of [
    [1, 1],
    [2, 1],
    [3, 2],
  ] as const)
    for (const useConst of op >= 3 ? [false, true] : [false])
      CASES.push([`${name} ${sources}→${dests}${useConst ? " const" : ""}`, op, sources, dests, useConst]);

describe("a packet from its template is the packet built afresh", () => {
  it.each(CASES)("%s", (_, op, sources, dests, useConst) => {
    for (const sr of [false, true]) {
      const rs = requests(op, sources, dests, useConst);
      const templated = postAll(rs, addDmaPacketCce, sr);
      const fresh = postAll(rs, (v, r) => vringAddDmaPacketCceInt(v, remapCceRequest(r)), sr);
      expect(templated.tx).toEqual(fresh.tx);
      expect(templated.rx).toEqual(fresh.rx);
      expect(templated.written.map((w) => w.map(view))).toEqual(fresh.written.map((w) => w.map(view)));
    }
  });

  it("a request that differs in anything but its addresses gets its own packet", () => {
    const [r] = requests(KbinDmaDescOp.ADD, 2, 1, false) as [CceRequest];
    const variants: CceRequest[] = [
      r,
      { ...r, size: 128 },
      { ...r, inDtype: Dtype.FP32, size: 128 },
      { ...r, outDtype: Dtype.FP32 },
      { ...r, accumDtype: Dtype.BFLOAT16 },
      { ...r, wrbar: !r.wrbar },
      { ...r, dmb: true },
      { ...r, op: KbinDmaDescOp.MAX },
      { ...r, op: KbinDmaDescOp.FMA },
      {
        ...r,
        op: KbinDmaDescOp.FMA,
        cceInfo: { num_sources: 2, num_dests: 1, ...fmaInfo([0.5, -0]) },
      },
      {
        ...r,
        op: KbinDmaDescOp.MIN,
        cceInfo: {
          ...(r.cceInfo as NonNullable<CceRequest["cceInfo"]>),
          ...minMaxConstant(7),
        },
      },
    ];
    const posted = postAll(variants, addDmaPacketCce, false);
    const fresh = postAll(variants, (v, x) => vringAddDmaPacketCceInt(v, remapCceRequest(x)), false);
    expect(posted.tx).toEqual(fresh.tx);
    expect(posted.rx).toEqual(fresh.rx);
  });

  it("an address outside u64 on a templated shape is the builder's FieldError, nothing written", () => {
    const [a, b] = requests(KbinDmaDescOp.ADD, 2, 1, false) as [CceRequest, CceRequest];
    const f = makeVring({ slots: SLOTS });
    addDmaPacketCce(f.vring, a);
    const tail = f.vring.tx.tail;
    expect(() => addDmaPacketCce(f.vring, { ...b, sources: [-1n, 0n] })).toThrow(/udma-tx\(buf_ptr\)/);
    expect(f.vring.tx.tail).toBe(tail);
  });
});

describe("vrings alike in profile and SR settings share their templates", () => {
  it("a shape compiled on one vring is posted from the same template on another; another seed has its own", () => {
    const [r] = requests(KbinDmaDescOp.ADD, 2, 1, false) as [CceRequest];
    const vrings = (sr: boolean, seed: number) => makeVring({ slots: SLOTS, sr, seed }).vring;
    const first = vrings(true, 1234);
    expect(cceTemplateOf(first, r)).toBeUndefined();
    addDmaPacketCce(first, r);
    expect(cceTemplateOf(vrings(true, 1234), r)).toBe(cceTemplateOf(first, r));
    const other = vrings(true, 1235);
    expect(cceTemplateOf(other, r)).toBeUndefined();
    // Without SR the seed is in no descriptor: every seed shares.
    addDmaPacketCce(vrings(false, 1234), r);
    expect(cceTemplateOf(vrings(false, 1235), r)).toBe(cceTemplateOf(vrings(false, 1234), r));
    // The other seed's packet carries its own seed: the bytes of a fresh build.
    const templated = addDmaPacketCce(other, r);
    const fresh = vringAddDmaPacketCceInt(vrings(true, 1235), remapCceRequest(r));
    if (isEinval(templated) || isEinval(fresh)) throw new Error("refused");
    expect(templated.map(view)).toEqual(fresh.map(view));
  });
});

describe("the quiet posts (no descriptors returned) write add_dma_packet(_cce)'s bytes", () => {
  it.each(CASES)("CCE %s", (_, op, sources, dests, useConst) => {
    for (const sr of [false, true]) {
      const rs = requests(op, sources, dests, useConst);
      const quiet = postAll(rs, (v, r) => postDmaPacketCce(v, r) ?? [], sr);
      const fresh = postAll(rs, addDmaPacketCce, sr);
      expect(quiet.tx).toEqual(fresh.tx);
      expect(quiet.rx).toEqual(fresh.rx);
      // Re-pointed by Number addresses, the first of the shape posted from its request.
      const at = postAll(
        rs,
        (v, r) => {
          const t = cceTemplateOf(v, r);
          const ok = t?.postAt(v, Float64Array.from(r.sources, Number), Float64Array.from(r.dests, Number));
          return ok === true ? [] : (postDmaPacketCce(v, r) ?? []);
        },
        sr,
      );
      expect(at.tx).toEqual(fresh.tx);
      expect(at.rx).toEqual(fresh.rx);
    }
  });
  it("copies of one and several 64 KiB chunks, with DMB and write barrier, across the wrap", () => {
    for (const size of [64, 65536, 3 * 65536 + 100]) {
      const rs = Array.from({ length: 12 }, (_, p) => ({
        src: BigInt(p * 0x4_0000 + 16),
        dst: 0x80_0000n + BigInt(p * 0x4_0000),
        size,
        ...(p % 3 === 1 ? { dmb: true } : {}),
        ...(p % 2 === 0 ? { wrbar: true } : {}),
      }));
      const quiet = postAll(
        rs,
        (v, r) => {
          postDmaPacket(v, r);
          return [];
        },
        false,
      );
      const fresh = postAll(rs, addDmaPacket, false);
      expect(quiet.tx).toEqual(fresh.tx);
      expect(quiet.rx).toEqual(fresh.rx);
      const at = postAll(
        rs,
        (v, r) => {
          const t = copyTemplateOf(r);
          expect(t.postAt(v, Float64Array.of(Number(r.src)), Float64Array.of(Number(r.dst)))).toBe(true);
          return [];
        },
        false,
      );
      expect(at.tx).toEqual(fresh.tx);
      expect(at.rx).toEqual(fresh.rx);
    }
  });
  it("a copy the layouts refuse throws as add_dma_packet does", () => {
    const { vring } = makeVring({ slots: SLOTS });
    expect(() => postDmaPacket(vring, { src: 0n, dst: 0n, size: 0 })).toThrow("size");
    postDmaPacket(vring, { src: 0n, dst: 0n, size: 64 });
    expect(() => postDmaPacket(vring, { src: 2n ** 64n, dst: 0n, size: 64 })).toThrow();
    const t = copyTemplateOf({ src: 0n, dst: 0n, size: 64 });
    expect(t.postAt(vring, Float64Array.of(2 ** 53), Float64Array.of(0))).toBe(false);
    expect(t.postAt(vring, Float64Array.of(0.5), Float64Array.of(0))).toBe(false);
  });
});

describe("a template post after the memory let its pages go", () => {
  it("writes into the page the memory has now, not the one the ring found before", () => {
    const f = makeVring({ slots: SLOTS });
    const rs = requests(KbinDmaDescOp.ADD, 2, 1, false);
    const post = (r: CceRequest) => {
      for (const side of ["tx", "rx"] as const) {
        const drhp = queueRegisterAddress(f.vring.profile, { engine: 0, queue: 0 }, side, "drhp");
        f.registers.write32(drhp, f.vring[side].tail, "engine");
      }
      const tail = f.vring.tx.tail;
      expect(postDmaPacketCce(f.vring, r)).toBeUndefined();
      return f.memory.read(RING_REGION.base + BigInt(16 * tail), 16 * (f.vring.tx.tail - tail));
    };
    // The second post is the template's: the ring's page is found and kept.
    post(rs[0] as CceRequest);
    expect(post(rs[1] as CceRequest).some((b) => b !== 0)).toBe(true);
    f.memory.release();
    expect(post(rs[2] as CceRequest).some((b) => b !== 0)).toBe(true);
    f.memory.release();
  });
});
