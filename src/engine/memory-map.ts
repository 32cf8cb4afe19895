/**
 * The simulated device's address map, declared once as data per arch profile. Every base here is
 * either a seed / public fact or a MODEL choice named in docs/FIDELITY.md:
 *
 * - SBUF (seed 003 §5, GROUND_TRUTH): NeuronCore c's SBUF is the 32 MiB window SBUF_WINDOWS[c];
 *   partition p starts at p · 256 KiB (rel >> 18) and only `profile.sbufPartitionBytes` of it exist
 *   (192 / 224 / 256 KiB). The rest of each 256 KiB stride is unmapped, so an access past a
 *   partition's capacity faults. MODEL: one region per partition — a descriptor buffer never spans
 *   two partitions (the partitions are separate memories; the runtime splits per partition).
 * - PSUM (seed 002 §3.2: partition-offset bit 25 set means PSUM): MODEL at window + 0x2000000, the
 *   profile's 2 MiB as 128 partitions of 16 KiB, contiguous.
 * - Event blocks (GROUND_TRUTH: NeuronCore event block + 0x2700000, semaphore windows read +0x1000,
 *   set +0x1400, increment +0x1800, decrement +0x1C00, 256 semaphores): at the HAL's TPB aperture of
 *   core c (src/hal/tpb-address-map.ts, MODEL there) so the embedded-semaphore addresses the HAL
 *   programs land here; on MARIANA also the 16 TopSP apertures.
 * - SDMA register space (src/spec/udma-regs.ts SDMA_CSR_BASE, public 0x100000 engine stride): MMIO
 *   routed to the device's RegisterFile.
 * - HBM: MODEL at HBM_BASE = 0x1000_0000_0000 (16 TiB), not 0: at 0 a Trn2's 96 GiB would cover the
 *   SDMA register space (64 GiB), the HAL's TPB apertures (4 GiB) and, on Trn3, SBUF window 0.
 */

import { FieldError } from "../bits/errors.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import { TOP_SP_COUNT, topSpBase, tpbBase } from "../hal/tpb-address-map.js";
import { engineCount, engineCsrBase, queueRegisterAddress, sbufAddress } from "../spec/address-map.js";
import { SBUF_WINDOWS } from "../spec/tables.js";

export { engineCount, engineCsrBase, sbufAddress };

import { EVENT_BLOCK_OFFSET, SDMA_CSR_BASE, SEMAPHORE_COUNT, SEMAPHORE_WINDOWS } from "../spec/udma-regs.js";
import type { RegionKind } from "./memory.js";

/** MODEL: where HBM starts (see the module comment for why not 0). */
export const HBM_BASE = 0x1000_0000_0000n;
/** PSUM sits at partition-offset bit 25 above its core's SBUF window (seed 002 §3.2). */
export const PSUM_OFFSET = 1n << 25n;
/** The four semaphore windows span event block + 0x1000 .. + 0x2000 (GROUND_TRUTH). */
export const SEMAPHORE_SPAN_BYTES = 0x1000n;

/** One entry of the declared map (the device turns MMIO entries into handlers). */
export interface MapEntry {
  readonly name: string;
  readonly base: bigint;
  readonly bytes: bigint;
  readonly kind: RegionKind;
  /** SBUF / PSUM / event block: the NeuronCore (TopSP blocks: 8 + TopSP index, as the HAL numbers regions). */
  readonly core?: number;
  readonly partition?: number;
}

export type SemaphoreWindow = keyof typeof SEMAPHORE_WINDOWS;

/** The base of the semaphore windows of event block `block` (0..cores−1 TPBs, 8.. TopSPs). */
function eventBlockBase(block: number): bigint {
  const aperture = block < 8 ? tpbBase(block) : topSpBase(block - 8);
  return aperture + EVENT_BLOCK_OFFSET + SEMAPHORE_WINDOWS.read;
}

/** The event blocks a profile has: one per NeuronCore, plus the 16 TopSPs on MARIANA. */
export function eventBlocks(profile: ArchProfile): number[] {
  const tpbs = Array.from({ length: profile.neuronCores }, (_, c) => c);
  const topSps = profile.hasMarianaSlice ? Array.from({ length: TOP_SP_COUNT }, (_, j) => 8 + j) : [];
  return [...tpbs, ...topSps];
}

/**
 * The declared memory map of a profile, by kind. Pure data: the device maps it.
 * @example deviceMemoryMap(archProfile("trn2")).filter((e) => e.kind === "sbuf").length; // 8 × 128
 */
export function deviceMemoryMap(profile: ArchProfile): MapEntry[] {
  const entries: MapEntry[] = [{ name: "hbm", base: HBM_BASE, bytes: profile.hbmBytes, kind: "hbm" }];
  const psumPartitionBytes = BigInt(profile.psumBytes / profile.sbufPartitions);
  for (let core = 0; core < profile.neuronCores; core++) {
    for (let p = 0; p < profile.sbufPartitions; p++) {
      entries.push({
        name: `sbuf.c${core}.p${p}`,
        base: sbufAddress(profile, core, p, 0),
        bytes: BigInt(profile.sbufPartitionBytes),
        kind: "sbuf",
        core,
        partition: p,
      });
    }
    entries.push({
      name: `psum.c${core}`,
      base: psumAddress(profile, core, 0, 0),
      bytes: psumPartitionBytes * BigInt(profile.sbufPartitions),
      kind: "psum",
      core,
    });
  }
  for (const block of eventBlocks(profile)) {
    const name = block < 8 ? `events.tpb${block}` : `events.topsp${block - 8}`;
    entries.push({
      name,
      base: eventBlockBase(block),
      bytes: SEMAPHORE_SPAN_BYTES,
      kind: "mmio",
      core: block,
    });
  }
  entries.push({
    name: "sdma-csr",
    base: SDMA_CSR_BASE,
    bytes: BigInt(engineCount(profile)) * profile.sdmaEngineStride,
    kind: "mmio",
  });
  return entries;
}

function checkIndex(fn: string, field: string, value: number, count: number): void {
  if (!Number.isInteger(value) || value < 0 || value >= count)
    throw new FieldError(fn, field, value, `0..${count - 1}`);
}

/**
 * The address of byte `offset` of PSUM partition `partition` of NeuronCore `core` (16 KiB each).
 * @throws FieldError for a core, partition or offset outside the profile.
 */
export function psumAddress(profile: ArchProfile, core: number, partition: number, offset: number): bigint {
  const partitionBytes = profile.psumBytes / profile.sbufPartitions;
  checkIndex("psumAddress", "core", core, profile.neuronCores);
  checkIndex("psumAddress", "partition", partition, profile.sbufPartitions);
  checkIndex("psumAddress", "offset", offset, partitionBytes);
  return (SBUF_WINDOWS[core] as bigint) + PSUM_OFFSET + BigInt(partition * partitionBytes + offset);
}

/**
 * The HBM address `offset` bytes in. @throws FieldError past the profile's HBM.
 * @example hbmAddress(CAYMAN, 0x1000n); // HBM_BASE + 0x1000n
 */
export function hbmAddress(profile: ArchProfile, offset: bigint): bigint {
  if (offset < 0n || offset >= profile.hbmBytes) {
    throw new FieldError("hbmAddress", "offset", offset, `0..${profile.hbmBytes - 1n}`);
  }
  return HBM_BASE + offset;
}

/**
 * The address of semaphore `index` in a window of event block `block` (a NeuronCore, or 8 + j for
 * TopSP j on MARIANA). Writing v to `increment` adds v; `set` stores v; `decrement` subtracts v;
 * `read` returns the value.
 * @throws FieldError for an index outside 0..255 or a block the profile does not have.
 * @example semaphoreAddress(CAYMAN, 0, "increment", 3); // tpbBase(0) + 0x2701800 + 12
 */
export function semaphoreAddress(
  profile: ArchProfile,
  block: number,
  window: SemaphoreWindow,
  index: number,
): bigint {
  checkIndex("semaphoreAddress", "index", index, SEMAPHORE_COUNT);
  if (!eventBlocks(profile).includes(block)) {
    throw new FieldError(
      "semaphoreAddress",
      "block",
      block,
      `0..${profile.neuronCores - 1}${profile.hasMarianaSlice ? " or 8..23" : ""}`,
    );
  }
  return eventBlockBase(block) - SEMAPHORE_WINDOWS.read + SEMAPHORE_WINDOWS[window] + BigInt(index * 4);
}

/** The queue register address, under the engine's historical name (one function: spec/address-map.ts). */
export const queueRegAddress = queueRegisterAddress;

/**
 * What an address is, for fault messages: `SBUF core 0 partition 3 + 0x38000 (capacity 0x38000)`.
 * Never throws; an address outside the map says so.
 */
export function describeAddress(profile: ArchProfile, addr: bigint): string {
  for (let core = 0; core < profile.neuronCores; core++) {
    const win = SBUF_WINDOWS[core] as bigint;
    const rel = addr - win;
    if (rel >= 0n && rel < PSUM_OFFSET) {
      const partition = Number(rel / BigInt(profile.sbufPartitionStride));
      const offset = Number(rel % BigInt(profile.sbufPartitionStride));
      const cap = profile.sbufPartitionBytes;
      const beyond =
        partition >= profile.sbufPartitions
          ? " — no such partition"
          : offset >= cap
            ? " — past the partition's capacity"
            : "";
      return `SBUF core ${core} partition ${partition} + 0x${offset.toString(16)} (capacity 0x${cap.toString(16)})${beyond}`;
    }
    if (rel >= PSUM_OFFSET && rel < PSUM_OFFSET + BigInt(profile.psumBytes)) {
      return `PSUM core ${core} + 0x${(rel - PSUM_OFFSET).toString(16)}`;
    }
  }
  if (addr >= HBM_BASE && addr < HBM_BASE + profile.hbmBytes)
    return `HBM + 0x${(addr - HBM_BASE).toString(16)}`;
  const sdmaEnd = SDMA_CSR_BASE + BigInt(engineCount(profile)) * profile.sdmaEngineStride;
  if (addr >= SDMA_CSR_BASE && addr < sdmaEnd) {
    return `SDMA engine ${(addr - SDMA_CSR_BASE) / profile.sdmaEngineStride} register + 0x${((addr - SDMA_CSR_BASE) % profile.sdmaEngineStride).toString(16)}`;
  }
  for (const block of eventBlocks(profile)) {
    const base = eventBlockBase(block);
    if (addr >= base && addr < base + SEMAPHORE_SPAN_BYTES)
      return `event block ${block} semaphore window + 0x${(addr - base).toString(16)}`;
  }
  return "outside the device memory map";
}
