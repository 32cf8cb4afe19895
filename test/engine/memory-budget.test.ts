// The engine's Device given a budget (issue 27 item 2): DeviceOptions.memoryBudget bounds the host
// bytes its memory pages take; a write that needs a page past it — by the host or by a packet — is
// refused with a MemoryBudgetError before the page is allocated, and a packet's refusal ends run()
// instead of becoming a queue's fault.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { Device, DeviceMemory, HBM_BASE, MemoryBudgetError, PAGE_BYTES } from "../../src/engine/index.js";
import { DEFAULT_COPY_META } from "../../src/spec/index.js";
import { thrown } from "../helpers/thrown.js";
import { QueueWriter, rxData, txData } from "./helpers/packets.js";

const P = BigInt(PAGE_BYTES);

describe("DeviceOptions.memoryBudget", () => {
  it("a host write past the budget is refused before its page is allocated", () => {
    const dev = new Device("trn2", { memoryBudget: 2 * PAGE_BYTES });
    dev.memory.write(HBM_BASE, new Uint8Array(8).fill(1));
    dev.memory.write(HBM_BASE + 5n * P, new Uint8Array(8).fill(2));
    // A whole page only filled takes no memory, so it is not refused.
    dev.memory.fill(HBM_BASE + 9n * P, PAGE_BYTES, 0xa5);
    const e = thrown(() => dev.memory.write(HBM_BASE + 7n * P + 4n, new Uint8Array(8)));
    expect(e).toBeInstanceOf(MemoryBudgetError);
    expect(e).toMatchObject({
      addr: HBM_BASE + 7n * P,
      budgetBytes: 2 * PAGE_BYTES,
      allocatedBytes: 2 * PAGE_BYTES,
      code: "USAGE",
    });
    expect((e as Error).message).toContain(`${2 * PAGE_BYTES} bytes allocated, ${2 * PAGE_BYTES} allowed`);
    expect(dev.memory.allocatedBytes).toBe(2 * PAGE_BYTES);
    // Pages already held are written as before.
    dev.memory.write(HBM_BASE + 16n, new Uint8Array([9]));
    expect(dev.memory.read(HBM_BASE + 16n, 1)).toEqual(new Uint8Array([9]));
  });

  it("a packet that needs a page past it ends run() with the error, not a queue fault", () => {
    // Pages: the source, the rings, then the copy's destination page is one too many.
    const dev = new Device("trn2", { memoryBudget: 2 * PAGE_BYTES });
    dev.memory.write(HBM_BASE + 3n * P, new Uint8Array(64).fill(3));
    const w = new QueueWriter(dev, 0, 0, HBM_BASE + 0x10_0000n, HBM_BASE + 0x10_1000n, 32);
    w.post({ tx: [txData(HBM_BASE + 3n * P, 16, DEFAULT_COPY_META)], rx: [rxData(HBM_BASE + 6n * P, 16)] });
    expect(dev.memory.allocatedBytes).toBe(2 * PAGE_BYTES);
    expect(() => dev.run()).toThrow(MemoryBudgetError);
    expect(dev.memory.allocatedBytes).toBe(2 * PAGE_BYTES);
  });

  it("the same copy within a budget that fits runs as without one", () => {
    const dev = new Device("trn2", { memoryBudget: 3 * PAGE_BYTES });
    dev.memory.write(HBM_BASE + 3n * P, new Uint8Array(64).fill(3));
    const w = new QueueWriter(dev, 0, 0, HBM_BASE + 0x10_0000n, HBM_BASE + 0x10_1000n, 32);
    w.post({ tx: [txData(HBM_BASE + 3n * P, 16, DEFAULT_COPY_META)], rx: [rxData(HBM_BASE + 6n * P, 16)] });
    const report = dev.run();
    expect([report.events.length, report.faults]).toEqual([1, []]);
    expect(dev.memory.read(HBM_BASE + 6n * P, 16)).toEqual(new Uint8Array(16).fill(3));
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53, "1"])("refuses the budget %s naming the field", (bad) => {
    const e = thrown(() => new Device("trn2", { memoryBudget: bad as number }));
    expect(e).toBeInstanceOf(FieldError);
    expect((e as Error).message).toMatch(
      /^Device\(memoryBudget\): .* is out of range 0\.\.\d+ bytes or Infinity$/,
    );
    expect(() => new DeviceMemory({ budgetBytes: bad as number })).toThrow(/^DeviceMemory\(budgetBytes\)/);
  });
});
