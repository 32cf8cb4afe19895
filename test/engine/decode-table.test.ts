/**
 * The engine's decoder pinned by raw bytes (as nand2tetris pins its CPU by instruction words): each
 * row is a TX and an RX chain in hex, 16 bytes per descriptor, and the plan the engine makes of it
 * or the fault it names. Written by hand from the layouts' bit positions, not through the builders.
 */
import { describe, expect, it } from "vitest";
import { fromHex } from "../../src/bits/index.js";
import {
  type Descriptor,
  DescriptorFault,
  type PacketPlan,
  planPacket,
  toDescriptor,
} from "../../src/engine/index.js";
import { CAYMAN, SUNDA } from "../../src/hal/index.js";

// len_ctrl 0x0d000010: 16 bytes, ring id 1, FIRST, LAST (0x0d800010 with has_meta, bit 23).
const COPY_TX = "1000000d030008010010000000000000"; // meta_ctrl 0x01080003, buf_ptr 0x1000
const COPY_RX = "1000000d000000000020000000000000"; // buf1_ptr 0x2000
const ADD_SRC = "1000000d80a00a020010000000000000"; // add-meta 0x020aa080: fp32/fp32, last
const ADD_SRC_NOT_LAST = "1000000d00a00a020010000000000000"; // add-meta 0x020aa000
const ADD_RX = "1000800d00a00a020020000000000000"; // has_meta, S2M add-meta out fp32
const SEED_INIT = "0000800500000006000000002a000000"; // W1 0x6000000, W3 seed 42

const chain = (ring: "tx" | "rx", hex: readonly string[]): Descriptor[] =>
  hex.map((h, slot) => toDescriptor({ engine: 0, queue: 0, ring, slot }, fromHex(h)));

const plan = (tx: readonly string[], rx: readonly string[], profile = CAYMAN): PacketPlan =>
  planPacket(profile, chain("tx", tx), chain("rx", rx));

describe("raw descriptor chains → the engine's plan", () => {
  it("a 16-byte plain copy", () => {
    expect(plan([COPY_TX], [COPY_RX])).toMatchObject({
      kind: "copy",
      tx: [{ at: 0x1000, len: 16 }],
      rx: [{ at: 0x2000, len: 16 }],
      barrier: false,
    });
  });
  it("ADD of one fp32 source", () => {
    expect(plan([ADD_SRC], [ADD_RX])).toMatchObject({
      kind: "cce",
      op: "add",
      elements: 4,
      outDt: 10,
      sources: [{ at: 0x1000, inDt: 10, elements: 4 }],
      replicas: [],
      combo: false,
    });
  });
  it("ADD of two sources behind a seed-init that loads seed 42", () => {
    const p = plan([SEED_INIT, ADD_SRC_NOT_LAST, ADD_SRC], [ADD_RX]);
    expect(p).toMatchObject({ kind: "cce", op: "add", seed: 42 });
    expect(p.kind === "cce" && p.sources.length).toBe(2);
  });
});

describe("raw descriptor chains → the fault the engine names", () => {
  it.each([
    [
      "copy meta_ctrl with op 3",
      ["1000000d030088010010000000000000"],
      [COPY_RX],
      /has op 3: neither copy \(2\) nor CCE \(4\)/,
    ],
    [
      "TX 16 bytes, RX 8",
      [COPY_TX],
      ["0800000d000000000020000000000000"],
      /TX chain moves 16 bytes but RX chain receives 8/,
    ],
    [
      "the only source lacks the last bit",
      [ADD_SRC_NOT_LAST],
      [ADD_RX],
      /final source's meta-control lacks the last bit/,
    ],
    ["source dtype 0", ["1000000d80000a020010000000000000"], [ADD_RX], /source dtype 0 is not a dtype/],
    [
      "compute RX without has_meta",
      [ADD_SRC],
      ["1000000d00a00a020020000000000000"],
      /RX descriptor has no S2M meta-control/,
    ],
    [
      "FMA source without its fma-desc",
      ["1000000d80aa1a020010000000000000"],
      [ADD_RX],
      /FMA source without its fma-desc/,
    ],
    [
      "combo more-bit outside a combo",
      ["1000000d80a00a420010000000000000"],
      [ADD_RX],
      /more-bit \(0x40000000\) outside an EXT combo/,
    ],
    [
      "seed-init with W2 set is neither seed-init nor constant",
      ["0000800500000006010000002a000000", ADD_SRC],
      [ADD_RX],
      /neither seed-init nor a MIN\/MAX constant/,
    ],
    [
      "a MIN/MAX constant in an ADD packet (the grammar has none there)",
      ["00008005000020061000000200000000", ADD_SRC], // W1 0x6200000 sub_desc 3, W2 0x2000010
      [ADD_RX],
      /constant \(min-max\) descriptor in a ADD packet/,
    ],
    [
      "a combo-member seed-init in a packet whose S2M meta is not EXT",
      ["00008005000000040000000000000000", ADD_SRC], // W1 0x4000000 sub_desc 2
      [ADD_RX],
      /combo-member seed-init \(0x4000000\) in a packet whose S2M meta is not EXT/,
    ],
    [
      "a compute descriptor of no grammar kind after the last source",
      [ADD_SRC, "00008009000030000000000000000000"], // W1 0x300000: op 0 optype 3
      [ADD_RX],
      /after the last source is neither gradient nor replication/,
    ],
  ])("%s", (_, tx, rx, message) => {
    expect(() => plan(tx, rx)).toThrow(DescriptorFault);
    expect(() => plan(tx, rx)).toThrow(message);
  });
  it("a replication descriptor on SUNDA (arch 2)", () => {
    const replication = "000080090000a0240030000000000000"; // W1 0x24a00000 (mode 1), dest 0x3000
    expect(() => plan([SEED_INIT, ADD_SRC, replication], [ADD_RX], SUNDA)).toThrow(
      /replication descriptor on SUNDA/,
    );
  });
});
