/**
 * The write pre-flight of a packet: everything that could refuse one of its writes is asked before
 * the first byte is written, so a faulting packet leaves memory, registers and semaphores exactly as
 * they were (docs/FIDELITY.md "atomic packets"). A destination can be refused for being unmapped or
 * running past its region (DeviceMemory.regionOf), for not being whole aligned words in MMIO, and by
 * the MMIO region itself (a semaphore read window: RegionSpec.refuseWrite32).
 */
import { checkWholeWords, type DeviceMemory, MemoryFault } from "./memory.js";

/**
 * Check that `len` bytes at `addr` can be written, without writing them.
 * @throws MemoryFault naming the address and why.
 */
export function checkWritable(memory: DeviceMemory, addr: bigint, len: number): void {
  const region = memory.regionOf(addr, len, "write");
  if (!region.onWrite32) return;
  checkWholeWords(region, addr, len, "write");
  const refuse = region.refuseWrite32;
  if (!refuse) return;
  for (let i = 0; i < len; i += 4) {
    const at = addr + BigInt(i);
    const why = refuse(at);
    if (why !== undefined) throw new MemoryFault(at, 4, why);
  }
}
