/**
 * The ring-packet grammar (spec/ring-packet.ts) is the one declaration of a compute packet's
 * descriptors: for every packet kind the runtime's builder writes exactly the grammar's chain, the
 * engine reads that chain back through the grammar (matchCceTx) and plans it as the same packet, and
 * cceDescriptorCount counts it.
 */
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { type CcePlan, planPacket, toDescriptor } from "../../src/engine/index.js";
import { CAYMAN } from "../../src/hal/index.js";
import {
  addDmaPacketCce,
  addGradientPacket,
  fmaInfo,
  GceMode,
  minMaxConstant,
  type WrittenDescriptor,
} from "../../src/runtime/index.js";
import {
  cceDescriptorCount,
  cceDescriptors,
  Dtype,
  KbinDmaDescOp,
  matchCceTx,
  type PacketOp,
  type PacketShape,
  txKindOf,
  txKindOfWords,
} from "../../src/spec/index.js";
import { makeVring } from "../runtime/fixtures.js";

const KBIN: Record<Exclude<PacketOp, "gce">, number> = {
  add: KbinDmaDescOp.ADD,
  fma: KbinDmaDescOp.FMA,
  min: KbinDmaDescOp.MIN,
  max: KbinDmaDescOp.MAX,
};
const addr = (i: number) => 0x1000n * BigInt(i + 1);

/** Build one packet of this shape through the runtime; its written descriptors. */
function build(s: PacketShape): WrittenDescriptor[] {
  const { vring } = makeVring({ sr: s.sr, seed: 7 });
  const sources = Array.from({ length: s.sources }, (_, i) => addr(i));
  const dests = Array.from({ length: s.dests }, (_, i) => 0x80_0000n + addr(i));
  const written =
    s.op === "gce"
      ? addGradientPacket(vring, {
          mode: GceMode.COMPRESS,
          sources,
          dest: dests[0] as bigint,
          headerAddr: 0x90_0000n,
          elements: 64,
          dtype: Dtype.FP32,
          blockLog2: 5,
        })
      : addDmaPacketCce(vring, {
          op: KBIN[s.op],
          sources,
          dests,
          size: 256,
          inDtype: Dtype.FP32,
          cceInfo: {
            num_sources: s.sources,
            num_dests: s.dests,
            ...fmaInfo(sources.map(() => 0.5)),
            ...(s.op === "min" || s.op === "max"
              ? { ...minMaxConstant(0), "min_max_info.use_constant": s.useConst ?? false }
              : {}),
          },
        });
  if (isEinval(written)) throw new Error(written.message);
  return written;
}

const SHAPES: PacketShape[] = [];
for (const op of ["add", "fma", "min", "max"] as const)
  for (const sources of [1, 2, 17])
    for (const dests of [1, 3])
      for (const sr of [false, true])
        for (const useConst of op === "min" || op === "max" ? [false, true] : [false])
          SHAPES.push({ op, sources, dests, sr, useConst });
for (const sources of [1, 3])
  for (const sr of [false, true]) SHAPES.push({ op: "gce", sources, dests: 1, sr });

/** A xorshift32 stream from `seed`: the same draws run after run. */
function xorshift(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

describe("txKindOfWords tells the kind txKindOf does, from the words first", () => {
  const words = (b: Uint8Array) => {
    const v = new DataView(b.buffer, b.byteOffset, 16);
    return { w0: v.getUint32(0, true), w1: v.getUint32(4, true), bytes: b };
  };
  /**
   * The descriptors whose two kinds differ, with both kinds: one expect a test, not one a
   * descriptor (a quarter of a million expects were half of this file's CPU).
   */
  const disagreeing = (descriptors: Iterable<Uint8Array>) => {
    const out: string[] = [];
    for (const b of descriptors) {
      const fromWords = txKindOfWords(words(b));
      const fromBytes = txKindOf(b);
      if (fromWords !== fromBytes)
        out.push(`${Buffer.from(b).toString("hex")}: ${String(fromWords)} ≠ ${String(fromBytes)}`);
    }
    return out;
  };
  /** Built once for the file's four tests (≈ 0.6 s a build of every shape). */
  let everyTx: ReturnType<typeof build> | undefined;
  const txOfEveryShape = () => {
    everyTx ??= SHAPES.flatMap((s) => build(s).filter((w) => w.ring === "tx"));
    return everyTx;
  };
  it("on every descriptor of every packet kind the builders write", () => {
    expect(disagreeing(txOfEveryShape().map((d) => d.bytes))).toEqual([]);
  });
  it("on those descriptors with any one bit flipped", () => {
    function* flipped() {
      for (const d of txOfEveryShape())
        for (let bit = 0; bit < 128; bit++) {
          const b = d.bytes.slice();
          b[bit >> 3]! ^= 1 << (bit & 7);
          yield b;
        }
    }
    expect(disagreeing(flipped())).toEqual([]);
  });
  it("on those descriptors with random bits flipped (kinds lost, gained or changed)", () => {
    const next = xorshift(0x9e3779b9);
    function* flipped() {
      for (const d of txOfEveryShape())
        for (let k = 0; k < 200; k++) {
          const b = d.bytes.slice();
          for (let f = next() % 4; f >= 0; f--) b[next() % 16]! ^= 1 << (next() % 8);
          yield b;
        }
    }
    expect(disagreeing(flipped())).toEqual([]);
  });
  it("from the bits it reports read: any other bits leave the kind (the engine's kind memo)", () => {
    const next = xorshift(0x2545f491);
    const out: string[] = [];
    for (const d of txOfEveryShape())
      for (let bit = -1; bit < 128; bit++) {
        // Each descriptor, and it with one bit flipped (kinds lost, gained or changed).
        const b = d.bytes.slice();
        if (bit >= 0) b[bit >> 3]! ^= 1 << (bit & 7);
        const read = new Uint32Array(4);
        const kind = txKindOfWords(words(b), read);
        const other = b.slice();
        const v = new DataView(other.buffer);
        for (let w = 0; w < 4; w++) {
          const m = read[w] as number;
          v.setUint32(4 * w, ((v.getUint32(4 * w, true) & m) | (next() & ~m)) >>> 0, true);
        }
        if (txKindOf(other) !== kind)
          out.push(`${Buffer.from(other).toString("hex")}: ${String(txKindOf(other))} ≠ ${String(kind)}`);
      }
    expect(out).toEqual([]);
  });
});

describe("builder, grammar and engine agree on every packet kind", () => {
  it.each(SHAPES.map((s) => [JSON.stringify(s), s] as const))("%s", (_, s) => {
    const written = build(s);
    const want = cceDescriptors(s);
    const layoutsOf = (ring: "tx" | "rx") =>
      written.filter((d) => d.ring === ring).map((d) => d.spec.layout.name);
    // The builder writes the grammar's chain, descriptor by descriptor.
    expect(layoutsOf("tx")).toEqual(want.tx.map((x) => x.layout.name));
    expect(layoutsOf("rx")).toEqual(want.rx.map((x) => x.layout.name));
    expect(written.length).toBe(cceDescriptorCount(s));
    // The engine reads the TX bytes through the grammar into the same slots.
    expect(
      matchCceTx(
        s.op,
        written.filter((d) => d.ring === "tx").map((d) => d.bytes),
      ),
    ).toEqual({ slots: want.tx });
    // The engine plans the bytes as the same packet.
    const fetched = (ring: "tx" | "rx") =>
      written
        .filter((d) => d.ring === ring)
        .map((d) => toDescriptor({ engine: 0, queue: 0, ring, slot: d.slot }, d.bytes));
    const plan = planPacket(CAYMAN, fetched("tx"), fetched("rx")) as CcePlan;
    expect(plan.kind).toBe("cce");
    expect(plan.op).toBe(s.op === "gce" ? "add" : s.op);
    expect(plan.sources.length).toBe(s.sources);
    expect(plan.sources.every((src) => (src.fma !== undefined) === (s.op === "fma"))).toBe(true);
    expect(plan.seed !== undefined).toBe(s.sr);
    expect(plan.constant !== undefined).toBe(s.useConst === true);
    expect(plan.gce !== undefined).toBe(s.op === "gce");
    expect(plan.replicas.length).toBe(s.dests - 1);
    expect(plan.combo).toBe(s.dests > 1);
  });

  it("counts the combo packet's mandatory seed-init (the timing formula's old miss)", () => {
    // ADD to 2 destinations without SR: seed-init + 1 source + 1 replication + 1 RX.
    expect(cceDescriptorCount({ op: "add", sources: 1, dests: 2, sr: false })).toBe(4);
  });
});
