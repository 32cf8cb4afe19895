import { describe, expect, it } from "vitest";
import { isEinval, SdmaAbortError, UsageError } from "../../src/bits/index.js";
import { CAYMAN, MARIANA } from "../../src/hal/index.js";
import {
  encdDmaCopySb2sb,
  encdDmaReduceCopySb2sb,
  eventsPlan,
  lowerS3d3Word,
  moveSegments,
  resolveNeighbor,
  type S3d3Word,
  SB2SB_MULTI_NODE_MESSAGE,
  type Sb2sbLeg,
  type Sb2sbPlace,
  type Sb2sbRequest,
  tensor3dElementOffsets,
  tensorOf,
} from "../../src/isa/index.js";
import { EncdNeigh, SBUF_WINDOWS, SdmaCceType, sbufAddress } from "../../src/spec/index.js";
import { counts, start, steps, tensor, VALID_WORD } from "./s3d3-fixtures.js";

const place: Sb2sbPlace = { self: 2, ringSize: 8, lnc: 2 };
const topology = { arch: CAYMAN, nodes: 1, place };
const legsOf = (x: Sb2sbLeg[] | { status: number }): Sb2sbLeg[] => {
  if (!Array.isArray(x)) throw new Error("expected legs");
  return x;
};

describe("encd_neigh resolution (seed 002 §4.4, MODEL)", () => {
  it("LOCAL, NEXT, PREV around the ring; PEER_LOCAL within the LNC2 pair", () => {
    const core = (n: EncdNeigh, p = place) => resolveNeighbor(n, p).core;
    expect(core(EncdNeigh.LOCAL)).toBe(2);
    expect(core(EncdNeigh.NEXT)).toBe(3);
    expect(core(EncdNeigh.PREV)).toBe(1);
    expect(core(EncdNeigh.PEER_LOCAL)).toBe(3);
    expect(core(EncdNeigh.PEER_LOCAL, { ...place, self: 7 })).toBe(6);
    expect(core(EncdNeigh.NEXT, { ...place, self: 7 })).toBe(0);
    expect(core(EncdNeigh.PREV, { ...place, self: 0 })).toBe(7);
    expect(core(EncdNeigh.NEXT_PEER_RMTV)).toBe(2);
    expect(core(EncdNeigh.PEER_LOCAL, { ...place, lnc: 1 })).toBe(2);
  });
  it("cross-node peers and INVALID are not valid (peer byte 1)", () => {
    for (const n of [
      EncdNeigh.GATEWAY,
      EncdNeigh.PEER_RMTV,
      EncdNeigh.PEER_RMTV2,
      EncdNeigh.INVALID,
      EncdNeigh.NUM,
    ]) {
      expect(resolveNeighbor(n, place).invalidByte).toBe(1);
    }
  });
});

describe("TENSOR3D walk (dimension 0 innermost, MODEL)", () => {
  it("visits strided and reversed patterns in order", () => {
    expect(tensor3dElementOffsets(tensor(0, [1, 8, 100], [2, 2, 2]))).toEqual([
      0, 1, 8, 9, 100, 101, 108, 109,
    ]);
    expect(tensor3dElementOffsets(tensor(0, [-1, 0, 0], [3, 1, 1]))).toEqual([0, -1, -2]);
  });
  it("merges runs contiguous on both sides", () => {
    expect(moveSegments([0, 1, 2, 8], [0, 1, 2, 3], 2)).toEqual([
      { srcOffset: 0, dstOffset: 0, bytes: 6 },
      { srcOffset: 16, dstOffset: 6, bytes: 2 },
    ]);
  });
});

const request = (patch: Partial<Sb2sbRequest> = {}): Sb2sbRequest => ({
  neigh: resolveNeighbor(EncdNeigh.PEER_LOCAL, place),
  src: tensor((4 << 18) | 0x100, [1, 0, 0], [64, 1, 1]),
  dst: tensor((4 << 18) | 0x800, [1, 0, 0], [64, 1, 1]),
  dtype: 6,
  channels: 3,
  topology,
  ...patch,
});

describe("__encd_dma_common_sb2sb (seed 002 §4.2, §4.3)", () => {
  it("one copy leg per active channel, self's SBUF to the LNC2 partner's", () => {
    const legs = legsOf(encdDmaCopySb2sb(request()));
    expect(legs).toHaveLength(3);
    expect(legs.map((l) => [l.kind, l.channel, l.srcCore, l.dstCore, l.partition])).toEqual([
      ["copy", 0, 2, 3, 4],
      ["copy", 1, 2, 3, 5],
      ["copy", 2, 2, 3, 6],
    ]);
    expect(legs[1]?.segments).toEqual([
      {
        src: (SBUF_WINDOWS[2] as bigint) + (5n << 18n) + 0x100n,
        dst: (SBUF_WINDOWS[3] as bigint) + (5n << 18n) + 0x800n,
        bytes: 128,
      },
    ]);
    expect(sbufAddress(CAYMAN, 3, 5, 0x800)).toBe(legs[1]?.segments[0]?.dst);
  });

  it("reduce-copy legs carry the op, one per channel", () => {
    const legs = legsOf(encdDmaReduceCopySb2sb(request(), SdmaCceType.MAX));
    expect(legs.map((l) => [l.kind, l.op])).toEqual([
      ["reduce-copy", 2],
      ["reduce-copy", 2],
      ["reduce-copy", 2],
    ]);
  });

  it("a reversed destination becomes one segment per element", () => {
    const legs = legsOf(
      encdDmaCopySb2sb(
        request({
          channels: 1,
          src: tensor(0, [1, 0, 0], [4, 1, 1]),
          dst: tensor(6, [-1, 0, 0], [4, 1, 1]),
        }),
      ),
    );
    expect(
      legs[0]?.segments.map((s) => [
        Number(s.src - (SBUF_WINDOWS[2] as bigint)),
        Number(s.dst - (SBUF_WINDOWS[3] as bigint)),
        s.bytes,
      ]),
    ).toEqual([
      [0, 6, 2],
      [2, 4, 2],
      [4, 2, 2],
      [6, 0, 2],
    ]);
  });

  it("an invalid peer aborts in the wrapper, before the builder", () => {
    const bad = request({ neigh: resolveNeighbor(EncdNeigh.GATEWAY, place) });
    expect(() => encdDmaCopySb2sb(bad)).toThrow(SdmaAbortError);
    expect(() => encdDmaReduceCopySb2sb(bad, SdmaCceType.ADD)).toThrow(/encd_dma_reduce_copy_sb2sb/);
  });

  it("multi-node workloads are refused with the host string", () => {
    const r = encdDmaCopySb2sb(request({ topology: { ...topology, nodes: 2 } }));
    expect(isEinval(r) && r.message).toBe(SB2SB_MULTI_NODE_MESSAGE);
  });

  it("patterns that leave the partition, or mismatched counts, are refused naming the field", () => {
    expect(() =>
      encdDmaCopySb2sb(
        request({
          src: { ...request().src, ...start(0), ...steps([-1, 0, 0]) },
        }),
      ),
    ).toThrow(/src.pattern/);
    expect(() => encdDmaCopySb2sb(request({ dst: { ...request().dst, ...counts([63, 1, 1]) } }))).toThrow(
      /dst.num_elem/,
    );
    expect(() => encdDmaCopySb2sb(request({ channels: 125 }))).toThrow(/channels/);
  });
});

/** An events field: wait_mode, wait_idx, update_mode, update_idx, semaphore_value. */
const events = (waitMode: number, waitIdx: number, updateMode: number, updateIdx: number, value: number) => ({
  "events.wait_mode": waitMode,
  "events.wait_idx": waitIdx,
  "events.update_mode": updateMode,
  "events.update_idx": updateIdx,
  "events.semaphore_value": value,
});

describe("lowerS3d3Word: the POOL decode gives the host encoder's legs", () => {
  const word: S3d3Word = { ...VALID_WORD, num_active_channels: 2 };
  it("LNC2 → PEER_LOCAL copy legs, identical to encd_dma_copy_sb2sb's", () => {
    const low = lowerS3d3Word(word, topology);
    if (isEinval(low)) throw new Error(low.message);
    const host = encdDmaCopySb2sb({
      neigh: resolveNeighbor(EncdNeigh.PEER_LOCAL, place),
      src: tensorOf(word, "src_mem_pattern"),
      dst: tensorOf(word, "dst_mem_pattern"),
      dtype: 6,
      channels: 2,
      topology,
    });
    expect(low.legs).toEqual(host);
    expect(low.legs.every((l) => l.kind === "copy" && l.dstCore === 3)).toBe(true);
    expect(low.events).toEqual(eventsPlan(word));
    expect(low.events).toEqual({
      wait: { index: 3, compare: "ge", value: 1 },
      update: { index: 4, action: "inc", value: 1, when: "read" },
    });
  });
  it("LNC1 → self-copy", () => {
    const low = lowerS3d3Word({ ...word, lnc_size_fmt: 0 }, { ...topology, arch: MARIANA });
    if (isEinval(low)) throw new Error(low.message);
    expect(low.legs.every((l) => l.dstCore === l.srcCore)).toBe(true);
  });
  it("an invalid word is refused with its reason codes", () => {
    expect(() => lowerS3d3Word({ ...word, lnc_size_fmt: 2 }, topology)).toThrow(UsageError);
    expect(() => lowerS3d3Word(word, { ...topology, arch: { ...CAYMAN, hasSb2sb: false } })).toThrow(
      /arch-no-sb2sb/,
    );
  });
  it("events: COMPLETE updates, SUB / WR use semaphore_value, EVT modes are not modelled", () => {
    expect(eventsPlan(events(0, 0, 23, 9, 5))).toEqual({
      update: { index: 9, action: "sub", value: 5, when: "complete" },
    });
    expect(eventsPlan(events(0, 0, 0, 0, 0))).toEqual({});
    expect(() => eventsPlan(events(6, 0, 0, 0, 0))).toThrow(UsageError);
  });
});
