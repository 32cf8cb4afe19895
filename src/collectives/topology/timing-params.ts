/**
 * Every parameter of the collective timing model, one record each: its value per arch, where it
 * comes from (a public figure [C], a MODEL choice with its reason, or the calibration tables it was
 * fitted on) and its row in docs/FIDELITY.md. The scheduler reads the values from its topology
 * (`Topology.timing`), so a timing profile (timing/timing-profile.ts) can replace any of them; nothing here
 * depends on LNC or the rank count (`timing-params.test.ts` holds that, and that every parameter
 * has a source or a named fit).
 */
import { type ArchName, type ArchProfile, archProfile } from "../../hal/arch-profile.js";
import { CHIP_PORTS } from "./route.js";

/**
 * Calibration: [C] one Trn2 engine moved 32 KiB HBM→SBUF in 1416 ns. That copy is one packet of one
 * TX and one RX descriptor, so 1416 = 2 · 16 + 32768 / rate gives 23.68 B/ns — within 3 % of the
 * published 23 B/ns. Trn1 and Trn3 keep the published ratios (17 : 23 : 33).
 */
export const CALIBRATION = {
  bytes: 32768,
  ns: 1416,
  descriptors: 2,
  descriptorNs: 16,
  publishedTrn2BytesPerNs: 23,
};

/** The calibrated bytes per ns of one DMA engine of a profile. */
export function calibratedEngineRate(profile: ArchProfile): number {
  const c = CALIBRATION;
  const trn2 = c.bytes / (c.ns - c.descriptors * c.descriptorNs);
  return (trn2 * profile.dmaBytesPerNs) / c.publishedTrn2BytesPerNs;
}

/** [C] Cross-engine semaphore to start ≈ 1.3 µs. */
export const SEMAPHORE_TO_START_NS = 1300;

/** The fitted per-arch parameters. */
export interface ArchTiming {
  /**
   * From the call to the first descriptor and from the last completion to the return: host launch,
   * doorbells, the final barrier. Not published; fitted.
   */
  readonly launchNs: number;
  /**
   * The most bytes per ns a chip's DMA moves for collectives, per physical core of the chip: the
   * chip's ceiling is this × its cores, shared by all their queues (resources.ts
   * chipDmaBytesPerNs). Far below 16 engines × the engine rate: public runs never show a rank near
   * that. Not published; fitted.
   */
  readonly coreDmaBytesPerNs: number;
}

/**
 * Fitted by a grid search (launch in 0.5 µs steps; ceiling over 20…90 B/ns and "none") minimising
 * the geomean error of the calibration tables (tools/calibration.ts, docs/TIMING.md). Trn1: launch
 * and ceiling on sdk25-allg-r32-fp32-{ioSize,json} (the 6.2 µs floor; the 512 KiB row). Trn2: launch
 * on sdk26-allg-r8-fp32-stats (the 10 µs floor), ceiling on it and sdk26-allr-r16-fp32-algo's
 * 512 MiB row. Trn3: no public run — MODEL: Trn2's launch, the ceiling scaled by the published
 * engine rates (33 / 23).
 */
export const ARCH_TIMING: Readonly<Record<ArchName, ArchTiming>> = {
  trn1: { launchNs: 4000, coreDmaBytesPerNs: 30 },
  trn2: { launchNs: 8500, coreDmaBytesPerNs: 60 },
  trn3: { launchNs: 8500, coreDmaBytesPerNs: (60 * 33) / 23 },
};

/** The model's parameters for one arch (ns, bytes / ns). */
export interface TimingParams {
  /** Host launch, doorbells and the final barrier, once a collective. */
  readonly launchNs: number;
  /** The chip's collective DMA ceiling per physical core of the chip (× the chip's cores, shared). */
  readonly coreDmaBytesPerNs: number;
  /** One DMA engine's copy rate (CCE at the profile's cceRateFactor of it). */
  readonly engineBytesPerNs: number;
  /** Per descriptor an engine processes. */
  readonly descriptorNs: number;
  /** A cross-engine semaphore to the start of the waiting transfer. */
  readonly semaphoreNs: number;
  /** Hop latency between two cores of one chip. */
  readonly hopIntraChipNs: number;
  /** Hop latency between two chips of one node. */
  readonly hopChipToChipNs: number;
  /** Hop latency between two nodes. */
  readonly hopNodeToNodeNs: number;
  /** A chip's HBM. */
  readonly hbmBytesPerNs: number;
  /** One direction of one chip-to-chip link. */
  readonly chipLinkBytesPerNs: number;
  /** One EFA NIC, each way. */
  readonly nicBytesPerNs: number;
}

export type TimingKey = keyof TimingParams;

/** Where a parameter's value comes from. */
export type ParameterSource =
  | { readonly kind: "C"; readonly text: string }
  | { readonly kind: "MODEL"; readonly text: string }
  /** Fitted on these calibration tables (test/data/nccom-test-user-guide.json names). */
  | { readonly kind: "fitted"; readonly tables: readonly string[]; readonly text: string };

export interface TimingParameter {
  readonly key: TimingKey;
  readonly unit: "ns" | "B/ns";
  /** The first cell of its row in docs/FIDELITY.md "Collective timing parameters". */
  readonly fidelityRow: string;
  readonly source: ParameterSource;
  /** Why its value differs between archs (required where it does). */
  readonly perArch?: string;
  /** A free parameter: `sdmakit calibrate` fits it. */
  readonly free: boolean;
}

const TRN1_FIT = ["sdk25-allg-r32-fp32-ioSize", "sdk25-allg-r32-fp32-json"];
const TRN2_FIT = ["sdk26-allg-r8-fp32-stats", "sdk26-allr-r16-fp32-algo"];

/** The registry, in the order docs print it. */
export const TIMING_PARAMETERS: readonly TimingParameter[] = [
  {
    key: "launchNs",
    unit: "ns",
    fidelityRow: "Launch",
    source: { kind: "fitted", tables: [...TRN1_FIT, "sdk26-allg-r8-fp32-stats"], text: "the floors" },
    perArch: "fitted per arch (Trn1 on its tables, Trn2 on its); Trn3 MODEL = Trn2",
    free: true,
  },
  {
    key: "coreDmaBytesPerNs",
    unit: "B/ns",
    fidelityRow: "DMA ceiling, a chip's",
    source: { kind: "fitted", tables: [...TRN1_FIT, ...TRN2_FIT], text: "the 512 KiB and 512 MiB rows" },
    perArch: "fitted per arch; Trn3 MODEL = Trn2 × 33 / 23 (the published engine rates)",
    free: true,
  },
  {
    key: "engineBytesPerNs",
    unit: "B/ns",
    fidelityRow: "DMA engine rate",
    source: { kind: "C", text: "32 KiB HBM→SBUF in 1416 ns on one Trn2 engine; published 17 : 23 : 33 B/ns" },
    perArch: "[C] the published per-arch engine rates",
    free: false,
  },
  {
    key: "descriptorNs",
    unit: "ns",
    fidelityRow: "Descriptor latency",
    source: { kind: "MODEL", text: "keeps a 4 KiB transfer ≈ 85 % efficient ([C] ≥ 4 KiB to saturate)" },
    free: false,
  },
  {
    key: "semaphoreNs",
    unit: "ns",
    fidelityRow: "Semaphore-to-start",
    source: { kind: "C", text: "cross-engine semaphore to start ≈ 1.3 µs" },
    free: false,
  },
  {
    key: "hopIntraChipNs",
    unit: "ns",
    fidelityRow: "Hop latency",
    source: { kind: "C", text: "1–2 µs inside a node (1 µs on a chip)" },
    free: false,
  },
  {
    key: "hopChipToChipNs",
    unit: "ns",
    fidelityRow: "Hop latency",
    source: { kind: "C", text: "1–2 µs inside a node (2 µs chip to chip)" },
    free: false,
  },
  {
    key: "hopNodeToNodeNs",
    unit: "ns",
    fidelityRow: "Hop latency",
    source: { kind: "C", text: "≈ 15 µs between nodes" },
    free: false,
  },
  {
    key: "hbmBytesPerNs",
    unit: "B/ns",
    fidelityRow: "HBM per chip",
    source: { kind: "C", text: "820 GB/s Trn1, 2.9 TB/s Trn2, 4.9 TB/s Trn3" },
    perArch: "[C] per arch",
    free: false,
  },
  {
    key: "chipLinkBytesPerNs",
    unit: "B/ns",
    fidelityRow: "Chip-to-chip",
    source: { kind: "C", text: "per-chip aggregates over 4 links; MODEL: per direction" },
    perArch: "[C] per arch",
    free: false,
  },
  {
    key: "nicBytesPerNs",
    unit: "B/ns",
    fidelityRow: "EFA per NIC, each way",
    source: {
      kind: "C",
      text: "trn1.32xlarge 8 EFA × 100 Gbit/s; trn2.48xlarge 3.2 Tbit/s (MODEL: 16 NICs)",
    },
    perArch: "[C] per instance",
    free: false,
  },
];

/** [C] EFA per NIC, each way (links.ts has the reasoning). */
const NIC_BYTES_PER_NS: Readonly<Record<ArchName, number>> = { trn1: 12.5, trn2: 25, trn3: 25 };

/** The shipped parameters of an arch. */
export function shippedTiming(arch: ArchName): TimingParams {
  const p = archProfile(arch);
  const fit = ARCH_TIMING[arch];
  return {
    launchNs: fit.launchNs,
    coreDmaBytesPerNs: fit.coreDmaBytesPerNs,
    engineBytesPerNs: calibratedEngineRate(p),
    descriptorNs: CALIBRATION.descriptorNs,
    semaphoreNs: SEMAPHORE_TO_START_NS,
    hopIntraChipNs: 1000,
    hopChipToChipNs: 2000,
    hopNodeToNodeNs: 15000,
    hbmBytesPerNs: p.hbmBytesPerNs,
    chipLinkBytesPerNs: p.chipToChipBytesPerNs / CHIP_PORTS,
    nicBytesPerNs: NIC_BYTES_PER_NS[arch],
  };
}

/** The shipped parameters with `over` in place of the ones it names. */
export function resolveTiming(arch: ArchName, over: Partial<TimingParams> = {}): TimingParams {
  return { ...shippedTiming(arch), ...over };
}
