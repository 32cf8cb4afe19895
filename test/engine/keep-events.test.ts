// DeviceOptions.keepEvents: the device's history of every packet is optional; run() reports the
// same events either way (the collectives' device machine keeps them itself, with their legs).
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { DEFAULT_COPY_META } from "../../src/spec/index.js";
import { QueueWriter, rxData, txData } from "./helpers/packets.js";

function copies(keepEvents?: boolean) {
  const dev = posted(keepEvents);
  return { dev, report: dev.run() };
}

/** {@link copies} run by runCount(). */
function counted(keepEvents: boolean) {
  const dev = posted(keepEvents);
  return { dev, report: dev.runCount() };
}

/** Three 16-byte copies posted on one queue. */
function posted(keepEvents?: boolean): Device {
  const dev = new Device("trn2", keepEvents === undefined ? {} : { keepEvents });
  dev.memory.write(HBM_BASE + 0x100_0000n, new Uint8Array(64).fill(3));
  const w = new QueueWriter(dev, 0, 0, HBM_BASE + 0x10_0000n, HBM_BASE + 0x20_0000n, 32);
  for (let k = 0; k < 3; k++)
    w.post({
      tx: [txData(HBM_BASE + 0x100_0000n, 16, DEFAULT_COPY_META)],
      rx: [rxData(HBM_BASE + BigInt(k * 16), 16)],
    });
  return dev;
}

describe("DeviceOptions.keepEvents", () => {
  it("keeps every event by default; false keeps none, and run() reports the same events", () => {
    const kept = copies();
    const dropped = copies(false);
    expect(kept.dev.events).toHaveLength(3);
    expect(kept.dev.events).toEqual(kept.report.events);
    expect(dropped.dev.events).toEqual([]);
    expect(dropped.report.events).toEqual(kept.report.events);
    expect(dropped.dev.memory.read(HBM_BASE, 48)).toEqual(new Uint8Array(48).fill(3));
  });

  it("runCount() executes the same, counts the packets and lists none (kept or not)", () => {
    for (const keep of [true, false]) {
      const c = counted(keep);
      expect(c.report).toEqual({ executed: 3, faults: [], stalls: [] });
      expect(c.dev.events).toHaveLength(keep ? 3 : 0);
      expect(c.dev.memory.read(HBM_BASE, 48)).toEqual(new Uint8Array(48).fill(3));
    }
    // The events kept beside a count are objects of their own, as run()'s are.
    const kept = counted(true).dev.events;
    expect(new Set(kept).size).toBe(3);
    expect(kept).toEqual(copies().report.events);
  });
});
