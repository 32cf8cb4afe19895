import { describe, expect, it } from "vitest";
import { isEinval } from "../../src/bits/index.js";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import {
  buildCaymanTransposeFlushPacket,
  buildCaymanTransposePacket,
  type DmaPacket,
  tpbBase,
} from "../../src/hal/index.js";
import { Dtype, sbufAddress } from "../../src/spec/index.js";
import { type Packet, QueueWriter } from "./helpers/packets.js";

const RING_TX = HBM_BASE + 0x100000n;
const RING_RX = HBM_BASE + 0x200000n;
const DATA = HBM_BASE + 0x1000000n;
const GUARD = 0xa5;

/** The HAL's packet as 16-byte descriptors for the ring writer (it stamps the same FIRST / LAST). */
function split(p: DmaPacket): Packet {
  const chunks = (b: Uint8Array) =>
    Array.from({ length: b.length / 16 }, (_, i) => b.slice(16 * i, 16 * i + 16));
  return { tx: chunks(p.tx), rx: chunks(p.rx) };
}

/** One bf16-or-other row on a fresh trn2 device: post it and run. */
function runRow(dtype: Dtype, cols: number, len: number, to: (dev: Device) => bigint) {
  const dev = new Device("trn2");
  const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 64);
  const packet = buildCaymanTransposePacket({
    dtype,
    cols,
    dir: 0,
    ctrl: 0,
    a2: 0n,
    op: 1,
    wDim: 1,
    zDim: 1,
    from: [{ addr: DATA, len }],
    to: [{ addr: to(dev), len }],
  });
  w.post(split(packet as DmaPacket));
  return dev.run();
}

interface Case {
  dtype: Dtype;
  elem: number;
  rows: number;
  cols: number;
  core: number;
  partition: number;
  offset: number;
}

/**
 * Rows i of `cols` elements each, row i's destination = partition P, offset off + i·elem: a
 * transpose puts element k of row i at partition P + k, offset off + i·elem.
 */
function run(c: Case) {
  const dev = new Device("trn2");
  const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 64);
  const rowBytes = c.cols * c.elem;
  const data = Uint8Array.from({ length: c.rows * rowBytes }, (_, i) => (i * 7 + 1) & 0xff);
  dev.memory.write(DATA, data);
  // Guards: every partition the transpose touches, one element either side of the landing span.
  for (let k = 0; k < c.cols && c.partition + k < dev.profile.sbufPartitions; k++) {
    const lo = Math.max(0, c.offset - c.elem);
    const hi = Math.min(dev.profile.sbufPartitionBytes, c.offset + (c.rows + 1) * c.elem);
    dev.memory.write(
      sbufAddress(dev.profile, c.core, c.partition + k, lo),
      new Uint8Array(hi - lo).fill(GUARD),
    );
  }
  const window = sbufAddress(dev.profile, c.core, 0, 0);
  const packet = buildCaymanTransposePacket({
    dtype: c.dtype,
    cols: c.cols,
    dir: 0,
    ctrl: 0,
    a2: 0n,
    op: 1,
    wDim: 1,
    zDim: 1,
    from: Array.from({ length: c.rows }, (_, i) => ({ addr: DATA + BigInt(i * rowBytes), len: rowBytes })),
    to: Array.from({ length: c.rows }, (_, i) => ({
      addr: window + BigInt(c.partition * dev.profile.sbufPartitionStride + c.offset + i * c.elem),
      len: rowBytes,
    })),
  });
  if (isEinval(packet)) throw new Error(packet.message);
  w.post(split(packet));
  return { dev, w, data, report: dev.run() };
}

function expectTransposed(c: Case, dev: Device, data: Uint8Array): void {
  for (let k = 0; k < c.cols; k++) {
    const p = c.partition + k;
    const column = dev.memory.read(sbufAddress(dev.profile, c.core, p, c.offset), c.rows * c.elem);
    const want = new Uint8Array(c.rows * c.elem);
    for (let i = 0; i < c.rows; i++)
      want.set(data.subarray((i * c.cols + k) * c.elem, (i * c.cols + k + 1) * c.elem), i * c.elem);
    expect(column, `partition ${p}`).toEqual(want);
    if (c.offset >= c.elem)
      expect(dev.memory.read(sbufAddress(dev.profile, c.core, p, c.offset - c.elem), c.elem)).toEqual(
        new Uint8Array(c.elem).fill(GUARD),
      );
    const after = c.offset + c.rows * c.elem;
    if (after + c.elem <= dev.profile.sbufPartitionBytes)
      expect(dev.memory.read(sbufAddress(dev.profile, c.core, p, after), c.elem)).toEqual(
        new Uint8Array(c.elem).fill(GUARD),
      );
  }
}

describe("CAYMAN SBUF transpose: the HAL's packet executed by the engine", () => {
  const cases: [string, Case][] = [
    [
      "bf16 3×4 at partition 0",
      { dtype: Dtype.BFLOAT16, elem: 2, rows: 3, cols: 4, core: 0, partition: 0, offset: 0 },
    ],
    [
      "u8 5×16 on core 1",
      { dtype: Dtype.UINT8, elem: 1, rows: 5, cols: 16, core: 1, partition: 7, offset: 0x100 },
    ],
    [
      "fp32 4×8 below partition 0x40",
      { dtype: Dtype.FP32, elem: 4, rows: 4, cols: 8, core: 0, partition: 0x30, offset: 64 },
    ],
    [
      "fp32 above 0x3F (the +0x80 low byte)",
      { dtype: Dtype.FP32, elem: 4, rows: 6, cols: 3, core: 2, partition: 0x41, offset: 0 },
    ],
    [
      "fp32 at partition 127, the last element of its capacity (low-byte carry into win_off)",
      { dtype: Dtype.FP32, elem: 4, rows: 1, cols: 1, core: 0, partition: 127, offset: 224 * 1024 - 4 },
    ],
    [
      "int64 2×2 ending at partition 127",
      { dtype: Dtype.INT64, elem: 8, rows: 2, cols: 2, core: 3, partition: 126, offset: 0x1000 },
    ],
  ];
  it.each(cases)("%s: every element lands where a transpose puts it, guards intact", (_, c) => {
    const { dev, data, report } = run(c);
    expect(report.faults).toEqual([]);
    expect(report.events.map((e) => e.kind)).toEqual(["transpose"]);
    expect(report.events[0]?.bytesWritten).toBe(c.rows * c.cols * c.elem);
    expectTransposed(c, dev, data);
  });

  it("a row spreading past partition 127 is a named fault and writes nothing", () => {
    const c = { dtype: Dtype.BFLOAT16, elem: 2, rows: 2, cols: 4, core: 0, partition: 126, offset: 0 };
    const { dev, report } = run(c);
    expect(report.events).toEqual([]);
    expect(report.faults).toHaveLength(1);
    expect(report.faults[0]?.message).toMatch(
      /engine 0 queue 0 rx slot 0: transpose row spreads over partitions 126..129, past the window's last partition 127/,
    );
    for (const p of [126, 127])
      expect(dev.memory.read(sbufAddress(dev.profile, 0, p, 0), 4)).toEqual(new Uint8Array(4).fill(GUARD));
  });

  it("an offset past the partition's capacity (224 KiB on trn2) is a named fault", () => {
    const r = runRow(Dtype.BFLOAT16, 2, 4, (dev) => sbufAddress(dev.profile, 0, 5, 0) + BigInt(224 * 1024));
    expect(r.faults[0]?.message).toMatch(
      /rx slot 0: .*SBUF core 0 partition 5 \+ 0x38000 .*past the partition's capacity/,
    );
  });

  it("a row that is not cols × elem bytes is a named fault", () => {
    const r = runRow(Dtype.BFLOAT16, 4, 6, (dev) => sbufAddress(dev.profile, 0, 0, 0));
    expect(r.faults[0]?.message).toMatch(/tx slot 0: row of 6 bytes is not cols 4 × elem 2/);
  });

  it("the flush packet is a fence: no fault, no memory written, one event after the transpose", () => {
    const c = { dtype: Dtype.BFLOAT16, elem: 2, rows: 2, cols: 2, core: 0, partition: 3, offset: 0 };
    const { dev, w, data, report } = run(c);
    expect(report.faults).toEqual([]);
    w.post(split(buildCaymanTransposeFlushPacket(0)));
    const before = dev.memory.allocatedBytes;
    const r = dev.run();
    expect(r.faults).toEqual([]);
    expect(r.events.map((e) => [e.kind, e.bytesRead, e.bytesWritten])).toEqual([["fence", 0, 0]]);
    expect(dev.memory.allocatedBytes).toBe(before);
    expectTransposed(c, dev, data);
    expect(() => dev.memory.read(tpbBase(0) + 0x200_0000_0400_0000n, 4)).toThrow(/not mapped/);
  });
});
