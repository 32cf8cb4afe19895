/**
 * The engine's per-shape plan cache (src/engine/decode/plan-cache.ts): a packet of a shape seen before is
 * planned exactly as planPacket plans it afresh, and a ring write that changes a cached shape's words
 * is seen — the cache never runs a packet as the words it used to hold.
 */
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { type Device, HBM_BASE, PlanCache, planPacket, toDescriptor } from "../../src/engine/index.js";
import {
  addDmaPacketCce,
  type CceRequest,
  fmaInfo,
  type Vring,
  type WrittenDescriptor,
} from "../../src/runtime/index.js";
import { Dtype, KbinDmaDescOp } from "../../src/spec/index.js";
import { deviceVring } from "../runtime/fixtures.js";

const A = HBM_BASE + 0x100_0000n;
const B = HBM_BASE + 0x110_0000n;
const DST = HBM_BASE + 0x200_0000n;
const f32Bytes = (...v: number[]) => new Uint8Array(Float32Array.from(v).buffer);
const f32Of = (b: Uint8Array) => Array.from(new Float32Array(b.slice().buffer));

/** A device and a 64-slot vring (the runtime fixtures'), with two FP32 sources written. */
function machine(): { dev: Device; vring: Vring } {
  const { dev, vring } = deviceVring();
  dev.memory.write(A, f32Bytes(1, -2, 3, -4));
  dev.memory.write(B, f32Bytes(5, 6, -7, -8));
  return { dev, vring };
}

const request = (op: number, dest: bigint, extra: Partial<CceRequest> = {}): CceRequest => ({
  op,
  sources: [A, B],
  dests: [dest],
  size: 16,
  inDtype: Dtype.FP32,
  cceInfo: null,
  ...extra,
});

function post(vring: Vring, r: CceRequest): WrittenDescriptor[] {
  const w = addDmaPacketCce(vring, r);
  if (isEinval(w)) throw new Error(w.message);
  return w;
}

const fetched = (written: readonly WrittenDescriptor[], ring: "tx" | "rx") =>
  written
    .filter((d) => d.ring === ring)
    .map((d) => toDescriptor({ engine: 0, queue: 0, ring, slot: d.slot }, d.bytes));

describe("plan cache", () => {
  it("a shape seen before is bound from the cache and equals the fresh plan", () => {
    const { dev, vring } = machine();
    const cache = new PlanCache(dev.profile);
    for (let p = 0; p < 6; p++) {
      const w = post(
        vring,
        request(KbinDmaDescOp.FMA, DST + BigInt(64 * p), {
          sources: [A + BigInt(16 * p), B],
          cceInfo: { num_sources: 2, num_dests: 1, ...fmaInfo([0.5, 2 + (p % 2)]) },
        }),
      );
      const tx = fetched(w, "tx");
      const rx = fetched(w, "rx");
      expect(cache.plan(tx, rx)).toEqual(planPacket(dev.profile, tx, rx));
    }
    // Two scales, two shapes: an fma-desc's W3 is part of the key, its addresses are not.
    expect(cache.size).toBe(2);
  });

  it("a ring write that changes a cached shape's words is seen (ADD rewritten as MAX, then as 2 elements)", () => {
    const { dev, vring } = machine();
    // A twin machine posts the same first packet, then the rewrite: its ring bytes are what we write.
    const twin = machine();
    post(vring, request(KbinDmaDescOp.ADD, DST));
    post(twin.vring, request(KbinDmaDescOp.ADD, DST));
    expect(dev.run().faults).toEqual([]);
    expect(f32Of(dev.memory.read(DST, 16))).toEqual([6, 4, -4, -12]);

    for (const [rewrite, want] of [
      [request(KbinDmaDescOp.MAX, DST + 64n), [5, 6, 3, -4]],
      [request(KbinDmaDescOp.ADD, DST + 64n, { size: 8 }), [6, 4, 0, 0]],
    ] as const) {
      dev.memory.write(DST + 64n, new Uint8Array(16));
      // The cached shape's packet goes on the ring, then its slots are overwritten before it runs.
      const written = post(vring, request(KbinDmaDescOp.ADD, DST + 64n));
      const other = post(twin.vring, rewrite);
      expect(other.map((d) => [d.ring, d.slot])).toEqual(written.map((d) => [d.ring, d.slot]));
      for (const d of other) dev.memory.write(d.addr, d.bytes);
      expect(dev.run().faults).toEqual([]);
      expect(f32Of(dev.memory.read(DST + 64n, 16))).toEqual(want);
    }
  });
});
