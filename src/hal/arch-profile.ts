/**
 * One record per Trainium generation: every per-arch number and feature gate in one place, so code
 * asks the profile instead of testing `arch === 4` (DESIGN.md). Seed facts are cited by section;
 * public figures come from GROUND_TRUTH.md.
 */
import { UsageError } from "../bits/errors.js";
import { type AddressMap, V2_ADDRESS_MAP, V3_ADDRESS_MAP, V4_ADDRESS_MAP } from "../spec/address-map.js";
import { ArchType } from "../spec/enums.js";
import { CCE_INFO_MAX_SOURCES, MAX_CCE_ELEMENTS } from "../spec/tables.js";

export type ArchName = "trn1" | "trn2" | "trn3";

export interface ArchProfile {
  readonly arch: ArchType;
  readonly name: ArchName;
  /** The KaenaHal codename. */
  readonly codename: "SUNDA" | "CAYMAN" | "MARIANA";
  // --- DMA -----------------------------------------------------------------------------------
  readonly neuronCores: number;
  readonly dmaEnginesPerCore: number;
  readonly queuesPerEngine: number;
  /** SDMA engine register stride within a DMA group: the address map's (0x40000 Trn1, 0x100000 Trn2 / Trn3). */
  readonly sdmaEngineStride: bigint;
  /** Bytes per ns one DMA engine moves (GROUND_TRUTH, [U]). */
  readonly dmaBytesPerNs: number;
  /** CCE compute throughput as a fraction of copy throughput (half before Trn3). */
  readonly cceRateFactor: number;
  // --- CCE limits ----------------------------------------------------------------------------
  /** aws_hal_get_sdma_max_cce_elements (seed 000 §7.1). */
  readonly maxCceElements: number;
  /**
   * Sources per CCE op: cce_info.num_sources ≤ 32 on every arch (seed 000 §3.2, §4.1, §6). Public
   * NKI/NEFF docs say 16 — a recorded contradiction (docs/FIDELITY.md); we follow the seed.
   */
  readonly maxCceSources: number;
  /** num_dests > 1 (replication) and the EXT combo packet: arch > 2 (seed 000 §4.3, §5.1). */
  readonly hasCceReplication: boolean;
  // --- memory --------------------------------------------------------------------------------
  readonly sbufPartitions: number;
  /** Usable bytes per SBUF partition (24 / 28 / 32 MiB over 128 partitions). */
  readonly sbufPartitionBytes: number;
  /** Address stride between partitions: 256 KiB (seed 003 §2, rel >> 18). */
  readonly sbufPartitionStride: number;
  /**
   * The arch's address map (spec/address-map.ts, the public driver's v2 / v3 / v4 address_map.h):
   * TPB windows (SBUF, PSUM, event block), TopSPs, HBM stacks, DMA engine register bases.
   */
  readonly addressMap: AddressMap;
  readonly psumBytes: number;
  readonly hbmBytes: bigint;
  readonly hbmBytesPerNs: number;
  // --- feature gates (seed 003) --------------------------------------------------------------
  /** UDMA-M2S prefetch, CC-queue and XT-local writes: arch > 2. */
  readonly hasM2sPrefetch: boolean;
  /** The Xtensa control-core (CC-queue) bring-up registers: arch > 2; SUNDA skips them silently. */
  readonly hasCcQueue: boolean;
  /** The tpb_xt_local_reg window: `(arch - 3) > 1` gate; SUNDA drops the write silently (seed 003 §5). */
  readonly hasXtLocalWindow: boolean;
  /** The fabric-trigger notification CSR stride: 48 (SUNDA / CAYMAN) or 52 (MARIANA). */
  readonly fabricTriggerStride: number;
  /** The S3D3 SB2SB collective: NC ≥ V3 (seed 002 §5). */
  readonly hasSb2sb: boolean;
  /** The MARIANA-only slice: embedded semaphores, seed / FP8 / QoS / B0 CSRs, CCE user offset. */
  readonly hasMarianaSlice: boolean;
  /** aws_hal_get_sdma_cce_user_offset: 0x2000 on MARIANA, 0 before. */
  readonly cceUserOffset: number;
  // --- arbitration ------------------------------------------------------------------------------
  /** Queue arbitration: round-robin (Trn1/2) or 4 QoS classes (Trn3). */
  readonly queueArbitration: "round-robin" | "qos";
}

const GiB = 1024n ** 3n;
const KiB = 1024;

export const SUNDA: ArchProfile = {
  arch: ArchType.SUNDA,
  name: "trn1",
  codename: "SUNDA",
  neuronCores: 2,
  dmaEnginesPerCore: 16,
  queuesPerEngine: 16,
  sdmaEngineStride: V2_ADDRESS_MAP.dmaEngineStride,
  dmaBytesPerNs: 17,
  cceRateFactor: 0.5,
  maxCceElements: MAX_CCE_ELEMENTS[ArchType.SUNDA] as number,
  maxCceSources: CCE_INFO_MAX_SOURCES,
  hasCceReplication: false,
  sbufPartitions: 128,
  sbufPartitionBytes: 192 * KiB,
  sbufPartitionStride: 256 * KiB,
  addressMap: V2_ADDRESS_MAP,
  psumBytes: 2 * 1024 * KiB,
  hbmBytes: 32n * GiB,
  hbmBytesPerNs: 820,
  hasM2sPrefetch: false,
  hasCcQueue: false,
  hasXtLocalWindow: false,
  fabricTriggerStride: 48,
  hasSb2sb: false,
  hasMarianaSlice: false,
  cceUserOffset: 0,
  queueArbitration: "round-robin",
};

export const CAYMAN: ArchProfile = {
  ...SUNDA,
  arch: ArchType.CAYMAN,
  name: "trn2",
  codename: "CAYMAN",
  neuronCores: 8,
  dmaBytesPerNs: 23,
  maxCceElements: MAX_CCE_ELEMENTS[ArchType.CAYMAN] as number,
  hasCceReplication: true,
  sbufPartitionBytes: 224 * KiB,
  addressMap: V3_ADDRESS_MAP,
  sdmaEngineStride: V3_ADDRESS_MAP.dmaEngineStride,
  hbmBytes: 96n * GiB,
  hbmBytesPerNs: 2900,
  hasM2sPrefetch: true,
  hasCcQueue: true,
  hasXtLocalWindow: true,
  hasSb2sb: true,
};

export const MARIANA: ArchProfile = {
  ...CAYMAN,
  arch: ArchType.MARIANA,
  name: "trn3",
  codename: "MARIANA",
  dmaBytesPerNs: 33,
  cceRateFactor: 1,
  maxCceElements: MAX_CCE_ELEMENTS[ArchType.MARIANA] as number,
  sbufPartitionBytes: 256 * KiB,
  addressMap: V4_ADDRESS_MAP,
  hbmBytes: 144n * GiB,
  hbmBytesPerNs: 4900,
  fabricTriggerStride: 52,
  hasMarianaSlice: true,
  cceUserOffset: 0x2000,
  queueArbitration: "qos",
};

export const PROFILES: readonly ArchProfile[] = [SUNDA, CAYMAN, MARIANA];

/**
 * The profile of an arch name (`trn1`), codename (`cayman`) or hal_target value (2..4).
 * @throws UsageError naming the accepted values.
 */
export function archProfile(which: string | number): ArchProfile {
  // A hal_target typed on a command line arrives as a string ("3").
  const key =
    typeof which === "number" ? which : /^\s*\d+\s*$/.test(which) ? Number(which) : which.toLowerCase();
  const hit = PROFILES.find((p) => p.name === key || p.codename.toLowerCase() === key || p.arch === key);
  if (!hit)
    throw new UsageError(
      `unknown arch ${JSON.stringify(which)}: expected ${PROFILES.map((p) => p.name).join(" | ")}, a codename (${PROFILES.map((p) => p.codename.toLowerCase()).join(" | ")}) or a hal_target (${PROFILES.map((p) => p.arch).join(" | ")})`,
    );
  return hit;
}
