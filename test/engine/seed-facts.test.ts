// Engine memory-map facts pinned to the seeds' literal numbers.
import { describe, expect, it } from "vitest";
import { deviceMemoryMap, psumAddress } from "../../src/engine/index.js";
import { archProfile } from "../../src/hal/index.js";
import { sbufAddress } from "../../src/spec/index.js";

describe("seed 002 §3.2: partition-offset bit 25 (0x2000000) marks PSUM", () => {
  it.each(["trn1", "trn2", "trn3"])("%s: each core's PSUM starts at its SBUF window + 0x2000000", (arch) => {
    const p = archProfile(arch);
    // seed 003 §5 (= the driver's V3 / V4_MMAP_TPB_n_BASE); Trn1: V2_MMAP_TPB_OFFSET + n · 0x4000000.
    const windows =
      arch === "trn1"
        ? [0xfffc0000000n, 0xfffc4000000n]
        : [0x2000000000n, 0x3000000000n, 0x6000000000n, 0x7000000000n];
    for (let core = 0; core < Math.min(p.neuronCores, 4); core++) {
      const win = windows[core] as bigint;
      expect(sbufAddress(p, core, 0, 0)).toBe(win);
      expect(psumAddress(p, core, 0, 0)).toBe(win + 0x2000000n);
      const psum = deviceMemoryMap(p).find((e) => e.kind === "psum" && e.core === core);
      expect(psum?.base).toBe(win + 0x2000000n);
      // No SBUF partition reaches bit 25 (128 partitions × 256 KiB = 0x2000000 exactly).
      const lastSbuf = sbufAddress(p, core, p.sbufPartitions - 1, p.sbufPartitionBytes - 1);
      expect(((lastSbuf - win) >> 25n) & 1n).toBe(0n);
    }
  });
});
