/**
 * The simulated device's address map, declared once as data per arch profile: it lays out the
 * arch's address map (spec/address-map.ts ADDRESS_MAPS, the public driver's v2 / v3 / v4
 * address_map.h). Every base is a driver / seed fact or a MODEL choice named in docs/FIDELITY.md:
 *
 * - SBUF (seed 003 §5, GROUND_TRUTH; the driver's TPB windows): NeuronCore c's SBUF is the 32 MiB at
 *   its TPB window (Trn1 0xfffc0000000 + c·0x4000000; Trn2 / Trn3 the seed's SBUF windows);
 *   partition p starts at p · 256 KiB (rel >> 18) and only `profile.sbufPartitionBytes` of it exist
 *   (192 / 224 / 256 KiB). The rest of each 256 KiB stride is unmapped, so an access past a
 *   partition's capacity faults. MODEL: one region per partition — a descriptor buffer never spans
 *   two partitions (the partitions are separate memories; the runtime splits per partition).
 * - PSUM (seed 002 §3.2: partition-offset bit 25 set means PSUM): MODEL at window + 0x2000000, the
 *   profile's 2 MiB as 128 partitions of 16 KiB, contiguous.
 * - Event blocks (GROUND_TRUTH, the driver's V*_MMAP_NC_EVENT_OFFSET "relative to nc": + 0x2700000
 *   of the core's TPB window; semaphore windows read +0x1000, set +0x1400, increment +0x1800,
 *   decrement +0x1C00, 256 semaphores); on MARIANA also the 16 TopSPs' blocks, at each TopSP's base
 *   (the driver's TOPSP semaphore mmap entry, offset 0).
 * - SDMA register space: one MMIO span per DMA engine group (the driver's ndma engine bases),
 *   routed to the device's RegisterFile.
 * - HBM: one region per stack (the driver's HBM_n_BASE and active size): Trn1 2 × 16 GiB at 0 and
 *   0x10_0000_0000; Trn2 / Trn3 4 × 24 / 36 GiB at 0, 0x40_0000_0000, 0x8000_0000_0000,
 *   0x8040_0000_0000.
 */

import { FieldError } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { TOP_SP_COUNT, TOP_SP_EVENT_OFFSET, topSpBase } from "../../hal/tpb-address-map.js";
import {
  engineAt,
  engineCount,
  engineCsrBase,
  engineSpans,
  hbmAddress,
  hbmStackAt,
  sbufAddress,
  tpbWindow,
} from "../../spec/address-map.js";

export { engineCount, engineCsrBase, hbmAddress, sbufAddress };

import { EVENT_BLOCK_OFFSET, SEMAPHORE_COUNT, SEMAPHORE_WINDOWS } from "../../spec/udma-regs.js";
import type { RegionKind } from "./memory.js";

/** Where HBM starts: stack 0 at 0 on every arch (V2 / V3 / V4_HBM_0_BASE). */
export const HBM_BASE = 0n;
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
function eventBlockBase(profile: ArchProfile, block: number): bigint {
  const event =
    block < 8
      ? tpbWindow(profile, block) + EVENT_BLOCK_OFFSET
      : topSpBase(block - 8, profile.addressMap) + TOP_SP_EVENT_OFFSET;
  return event + SEMAPHORE_WINDOWS.read;
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
  const entries: MapEntry[] = profile.addressMap.hbmStacks.map((s, i) => ({
    name: `hbm${i}`,
    base: s.base,
    bytes: s.bytes,
    kind: "hbm",
  }));
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
      base: eventBlockBase(profile, block),
      bytes: SEMAPHORE_SPAN_BYTES,
      kind: "mmio",
      core: block,
    });
  }
  for (const span of engineSpans(profile)) {
    entries.push({ name: `sdma-csr${span.first}`, base: span.base, bytes: span.bytes, kind: "mmio" });
  }
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
  return tpbWindow(profile, core) + PSUM_OFFSET + BigInt(partition * partitionBytes + offset);
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
  return (
    eventBlockBase(profile, block) - SEMAPHORE_WINDOWS.read + SEMAPHORE_WINDOWS[window] + BigInt(index * 4)
  );
}

/**
 * What an address is, for fault messages: `SBUF core 0 partition 3 + 0x38000 (capacity 0x38000)`.
 * Never throws; an address outside the map says so, and so does a value that is not a bigint.
 */
export function describeAddress(profile: ArchProfile, addr: bigint): string {
  if (typeof addr !== "bigint") return `${String(addr)} is not an address (a bigint)`;
  for (let core = 0; core < profile.neuronCores; core++) {
    const win = tpbWindow(profile, core);
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
  const stack = hbmStackAt(profile, addr);
  if (stack) return `HBM stack ${stack.index} + 0x${(addr - stack.base).toString(16)}`;
  const engine = engineAt(profile, addr);
  if (engine) return `SDMA engine ${engine.engine} register + 0x${engine.offset.toString(16)}`;
  for (const block of eventBlocks(profile)) {
    const base = eventBlockBase(profile, block);
    if (addr >= base && addr < base + SEMAPHORE_SPAN_BYTES)
      return `event block ${block} semaphore window + 0x${(addr - base).toString(16)}`;
  }
  return "outside the device memory map";
}
