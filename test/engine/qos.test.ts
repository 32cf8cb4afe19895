import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { HalDevice, MARIANA_CSR_MODEL, marianaSetUdmaQos } from "../../src/hal/index.js";
import { engineCsrBase } from "../../src/spec/index.js";
import { copyPacket, QueueWriter } from "./helpers/packets.js";

const RING = HBM_BASE + 0x100000n;
const SRC = HBM_BASE + 0x1000000n;
const DST = HBM_BASE + 0x2000000n;
const ENGINE = 1;
const LEN = 4096;

/**
 * Four queues of one engine, two copies each, every copy its own source and destination; the
 * classes are programmed by the HAL leaf on the device's register file (queue 0 left alone).
 */
function run(arch: string, program: (dev: Device, hal: HalDevice, csr: bigint) => void) {
  const dev = new Device(arch);
  const hal = new HalDevice(arch, dev.regs);
  program(dev, hal, engineCsrBase(dev.profile, ENGINE));
  for (let q = 0; q < 4; q++) {
    const w = new QueueWriter(
      dev,
      ENGINE,
      q,
      RING + BigInt(q) * 0x2000n,
      RING + BigInt(q) * 0x2000n + 0x1000n,
      32,
    );
    for (let k = 0; k < 2; k++) {
      const at = BigInt((q * 2 + k) * LEN);
      dev.memory.write(SRC + at, new Uint8Array(LEN).fill(q * 16 + k + 1));
      w.post(copyPacket(SRC + at, DST + at, LEN));
    }
  }
  const r = dev.run();
  expect(r.faults).toEqual([]);
  return { order: r.events.map((e) => e.queue), out: dev.memory.read(DST, 8 * LEN), events: r.events };
}

const classes = (_dev: Device, hal: HalDevice, csr: bigint) => {
  marianaSetUdmaQos(hal, csr, 1, 1);
  marianaSetUdmaQos(hal, csr, 2, 3);
  marianaSetUdmaQos(hal, csr, 3, 3);
};

describe("queue arbitration", () => {
  it("trn3: strict priority by QoS class (3 first), round-robin inside a class; unprogrammed = class 0", () => {
    const { order, events } = run("trn3", classes);
    expect(order).toEqual([2, 3, 2, 3, 1, 1, 0, 0]);
    events.forEach((e, i) => {
      if (i > 0) expect(e.start).toBe(events[i - 1]?.end);
    });
  });

  it("trn2: the same register writes change nothing, round-robin", () => {
    const program = (dev: Device, _hal: HalDevice, csr: bigint) => {
      for (const [q, cls] of [
        [1, 1],
        [2, 3],
        [3, 3],
      ] as const)
        dev.regs.write32(csr + BigInt(MARIANA_CSR_MODEL.udmaQosCtrl + 4 * q), cls | 0x10);
    };
    expect(run("trn2", program).order).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
  });

  it("trn3 without any class programmed is round-robin", () => {
    expect(run("trn3", () => {}).order).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
  });

  it("a class written without the enable bit (0x10) is class 0", () => {
    const program = (dev: Device, hal: HalDevice, csr: bigint) => {
      marianaSetUdmaQos(hal, csr, 3, 2);
      dev.regs.write32(csr + BigInt(MARIANA_CSR_MODEL.udmaQosCtrl + 4 * 3), 2);
    };
    expect(run("trn3", program).order).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
  });

  it("the functional result does not depend on the arbitration order (queues share no data)", () => {
    const trn3 = run("trn3", classes).out;
    expect(trn3).toEqual(run("trn2", () => {}).out);
    expect(trn3[7 * LEN]).toBe(3 * 16 + 2);
  });
});
