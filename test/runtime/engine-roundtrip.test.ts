/**
 * Bytes only, host to device: the runtime writes rings and rings the doorbell on the engine's
 * register file; the engine fetches and executes them. A wrong bit in an encoder gives a wrong result.
 */
import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { HBM_BASE } from "../../src/engine/index.js";
import {
  addDmaPacket,
  addDmaPacketCce,
  addGradientPacket,
  fmaInfo,
  GceMode,
  minMaxConstant,
} from "../../src/runtime/index.js";
import { Dtype, KbinDmaDescOp } from "../../src/spec/index.js";
import { deviceVring } from "./fixtures.js";

const f32 = (a: number[]) => new Uint8Array(Float32Array.from(a).buffer);

function setup() {
  const { dev, vring } = deviceVring();
  const S = [0x10000n, 0x20000n, 0x30000n].map((o) => HBM_BASE + o);
  for (const [i, s] of S.entries()) dev.memory.write(s, f32([1 + i, 2 + i, 3 + i, 4 + i]));
  const read = (a: bigint) => Array.from(new Float32Array(dev.memory.read(a, 16).slice().buffer));
  return { dev, vring, S, read, D: HBM_BASE + 0x40000n, D2: HBM_BASE + 0x50000n };
}

describe("runtime → ring bytes → engine", () => {
  it("ADD with replication, FMA, MIN with a constant, copy", () => {
    const { dev, vring, S, read, D, D2 } = setup();
    expect(
      isEinval(
        addDmaPacketCce(vring, {
          op: KbinDmaDescOp.ADD,
          sources: S,
          dests: [D, D2],
          size: 16,
          inDtype: Dtype.FP32,
          cceInfo: null,
        }),
      ),
    ).toBe(false);
    expect(dev.run().faults).toEqual([]);
    expect([read(D), read(D2)]).toEqual([
      [6, 9, 12, 15],
      [6, 9, 12, 15],
    ]);
    addDmaPacketCce(vring, {
      op: KbinDmaDescOp.FMA,
      sources: S.slice(0, 2),
      dests: [D],
      size: 16,
      inDtype: Dtype.FP32,
      cceInfo: { num_sources: 2, num_dests: 1, ...fmaInfo([0.5, 0.5]) },
    });
    dev.run();
    expect(read(D)).toEqual([1.5, 2.5, 3.5, 4.5]);
    addDmaPacketCce(vring, {
      op: KbinDmaDescOp.MIN,
      sources: S,
      dests: [D],
      size: 16,
      inDtype: Dtype.FP32,
      cceInfo: { num_sources: 3, num_dests: 1, ...minMaxConstant(0x40000000) },
    });
    dev.run();
    expect(read(D)).toEqual([1, 2, 2, 2]);
    addDmaPacket(vring, { src: S[2] as bigint, dst: D, size: 16 });
    dev.run();
    expect(read(D)).toEqual([3, 4, 5, 6]);
  });
  it("GCE compress then decompress gives the reduced values back", () => {
    const { dev, vring, S, read, D } = setup();
    const H = HBM_BASE + 0x60000n;
    const P = HBM_BASE + 0x70000n;
    addGradientPacket(vring, {
      mode: GceMode.COMPRESS,
      sources: S,
      dest: P,
      headerAddr: H,
      elements: 4,
      dtype: Dtype.FP32,
      blockLog2: 5,
    });
    expect(dev.run().faults).toEqual([]);
    addGradientPacket(vring, {
      mode: GceMode.DECOMPRESS,
      sources: [P],
      dest: D,
      headerAddr: H + 0x100n,
      elements: 4,
      dtype: Dtype.FP32,
      blockLog2: 5,
    });
    expect(dev.run().faults).toEqual([]);
    expect(read(D)).toEqual([6, 9, 12, 15]);
  });
});

describe("after the device's memory lets its pages go", () => {
  it("the engine fetches the ring from the page the memory has now", () => {
    const { dev, vring, S, read, D } = setup();
    const add = () =>
      addDmaPacketCce(vring, {
        op: KbinDmaDescOp.ADD,
        sources: S,
        dests: [D],
        size: 16,
        inDtype: Dtype.FP32,
        cceInfo: null,
      });
    expect(isEinval(add())).toBe(false);
    expect(dev.run().faults).toEqual([]);
    expect(read(D)).toEqual([6, 9, 12, 15]);
    // The engine has found (and kept) its rings' page; the memory now reads zero everywhere.
    dev.memory.release();
    // Another page first, so the rings' page is not where it was (a released page is reused).
    dev.memory.write(HBM_BASE + 0x40_0000n, f32([1]));
    for (const [i, s] of S.entries()) dev.memory.write(s, f32([10 * i, 1, 2, 3]));
    expect(isEinval(add())).toBe(false);
    const report = dev.run();
    expect([report.faults, report.stalls, report.events.length]).toEqual([[], [], 1]);
    expect(read(D)).toEqual([30, 3, 6, 9]);
    dev.memory.release();
  });
});
