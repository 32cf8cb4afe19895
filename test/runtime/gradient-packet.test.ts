/** The GCE gradient packet (seed 000 §5.2): the three strings, compress and decompress. */
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { addGradientPacket, GceMode, type GceRequest } from "../../src/runtime/index.js";
import { Dtype, GCE_HEADER, gcePayloadBytes } from "../../src/spec/index.js";
import { makeVring, words } from "./fixtures.js";

const HEADER = 0x8000n;
const req = (over: Partial<GceRequest> = {}): GceRequest => ({
  mode: GceMode.COMPRESS,
  sources: [0x1000n, 0x2000n],
  dest: 0x4000n,
  headerAddr: HEADER,
  elements: 64,
  dtype: Dtype.BFLOAT16,
  blockLog2: 5,
  ...over,
});

describe("GCE compress", () => {
  it("per-source gce-meta TX, the gradient descriptor last, RX the payload", () => {
    const { vring } = makeVring();
    const w = addGradientPacket(vring, req());
    if (isEinval(w)) throw new Error(w.message);
    const tx = w.filter((d) => d.ring === "tx");
    expect(tx.map((d) => d.spec.layout.name)).toEqual(["udma-tx", "udma-tx", "gradient-desc"]);
    expect(words(tx[1]!.bytes)[1]).toBe(0x2500000 | (6 << 8) | (10 << 12) | (10 << 16) | 0x80);
    expect(words(tx[2]!.bytes).slice(1)).toEqual([0x2500000 | 1 | (5 << 8), 0x8000, 0]);
    const rx = w.filter((d) => d.ring === "rx");
    expect(words(rx[0]!.bytes)[0]! & 0xffff).toBe(gcePayloadBytes(64, 5));
    expect(gcePayloadBytes(64, 5)).toBe(2 * 4 + 64);
  });
});

describe("GCE decompress", () => {
  it("writes the decompression header, reads the payload, expands into the destination", () => {
    const { vring, memory } = makeVring();
    const w = addGradientPacket(
      vring,
      req({ mode: GceMode.DECOMPRESS, sources: [0x1000n], dtype: Dtype.FP32 }),
    );
    if (isEinval(w)) throw new Error(w.message);
    expect(GCE_HEADER.decode(memory.read(HEADER, 16))).toMatchObject({
      elements: 64,
      dtype: Dtype.FP32,
      block_log2: 5,
      payload_bytes: 72,
    });
    expect(words(w[0]!.bytes)[0]! & 0xffff).toBe(72);
    expect(words(w.find((d) => d.ring === "rx")!.bytes)[0]! & 0xffff).toBe(256);
  });
});

describe("GCE -EINVAL messages", () => {
  it("invalid (de)compression header addr", () => {
    const { vring } = makeVring();
    expect(addGradientPacket(vring, req({ headerAddr: 0n }))).toEqual({
      status: -22,
      message: "invalid compression header addr 0",
    });
    expect(
      addGradientPacket(vring, req({ mode: GceMode.DECOMPRESS, sources: [0x1000n], headerAddr: 0x8004n })),
    ).toEqual({
      status: -22,
      message: "invalid decompression header addr 8004",
    });
  });
  it("Failed to build decompression header (header address not mapped)", () => {
    const { vring } = makeVring();
    expect(
      addGradientPacket(
        vring,
        req({ mode: GceMode.DECOMPRESS, sources: [0x1000n], headerAddr: 0x7000_0000_0000n }),
      ),
    ).toEqual({
      status: -22,
      message: "Failed to build decompression header",
    });
  });
  it.each([
    { elements: 0 },
    { elements: 2049 },
    { sources: [] },
    { mode: GceMode.DECOMPRESS, sources: [0x1000n, 0x2000n] },
    { blockLog2: 16 },
  ] as Partial<GceRequest>[])("Failed to build buffer packet for gce op: %o", (over) => {
    const { vring } = makeVring();
    expect(addGradientPacket(vring, req(over))).toEqual({
      status: -22,
      message: "Failed to build buffer packet for gce op",
    });
  });
  it("2048 elements (the trn2 cap) build", () => {
    const { vring } = makeVring();
    expect(isEinval(addGradientPacket(vring, req({ elements: 2048 })))).toBe(false);
  });
});
