import { describe, expect, expectTypeOf, it } from "vitest";
import { Device, DeviceMemory, HBM_BASE, semaphoreAddress } from "../../src/engine/index.js";
import { RegisterFile } from "../../src/hal/index.js";
import type { SrRounding, SrStream } from "../../src/numerics/index.js";
import { Dtype, engineCsrBase, queueRegisterAddress, sbufAddress } from "../../src/spec/index.js";
import { ccePacket, copyPacket, QueueWriter } from "./helpers/packets.js";
import { reference } from "./helpers/reference.js";

const RING_TX = HBM_BASE + 0x100000n;
const RING_RX = HBM_BASE + 0x200000n;
const DATA = HBM_BASE + 0x1000000n;

function setup(arch = "trn2", slots = 64) {
  const dev = new Device(arch);
  const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, slots);
  return { dev, w };
}

function pattern(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

describe("a queue's stochastic rounding", () => {
  it("is the queue's own (numerics' SrRounding over an SrStream), not a list kept beside the queues", () => {
    const dev = new Device("trn2");
    const q = dev.queue(0, 0);
    expectTypeOf(q.sr).toEqualTypeOf<SrRounding<SrStream>>();
    expect(q.sr).toBe(dev.queue(0, 0).sr);
    expect(q.sr.mode).toBe("sr");
    expect(dev.queue(0, 1).sr.rng).not.toBe(q.sr.rng);
    expect(dev.queue(1, 0).sr.rng).not.toBe(q.sr.rng);
  });
});

describe("plain copy", () => {
  it.each([1, 2, 511, 4096, 65536, 65537, 200000])("moves %i bytes exactly, guard bytes untouched", (len) => {
    const { dev, w } = setup();
    const src = pattern(len, len);
    dev.memory.write(DATA, src);
    const dst = DATA + 0x400000n;
    dev.memory.write(dst - 16n, new Uint8Array(len + 32).fill(0xa5));
    w.post(copyPacket(DATA, dst, len));
    const r = dev.run();
    expect(r.faults).toEqual([]);
    expect(dev.memory.read(dst, len)).toEqual(src);
    expect(dev.memory.read(dst - 16n, 16)).toEqual(new Uint8Array(16).fill(0xa5));
    expect(dev.memory.read(dst + BigInt(len), 16)).toEqual(new Uint8Array(16).fill(0xa5));
    expect(r.events[0]?.kind).toBe("copy");
    expect(r.events[0]?.bytesWritten).toBe(len);
  });

  it("a copy into the semaphore increment window increments the semaphore", () => {
    const { dev, w } = setup();
    dev.memory.writeU32(DATA, 3);
    w.post(copyPacket(DATA, semaphoreAddress(dev.profile, 2, "increment", 7), 4));
    w.post(copyPacket(DATA, semaphoreAddress(dev.profile, 2, "increment", 7), 4));
    dev.run();
    expect(dev.semaphore(2, 7)).toBe(6);
  });

  it("SBUF past a partition's capacity faults, naming descriptor and address", () => {
    const { dev, w } = setup();
    const dst = sbufAddress(dev.profile, 0, 3, dev.profile.sbufPartitionBytes - 8);
    w.post(copyPacket(DATA, dst, 16));
    const r = dev.run();
    expect(r.faults).toHaveLength(1);
    expect(r.faults[0]?.message).toMatch(/engine 0 queue 0 rx slot 0: .*sbuf\.c0\.p3.*partition 3/);
    expect(r.faults[0]?.addr).toBe(dst);
  });
});

describe("CCE ADD end to end", () => {
  it("three bf16 sources accumulate in fp32 and round to bf16", () => {
    const { dev, w } = setup();
    const n = 1000;
    const srcs = [0, 1, 2].map((i) => pattern(2 * n, 17 + i));
    for (const [i, s] of srcs.entries()) dev.memory.write(DATA + BigInt(i * 0x10000), s);
    const dst = DATA + 0x100000n;
    w.post(
      ccePacket({
        op: "add",
        sources: [0, 1, 2].map((i) => DATA + BigInt(i * 0x10000)),
        elements: n,
        inDt: Dtype.BFLOAT16,
        outDt: Dtype.BFLOAT16,
        dest: dst,
      }),
    );
    const r = dev.run();
    expect(r.faults).toEqual([]);
    expect(dev.memory.read(dst, 2 * n)).toEqual(
      reference({ op: "add", sources: srcs, elements: n, inDt: Dtype.BFLOAT16, outDt: Dtype.BFLOAT16 }),
    );
  });
});

describe("register access log", () => {
  it("a Device keeps no register log unless asked; asked, it logs every access", () => {
    const quiet = setup();
    quiet.w.post(copyPacket(DATA, DATA + 0x1000n, 16));
    quiet.dev.run();
    expect(quiet.dev.regs.log).toEqual([]);
    const dev = new Device("trn2", { registerLog: Number.POSITIVE_INFINITY });
    const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 64);
    w.post(copyPacket(DATA, DATA + 0x1000n, 16));
    // HBM stack 0 starts at 0: the rings' high words are 0.
    expect(dev.regs.writesSince().map((a) => a.value)).toEqual([0, 0x100000, 64, 0, 0x200000, 64, 1, 1]);
  });

  it("a bounded log keeps the most recent accesses (between N and 2N)", () => {
    const regs = new RegisterFile({ logLimit: 4 });
    for (let i = 0; i < 11; i++) regs.write32(0x100n, i);
    expect(regs.log.length).toBeGreaterThanOrEqual(4);
    expect(regs.log.length).toBeLessThan(8);
    expect(regs.log.at(-1)?.value).toBe(10);
    expect(regs.log.slice(-4).map((a) => a.value)).toEqual([7, 8, 9, 10]);
    expect(() => new RegisterFile({ logLimit: -1 })).toThrow("RegisterFile(logLimit): -1 is out of range");
  });
});

describe("register read-back", () => {
  it("a register the device does not compute reads as last written: doorbell, queue set-up, engine-wide", () => {
    const dev = new Device("trn2");
    const q = { engine: 3, queue: 1 };
    const doorbell = queueRegisterAddress(dev.profile, q, "rx", "drtp_inc");
    const cfg = queueRegisterAddress(dev.profile, q, "tx", "cfg");
    const engineWide = engineCsrBase(dev.profile, 3) + 0x40n; // below the queue blocks
    dev.regs.write32(cfg, 0x3_0000);
    dev.regs.write32(doorbell, 0); // on a ring of no slots: a fault, and still the value written
    dev.regs.write32(engineWide, 0x1234);
    expect([cfg, doorbell, engineWide].map((a) => dev.regs.read32(a))).toEqual([0x3_0000, 0, 0x1234]);
    dev.regs.write32(doorbell, 7);
    expect(dev.regs.read32(doorbell)).toBe(7);
    // The other side's register at the same queue offset, and another queue's, are their own.
    expect(dev.regs.read32(queueRegisterAddress(dev.profile, q, "tx", "drtp_inc"))).toBe(0);
    expect(dev.regs.read32(queueRegisterAddress(dev.profile, { engine: 3, queue: 2 }, "tx", "cfg"))).toBe(0);
  });

  it("a register file keeps the value of a register no read handler answers for", () => {
    const regs = new RegisterFile();
    regs.handle(0x1000n, 0x100n, { onRead: () => 5, onWrite: () => {} });
    regs.write32(0x1000n, 9);
    regs.write32(0x2000n, 8);
    expect([regs.read32(0x1000n), regs.read32(0x2000n)]).toEqual([5, 8]);
    // A later window with no read handler over it reads what is written from then on.
    regs.handle(0x1000n, 0x100n, { onWrite: () => {} });
    expect(regs.read32(0x1000n)).toBe(0);
    regs.write32(0x1000n, 3);
    expect(regs.read32(0x1000n)).toBe(3);
  });
});

describe("DeviceMemory above 2^53", () => {
  it("a region a Number cannot address exactly still reads, writes and faults by its bigint bounds", () => {
    const m = new DeviceMemory();
    const base = (1n << 60n) + 1n;
    m.map({ name: "high", base, bytes: 4096n, kind: "host" });
    m.write(base + 10n, Uint8Array.of(1, 2, 3));
    expect(m.read(base + 10n, 3)).toEqual(Uint8Array.of(1, 2, 3));
    expect(m.peek(base + 10n, 3)).toBeUndefined();
    expect(m.read(base + 11n, 1)).toEqual(Uint8Array.of(2));
    expect(() => m.read(base + 4095n, 2)).toThrow(/runs past the end of high/);
    expect(() => m.read(base - 1n, 1)).toThrow(/not mapped/);
  });
});
