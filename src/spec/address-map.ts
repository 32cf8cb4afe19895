/**
 * The device address map, one per arch as data (`ADDRESS_MAPS`), and the address functions over an
 * arch profile: where each DMA engine's registers, each queue register, each SBUF byte, each TopSP
 * and each HBM stack sit. One copy, read by the HAL (TPB / TopSP bases), the engine (its memory map,
 * semaphores, register decode), the runtime and the collectives (buffer placement) alike.
 *
 * Every base is the public kernel driver's (aws-neuron-driver `v2/address_map.h` = Trn1,
 * `v3/address_map.h` = Trn2, `v4/address_map.h` = Trn3, and the `ndma_init` / dhal files that
 * compose them); where a seed states a value (seed 003 §5's SBUF windows) it equals the driver's.
 * docs/FIDELITY.md "Public driver · address maps" lists each with its file and symbol, and
 * test/spec/driver-address-map.test.ts checks the table.
 */
import { FieldError } from "../bits/errors.js";
import { ArchType } from "./enums.js";
import { SBUF_WINDOWS } from "./tables.js";
import { m2sQueueOffset, type QueueReg, queueRegOffset, s2mQueueOffset } from "./udma-regs.js";

/** One HBM stack: `bytes` populated from `base` (the driver's HBM_n_BASE and active size). */
export interface HbmStack {
  readonly base: bigint;
  readonly bytes: bigint;
}

/** One arch's address map, as the public driver states it. */
export interface AddressMap {
  /** The driver generation whose address_map.h this is. */
  readonly driver: "v2" | "v3" | "v4";
  /** NeuronCore c's TPB window: its SBUF at +0, PSUM, and its event block at +eventBlockOffset. */
  readonly tpbWindows: readonly bigint[];
  /** Bytes of one TPB window the model maps into (V2_MMAP_TPB_SIZE, V3 / V4 PCIE_BAR0_TPB_SIZE). */
  readonly tpbWindowBytes: bigint;
  /** TopSP j's base (its semaphore block at offset 0: the driver's TOPSP semaphore mmap entry). */
  readonly topSps: readonly bigint[];
  /** Bytes of one TopSP (V*_TOP_SP_SIZE / V2_TOP_SP_0_SIZE). */
  readonly topSpBytes: bigint;
  /** The HBM stacks, in order; NeuronCore c's memory is stack ⌊c · stacks / cores⌋. */
  readonly hbmStacks: readonly HbmStack[];
  /** The register base of DMA engine group g's engine 0; engine e is in group ⌊e / enginesPerGroup⌋. */
  readonly dmaGroupBases: readonly bigint[];
  /** DMA engines per group (v2: one group of 16 per NeuronCore; v3 / v4: 32 per SENG). */
  readonly dmaEnginesPerGroup: number;
  /** Bytes between two engines of a group (V2_APB_SENG_UDMA_SIZE, V3 / V4 APB_SDMA_DIST). */
  readonly dmaEngineStride: bigint;
  /** Dies of the chip (V2_NUM_DIE_PER_DEVICE 1, V3 / V4_NUM_DIE_PER_DEVICE 2). */
  readonly dies: number;
  /**
   * Die d's half of the address space starts at d · dieStride (v3 / v4: every die-1 base — HBM_2 / 3,
   * TPB_4..7, SE_2 / 3, TOP_SP_10.. — is its die-0 twin + 0x8000_0000_0000); 0 with one die.
   */
  readonly dieStride: bigint;
}

const GiB = 1024n ** 3n;
const TOP_SP_DIST = 0x4000_0000n;
/** v3 / v4: the 16 TopSPs, 8 per die (the driver's TOPSP mmap table: TOP_SP_0..7, TOP_SP_10..17). */
const V3_TOP_SPS: readonly bigint[] = Array.from({ length: 16 }, (_, j) =>
  j < 8 ? 0x82_8000_0000n + BigInt(j) * TOP_SP_DIST : 0x8082_8000_0000n + BigInt(j - 8) * TOP_SP_DIST,
);
const V3_HBM_BASES = [0n, 0x40_0000_0000n, 0x8000_0000_0000n, 0x8040_0000_0000n];
const V3_DMA_GROUPS = [0x10_0200_0000n, 0x50_0400_0000n, 0x8010_0200_0000n, 0x8050_0400_0000n];

/** Trn1: aws-neuron-driver v2/address_map.h and v2/neuron_dhal_v2.c. */
export const V2_ADDRESS_MAP: AddressMap = {
  driver: "v2",
  // V2_MMAP_TPB_OFFSET + c · V2_MMAP_TPB_SIZE, V2_MMAP_TPB_COUNT 2.
  tpbWindows: [0xfff_c000_0000n, 0xfff_c400_0000n],
  tpbWindowBytes: 0x400_0000n,
  // V2_TOP_SP_0_BASE + j · V2_TOP_SP_0_SIZE, V2_TS_PER_DEVICE 6.
  topSps: Array.from({ length: 6 }, (_, j) => 0xfff_d000_0000n + BigInt(j) * 0x40_0000n),
  topSpBytes: 0x40_0000n,
  // V2_HBM_0_BASE / V2_HBM_1_BASE, V2_HBM_0_SIZE / V2_HBM_1_SIZE (16 GiB each).
  hbmStacks: [
    { base: 0n, bytes: 16n * GiB },
    { base: 0x10_0000_0000n, bytes: 16n * GiB },
  ],
  // V2_APB_SENG_0_UDMA_0_BASE, V2_APB_SENG_1_UDMA_0_BASE; + e · V2_APB_SENG_UDMA_SIZE.
  dmaGroupBases: [0xfff_f000_0000n, 0xfff_f070_0000n],
  dmaEnginesPerGroup: 16,
  dmaEngineStride: 0x4_0000n,
  dies: 1,
  dieStride: 0n,
};

/** Trn2: aws-neuron-driver v3/address_map.h, v3/neuron_dhal_v3.c (ndma engine init, TOPSP mmap). */
export const V3_ADDRESS_MAP: AddressMap = {
  driver: "v3",
  // V3_MMAP_TPB_0..7_BASE = seed 003 §5's SBUF windows.
  tpbWindows: SBUF_WINDOWS,
  tpbWindowBytes: 0x400_0000n,
  topSps: V3_TOP_SPS,
  topSpBytes: 0x40_0000n,
  // V3_HBM_0..3_BASE, V3_HBM_ACTIVE_SIZE 0x600000000 (24 GiB each).
  hbmStacks: V3_HBM_BASES.map((base) => ({ base, bytes: 24n * GiB })),
  // V3_APB_SE_0..3_SDMA_0_BASE; engine e: group e / V3_NUM_DMA_ENG_PER_SENG, + (e mod 32) · V3_APB_SDMA_DIST.
  dmaGroupBases: V3_DMA_GROUPS,
  dmaEnginesPerGroup: 32,
  dmaEngineStride: 0x10_0000n,
  // V3_NUM_DIE_PER_DEVICE; V3_HBM_2_BASE − V3_HBM_0_BASE.
  dies: 2,
  dieStride: 0x8000_0000_0000n,
};

/** Trn3: neuron-code-sharing-robot/aws-neuron-driver v4/address_map.h, v4/neuron_dhal_v4.c. */
export const V4_ADDRESS_MAP: AddressMap = {
  ...V3_ADDRESS_MAP,
  driver: "v4",
  // V4_HBM_0..3_BASE (= v3's), V4_HBM_ACTIVE_SIZE 0x900000000 (36 GiB each); V4_NUM_DIE_PER_DEVICE 2.
  hbmStacks: V3_HBM_BASES.map((base) => ({ base, bytes: 36n * GiB })),
};

/** The address map of each arch: Trn1 = v2, Trn2 = v3, Trn3 = v4. */
export const ADDRESS_MAPS: Readonly<Record<ArchType, AddressMap | undefined>> = {
  [ArchType.INVALID]: undefined,
  [ArchType.SUNDA]: V2_ADDRESS_MAP,
  [ArchType.CAYMAN]: V3_ADDRESS_MAP,
  [ArchType.MARIANA]: V4_ADDRESS_MAP,
  [ArchType.NUM]: undefined,
};

/** The arch facts the address map reads (every hal ArchProfile has them). */
export interface AddressProfile {
  readonly name: string;
  readonly neuronCores: number;
  readonly dmaEnginesPerCore: number;
  readonly queuesPerEngine: number;
  readonly sbufPartitions: number;
  readonly sbufPartitionBytes: number;
  /** The address distance between two SBUF partitions (256 KiB, GROUND_TRUTH). */
  readonly sbufPartitionStride: number;
  /** The arch's address map (one of {@link ADDRESS_MAPS}). */
  readonly addressMap: AddressMap;
}

function checkIndex(fn: string, field: string, value: number, count: number): void {
  if (!Number.isInteger(value) || value < 0 || value >= count)
    throw new FieldError(fn, field, value, `0..${count - 1}`);
}

/** Total DMA engines of a device: NeuronCores × engines per core. */
export function engineCount(p: AddressProfile): number {
  return p.neuronCores * p.dmaEnginesPerCore;
}

/**
 * The register-space base of DMA engine `engine`: its group's base + (engine mod group) · stride.
 * @throws FieldError outside the profile.
 * @example engineCsrBase(CAYMAN, 33); // 0x50_0410_0000n
 */
export function engineCsrBase(p: AddressProfile, engine: number): bigint {
  checkIndex("engineCsrBase", "engine", engine, engineCount(p));
  const m = p.addressMap;
  const group = Math.floor(engine / m.dmaEnginesPerGroup);
  return (m.dmaGroupBases[group] as bigint) + BigInt(engine % m.dmaEnginesPerGroup) * m.dmaEngineStride;
}

/** One contiguous run of engine register spaces: engines first .. first + count − 1 from base. */
export interface EngineSpan {
  readonly first: number;
  readonly count: number;
  readonly base: bigint;
  readonly bytes: bigint;
}

/** The profile's engines as contiguous register spans, one per DMA group it populates. */
export function engineSpans(p: AddressProfile): EngineSpan[] {
  const m = p.addressMap;
  const spans: EngineSpan[] = [];
  for (let first = 0; first < engineCount(p); first += m.dmaEnginesPerGroup) {
    const count = Math.min(m.dmaEnginesPerGroup, engineCount(p) - first);
    spans.push({ first, count, base: engineCsrBase(p, first), bytes: BigInt(count) * m.dmaEngineStride });
  }
  return spans;
}

/**
 * The engine whose register space holds `addr` and the offset there, or undefined.
 * @example engineAt(CAYMAN, engineCsrBase(CAYMAN, 40) + 0x38n); // { engine: 40, offset: 0x38 }
 */
export function engineAt(p: AddressProfile, addr: bigint): { engine: number; offset: number } | undefined {
  const stride = p.addressMap.dmaEngineStride;
  for (const s of engineSpans(p)) {
    if (addr >= s.base && addr < s.base + s.bytes) {
      const rel = addr - s.base;
      return { engine: s.first + Number(rel / stride), offset: Number(rel % stride) };
    }
  }
  return undefined;
}

/**
 * The address of a queue register: `tx` is the M2S queue block, `rx` the S2M one (udma-regs.ts).
 * @throws FieldError for an engine or queue outside the profile.
 * @throws RangeError for a register the block does not have (udma-regs.ts queueRegOffset).
 * @example queueRegisterAddress(CAYMAN, { engine: 0, queue: 1 }, "rx", "drtp_inc");
 */
export function queueRegisterAddress(
  p: AddressProfile,
  q: { readonly engine: number; readonly queue: number },
  ring: "tx" | "rx",
  reg: QueueReg,
): bigint {
  checkIndex("queueRegisterAddress", "queue", q.queue, p.queuesPerEngine);
  const block = ring === "tx" ? m2sQueueOffset(q.queue) : s2mQueueOffset(q.queue);
  return engineCsrBase(p, q.engine) + BigInt(block + queueRegOffset(ring, reg));
}

/**
 * NeuronCore `core`'s TPB window (its SBUF, PSUM and event block).
 * @throws FieldError for a core outside the profile.
 */
export function tpbWindow(p: AddressProfile, core: number): bigint {
  checkIndex("tpbWindow", "core", core, Math.min(p.neuronCores, p.addressMap.tpbWindows.length));
  return p.addressMap.tpbWindows[core] as bigint;
}

/**
 * The address of byte `offset` of SBUF partition `partition` of NeuronCore `core`: the core's
 * TPB window + partition · stride + offset.
 * @throws FieldError for a core, partition or offset outside the profile (offset < partition bytes).
 * @example sbufAddress(CAYMAN, 1, 2, 16); // 0x30_0008_0010n
 */
export function sbufAddress(p: AddressProfile, core: number, partition: number, offset: number): bigint {
  const window = tpbWindow(p, core);
  checkIndex("sbufAddress", "partition", partition, p.sbufPartitions);
  checkIndex("sbufAddress", "offset", offset, p.sbufPartitionBytes);
  return window + BigInt(partition * p.sbufPartitionStride + offset);
}

/** TopSP `j`'s base in a map. @throws FieldError for a TopSP the map does not have. */
export function topSpAddress(map: AddressMap, j: number): bigint {
  checkIndex("topSpAddress", "topsp", j, map.topSps.length);
  return map.topSps[j] as bigint;
}

/** The HBM stack NeuronCore `core` sits by: ⌊core · stacks / cores⌋ (2 cores per stack on v3 / v4). */
export function hbmStackOf(p: AddressProfile, core: number): number {
  checkIndex("hbmStackOf", "core", core, p.neuronCores);
  return Math.floor((core * p.addressMap.hbmStacks.length) / p.neuronCores);
}

/**
 * The die whose half of the address space holds `addr` (0 on a one-die chip).
 * @throws FieldError for an address past the last die's half.
 * @example dieOf(CAYMAN, 0x8040_0000_0000n); // 1: HBM stack 3
 */
export function dieOf(p: AddressProfile, addr: bigint): number {
  const m = p.addressMap;
  if (m.dies === 1) return 0;
  const die = addr / m.dieStride;
  if (addr < 0n || die >= BigInt(m.dies)) {
    throw new FieldError("dieOf", "addr", addr, `0..${BigInt(m.dies) * m.dieStride - 1n}`);
  }
  return Number(die);
}

/**
 * The die NeuronCore `core` sits on: its TPB window's (cores 0..3 and 4..7 on v3 / v4, V3_NC_PER_DIE 4).
 * @throws FieldError for a core outside the profile.
 */
export function coreDie(p: AddressProfile, core: number): number {
  return dieOf(p, tpbWindow(p, core));
}

/** All HBM bytes of a profile: the sum of its stacks. */
export function hbmTotalBytes(p: AddressProfile): bigint {
  return p.addressMap.hbmStacks.reduce((s, h) => s + h.bytes, 0n);
}

/**
 * The HBM address `offset` bytes into the stacks laid end to end (stack 0 first).
 * @throws FieldError past the profile's HBM.
 * @example hbmAddress(SUNDA, 16n << 30n); // 0x10_0000_0000n: stack 1's first byte
 */
export function hbmAddress(p: AddressProfile, offset: bigint): bigint {
  let rest = offset;
  if (typeof rest === "bigint" && rest >= 0n) {
    for (const s of p.addressMap.hbmStacks) {
      if (rest < s.bytes) return s.base + rest;
      rest -= s.bytes;
    }
  }
  throw new FieldError("hbmAddress", "offset", offset, `0..${hbmTotalBytes(p) - 1n}`);
}

/** The HBM stack holding `addr` (its index, base and bytes), or undefined. */
export function hbmStackAt(p: AddressProfile, addr: bigint): (HbmStack & { index: number }) | undefined {
  const stacks = p.addressMap.hbmStacks;
  for (let index = 0; index < stacks.length; index++) {
    const s = stacks[index] as HbmStack;
    if (addr >= s.base && addr < s.base + s.bytes) return { ...s, index };
  }
  return undefined;
}
