// VringPool: one vring per queue, made once, rings at ringBase + (e·queues + q)·2·slots·16, the SR
// seed per queue, and the ring area's end — what the SB2SB executor and the collectives share.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { CAYMAN } from "../../src/hal/index.js";
import {
  addDmaPacket,
  DeferredDoorbell,
  type QueueId,
  RegisterDoorbell,
  RingFullError,
  VringPool,
} from "../../src/runtime/index.js";
import { queueRegisterAddress } from "../../src/spec/index.js";

describe("VringPool", () => {
  it("places each queue's TX and RX ring in its own slice of the area and programs drbp", () => {
    const dev = new Device("trn2", { registerLog: 1000 });
    const pool = new VringPool(dev, { ringBase: HBM_BASE, slots: 64 });
    const v = pool.get({ engine: 3, queue: 2 });
    expect(pool.get({ engine: 3, queue: 2 })).toBe(v);
    const ring = BigInt(64 * 16);
    const base = HBM_BASE + BigInt(3 * 16 + 2) * 2n * ring;
    const lo = (side: "tx" | "rx") =>
      dev.regs.log.find(
        (a) =>
          a.op === "write" &&
          a.addr === queueRegisterAddress(CAYMAN, { engine: 3, queue: 2 }, side, "drbp_lo"),
      )?.value;
    expect(lo("tx")).toBe(Number(base & 0xffffffffn));
    expect(lo("rx")).toBe(Number((base + ring) & 0xffffffffn));
    expect(pool.end).toBe(HBM_BASE + BigInt(8 * 16 * 16) * 2n * ring);
  });
  it("gives each queue its own SR seed, and none when srSeedOf is absent", () => {
    const dev = new Device("trn2");
    const sr = new VringPool(dev, { ringBase: HBM_BASE, slots: 64, srSeedOf: (q) => 100 + q.engine });
    expect(sr.get({ engine: 5, queue: 0 }).srSeed).toBe(105);
    expect(sr.get({ engine: 5, queue: 0 }).stochasticRounding).toBe(true);
    const rne = new VringPool(dev, { ringBase: sr.end, slots: 64 });
    expect(rne.get({ engine: 5, queue: 0 }).stochasticRounding).toBe(false);
  });
  it("refuses a queue outside the profile, naming it", () => {
    const pool = new VringPool(new Device("trn1"), { ringBase: HBM_BASE, slots: 64 });
    expect(() => pool.get({ engine: 32, queue: 0 })).toThrow(FieldError);
    expect(() => pool.get({ engine: 0, queue: 16 })).toThrow("vring(queue): 16 is out of range 0..15");
  });
  it("a deferred doorbell and the kept free count run what a packet-at-a-time pool runs", () => {
    const q: QueueId = { engine: 1, queue: 0 };
    const post = (dev: Device, pool: VringPool, flush: () => void) => {
      const v = pool.get(q);
      const src = HBM_BASE + 0x100000n;
      dev.memory.write(
        src,
        Uint8Array.from({ length: 64 }, (_, i) => i + 1),
      );
      let refused = 0;
      for (let k = 0; k < 40; k++) {
        try {
          addDmaPacket(v, { src, dst: src + 0x1000n + BigInt(64 * k), size: 64 });
        } catch (e) {
          if (!(e instanceof RingFullError)) throw e;
          refused++;
          flush();
          dev.run();
          addDmaPacket(v, { src, dst: src + 0x1000n + BigInt(64 * k), size: 64 });
        }
      }
      flush();
      const events = dev.run().events.length;
      return { refused, events, bytes: dev.memory.read(src, 0x1000 + 64 * 40) };
    };
    const plain = new Device("trn2");
    const want = post(plain, new VringPool(plain, { ringBase: HBM_BASE, slots: 32 }), () => {});
    const dev = new Device("trn2", { registerLog: 10000 });
    const bells: DeferredDoorbell[] = [];
    const pool = new VringPool(dev, {
      ringBase: HBM_BASE,
      slots: 32,
      knownFree: true,
      doorbellOf: (id) =>
        new DeferredDoorbell(new RegisterDoorbell(dev.regs, CAYMAN, id), (b) => bells.push(b)),
    });
    const mark = dev.regs.log.length;
    const got = post(dev, pool, () => {
      for (const b of bells.splice(0)) b.flush();
    });
    expect(got).toEqual(want);
    expect(want.refused).toBeGreaterThan(0);
    // Fewer head reads and doorbell writes than two each a packet.
    const since = dev.regs.log.slice(mark);
    expect(since.filter((a) => a.op === "write").length).toBeLessThan(2 * 40);
    expect(since.filter((a) => a.op === "read").length).toBeLessThan(2 * 40);
  });
});
