/**
 * Atomic packets and the run watchdog (issue 16; reproductions D2 and D8 of the reliability review):
 * a packet whose later destination refuses the write faults with memory, registers and semaphores
 * exactly as before; two packets that re-arm each other end in a named fault, not a hang.
 */
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE, semaphoreAddress, WatchdogFault } from "../../src/engine/index.js";
import { DEFAULT_COPY_META, Dtype, engineCsrBase, queueRegisterAddress } from "../../src/spec/index.js";
import { ccePacket, type Packet, QueueWriter, rxData, txData } from "./helpers/packets.js";

const RING_TX = HBM_BASE + 0x10_0000n;
const RING_RX = HBM_BASE + 0x20_0000n;
const SRC = HBM_BASE + 0x100_0000n;
const DST = HBM_BASE + 0x200_0000n;

function device(arch = "trn2") {
  const dev = new Device(arch, { registerLog: Number.POSITIVE_INFINITY });
  dev.memory.write(
    SRC,
    Uint8Array.from({ length: 64 }, () => 0xab),
  );
  return { dev, w: new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32) };
}

/** One 8-byte copy: 4 bytes of HBM, then 4 (or `len`) bytes to `second`. */
const splitCopy = (second: bigint, len = 4): Packet => ({
  tx: [txData(SRC, 4 + len, DEFAULT_COPY_META)],
  rx: [rxData(DST, 4), rxData(second, len)],
});

describe("a faulting packet leaves memory, registers and semaphores as they were (D2)", () => {
  const cases: [string, (dev: Device) => bigint, number, RegExp][] = [
    ["a misaligned SDMA CSR", (dev) => engineCsrBase(dev.profile, 0) + 2n, 4, /not whole aligned words/],
    ["a semaphore read window", (dev) => semaphoreAddress(dev.profile, 0, "read", 5), 4, /read window/],
    ["2 bytes to a semaphore", (dev) => semaphoreAddress(dev.profile, 0, "set", 5), 2, /whole aligned/],
  ];
  for (const arch of ["trn2", "trn3"]) {
    for (const [what, addr, len, reason] of cases) {
      it(`${arch}: HBM, then ${what}`, () => {
        const { dev, w } = device(arch);
        w.post(splitCopy(addr(dev), len));
        const logged = dev.regs.log.length;
        const r = dev.run();
        expect(r.faults[0]?.message).toMatch(reason);
        expect(dev.memory.read(DST, 8)).toEqual(new Uint8Array(8));
        expect(dev.regs.log.length).toBe(logged);
      });
    }
  }

  it("HBM, then a semaphore set, then the read window: the semaphore keeps its value", () => {
    const { dev, w } = device();
    const set = semaphoreAddress(dev.profile, 0, "set", 5);
    w.post({
      tx: [txData(SRC, 12, DEFAULT_COPY_META)],
      rx: [rxData(DST, 4), rxData(set, 4), rxData(semaphoreAddress(dev.profile, 0, "read", 6), 4)],
    });
    expect(dev.run().faults[0]?.message).toMatch(/read window/);
    expect(dev.semaphore(0, 5)).toBe(0);
    expect(dev.memory.read(DST, 4)).toEqual(new Uint8Array(4));
  });

  it("an EXT combo whose 2nd replica is MMIO writes neither its destination nor its 1st replica", () => {
    const { dev, w } = device("trn3");
    const replica = DST + 0x1000n;
    w.post(
      ccePacket({
        op: "add",
        sources: [SRC, SRC + 16n],
        elements: 4,
        inDt: Dtype.FP32,
        outDt: Dtype.FP32,
        dest: DST,
        extraDests: [replica, semaphoreAddress(dev.profile, 0, "read", 0)],
      }),
    );
    expect(dev.run().faults[0]?.message).toMatch(/read window/);
    expect(dev.memory.read(DST, 16)).toEqual(new Uint8Array(16));
    expect(dev.memory.read(replica, 16)).toEqual(new Uint8Array(16));
  });
});

describe("the run watchdog (D8)", () => {
  /** Queues 0 and 1 of engine 0, each one packet that resets and re-posts the other's rings. */
  function pingPong(options: { packetBudget?: number } = {}) {
    const dev = new Device("trn2", options);
    const rings = [0, 1].map((q) => ({
      tx: RING_TX + BigInt(q) * 0x1000n,
      rx: RING_RX + BigInt(q) * 0x1000n,
    }));
    const writers = rings.map((r, q) => new QueueWriter(dev, 0, q, r.tx, r.rx, 16));
    writers.forEach((w, q) => {
      const other = 1 - q;
      const reg = (ring: "tx" | "rx", name: "drbp_lo" | "drtp_inc") =>
        queueRegisterAddress(dev.profile, { engine: 0, queue: other }, ring, name);
      const src = SRC + BigInt(q) * 0x100n;
      const lo = (a: bigint) => Number(a & 0xffffffffn);
      dev.memory.write(
        src,
        new Uint8Array(Uint32Array.of(lo(rings[other]!.tx), 1, lo(rings[other]!.rx), 4).buffer),
      );
      w.post({
        tx: [txData(src, 16, DEFAULT_COPY_META)],
        rx: [
          rxData(reg("tx", "drbp_lo"), 4),
          rxData(reg("tx", "drtp_inc"), 4),
          rxData(reg("rx", "drbp_lo"), 4),
          rxData(reg("rx", "drtp_inc"), 4),
        ],
      });
    });
    return dev;
  }

  it("stops two queues that re-arm each other with a fault naming them", () => {
    const dev = pingPong({ packetBudget: 1000 });
    const r = dev.run();
    expect(r.events.length).toBe(1000);
    const f = r.faults.at(-1);
    expect(f).toBeInstanceOf(WatchdogFault);
    expect(f?.message).toMatch(/no completion after 1000 packets on queues 0\.0, 0\.1/);
    // Another run goes on where it stopped: the queues were left as they were.
    expect(dev.run(10).events.length).toBe(10);
  });

  it("stops runCount() alike, with no event kept", () => {
    const dev = pingPong({ packetBudget: 1000 });
    dev.run(7);
    const r = dev.runCount();
    expect(r.executed).toBe(1000);
    expect(r.faults).toHaveLength(1);
    expect(r.faults[0]?.message).toMatch(/no completion after 1000 packets on queues 0\.0, 0\.1/);
    expect(dev.runCount(10).executed).toBe(10);
  });

  it("has a generous default and refuses a budget that is not a positive integer", () => {
    expect(new Device("trn2").packetBudget).toBe(1 << 22);
    expect(() => new Device("trn2", { packetBudget: 0 })).toThrow(/packetBudget\): 0 is out of range/);
    expect(() => pingPong().run(1.5)).toThrow(/packetBudget\): 1.5 is out of range/);
  });

  it("a run that finishes within its budget reports no watchdog", () => {
    const { dev, w } = device();
    w.post({ tx: [txData(SRC, 4, DEFAULT_COPY_META)], rx: [rxData(DST, 4)] });
    expect(dev.run(1).faults).toEqual([]);
  });
});
