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
   * What one packet (one runtime call: a copy or a CCE pull) costs its engine beyond its
   * descriptors and bytes: [C] a transfer has a fixed cost besides its size — its descriptors
   * generated, the engines synchronising on semaphores, a setup before each packet's bytes move
   * (the Neuron profiler's guide on inefficient DMA transfers). The figure is not published; fitted.
   */
  readonly packetNs: number;
}

/**
 * [C] A chip's DMA bandwidth: Trn1 1 TB/s, Trn2 3.5 TB/s (the architecture pages' "Data movement").
 * Trn3: not in our sources — MODEL: 128 engines × 38.4 GB/s, the NeuronCore-v4 per-engine
 * theoretical figure (Trn2's 3.5 TB/s is 128 × 27.2 GB/s, its cores' figure, the same way).
 */
const CHIP_DMA_BYTES_PER_NS: Readonly<Record<ArchName, number>> = {
  trn1: 1000,
  trn2: 3500,
  trn3: 128 * 38.4,
};

/**
 * Fitted with `sdmakit calibrate`'s fit (calibrate.ts `fitArch`, launch, packet and node message
 * costs together) on every calibration table of the arch (tools/calibration.ts, docs/TIMING.md),
 * rounded: Trn1 on sdk25-allg-r32-fp32-{ioSize,json} (the 6 µs floor, the 512 KiB row) and the 2023
 * all-reduces' rows ≥ 64 MiB (sdk23-allr-r2-fp32, sdk23-allr-r64-N2-fp32); Trn2 on
 * sdk26-allg-r8-fp32-stats and sdk26-allr-r16-fp32-algo's 512 MiB row. Trn3: no public run —
 * MODEL: Trn2's.
 */
export const ARCH_TIMING: Readonly<Record<ArchName, ArchTiming>> = {
  trn1: { launchNs: 2430, packetNs: 1015 },
  trn2: { launchNs: 7460, packetNs: 667 },
  trn3: { launchNs: 7460, packetNs: 667 },
};

/** The model's parameters for one arch (ns, bytes / ns). */
export interface TimingParams {
  /** Host launch, doorbells and the final barrier, once a collective. */
  readonly launchNs: number;
  /** Per packet (runtime call) on its engine, beyond its descriptors and bytes. */
  readonly packetNs: number;
  /** A chip's DMA bandwidth, shared by the queues of all its cores. */
  readonly chipDmaBytesPerNs: number;
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
  /** Per leg crossing nodes, on its queue: the host proxy's EFA work request and completion. */
  readonly nodeMessageNs: number;
  /** A chip's HBM. */
  readonly hbmBytesPerNs: number;
  /** One direction of one chip-to-chip link. */
  readonly chipLinkBytesPerNs: number;
  /** One direction of a chip's die boundary (Trn2 / Trn3: 2 dies; unused on Trn1's one). */
  readonly dieLinkBytesPerNs: number;
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

const TRN1_FIT = [
  "sdk25-allg-r32-fp32-ioSize",
  "sdk25-allg-r32-fp32-json",
  "sdk23-allr-r2-fp32",
  "sdk23-allr-r64-N2-fp32",
];
const TRN2_FIT = ["sdk26-allg-r8-fp32-stats", "sdk26-allr-r16-fp32-algo"];

/** The registry, in the order docs print it. */
export const TIMING_PARAMETERS: readonly TimingParameter[] = [
  {
    key: "launchNs",
    unit: "ns",
    fidelityRow: "Launch",
    source: { kind: "fitted", tables: [...TRN1_FIT, ...TRN2_FIT], text: "the floors, with the packet cost" },
    perArch: "fitted per arch (Trn1 on its tables, Trn2 on its); Trn3 MODEL = Trn2",
    free: true,
  },
  {
    key: "packetNs",
    unit: "ns",
    fidelityRow: "Per-packet cost",
    source: { kind: "fitted", tables: [...TRN1_FIT, ...TRN2_FIT], text: "the plateaus and mid-size rows" },
    perArch: "fitted per arch (Trn1 on its tables, Trn2 on its); Trn3 MODEL = Trn2",
    free: true,
  },
  {
    key: "chipDmaBytesPerNs",
    unit: "B/ns",
    fidelityRow: "DMA bandwidth, a chip's",
    source: { kind: "C", text: "Trn1 1 TB/s, Trn2 3.5 TB/s a chip; Trn3 MODEL 128 × 38.4 GB/s" },
    perArch: "[C] per arch",
    free: false,
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
    key: "nodeMessageNs",
    unit: "ns",
    fidelityRow: "Node message cost",
    source: {
      kind: "fitted",
      tables: ["sdk23-allr-r64-N2-fp32"],
      text: "the 2-node table's rows ≥ 64 MiB (host proxy, EFA work request, completion)",
    },
    free: true,
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
    source: {
      kind: "C",
      text: "per-chip aggregates (Trn2: in an instance) over 4 links; MODEL: both directions counted",
    },
    perArch: "[C] per arch",
    free: false,
  },
  {
    key: "dieLinkBytesPerNs",
    unit: "B/ns",
    fidelityRow: "Die boundary",
    source: {
      kind: "MODEL",
      text: "one die's share of the chip's [C] HBM bandwidth, each way ([C] 2 dies on Trn2 / Trn3, driver); no public figure",
    },
    perArch: "[C] HBM per arch ÷ [C] dies per chip (Trn1: one die, no boundary)",
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

/**
 * One direction of one chip-to-chip link: [C] a chip's NeuronLink aggregate — Trn1 384 GB/s, Trn2
 * 1.28 TB/s of which 1024 GB/s inside an instance, Trn3 2.56 TB/s — over its 4 links (route.ts);
 * MODEL: an aggregate counts both directions of every link (as link aggregates are usually
 * quoted), so a link gets an eighth each way. Trn3 has no in-instance figure: its whole aggregate.
 */
const CHIP_LINK_BYTES_PER_NS: Readonly<Record<ArchName, number>> = {
  trn1: 384 / (2 * CHIP_PORTS),
  trn2: 1024 / (2 * CHIP_PORTS),
  trn3: 2560 / (2 * CHIP_PORTS),
};

/**
 * One direction of a chip's die boundary: [C] Trn2 and Trn3 chips are 2 dies of 4 NeuronCores and 2
 * HBM stacks each (the driver's V3 / V4_NUM_DIE_PER_DEVICE, V3_NC_PER_DIE, die 1's bases at
 * + 0x8000_0000_0000: spec/address-map.ts `coreDie`, `dieOf`); Trn1 is one die. No public figure gives
 * the boundary's bandwidth or latency. MODEL: it carries one die's share of the chip's [C] HBM
 * bandwidth each way — the docs quote one HBM figure for the whole chip, reachable by every DMA engine,
 * so a die's engines may stream the far die's stacks at the stacks' rate; the boundary binds only when
 * more than that crosses at once. Its latency is inside the [C] 1–2 µs on-chip hop.
 */
function dieLinkBytesPerNs(p: ArchProfile): number {
  return p.hbmBytesPerNs / p.addressMap.dies;
}

/**
 * Per leg (one channel's message of a step) that crosses nodes, on its queue: [C] inter-node
 * transfers are driven by the runtime's network proxy threads on the host (NEURON_RT_ONE_THREAD_PER_CORE
 * pins them, "up to 2x" better collective latency; NEURON_RT_RANKS_PER_NETWORK_PROXY shares them),
 * which post each message's EFA work request and reap its completion — before and after its bytes
 * move, so it adds to the leg's time. Not published; fitted (after launch and the packet cost) on
 * sdk23-allr-r64-N2-fp32, the one multi-node calibration table (Trn1); Trn2 / Trn3 MODEL the same.
 */
const NODE_MESSAGE_NS = 17740;

/** [C] EFA per NIC, each way: trn1.32xlarge 8 × 100 Gbit/s; trn2.48xlarge 3.2 Tbit/s over 16 (MODEL); Trn3 as Trn2. */
const NIC_BYTES_PER_NS: Readonly<Record<ArchName, number>> = { trn1: 12.5, trn2: 25, trn3: 25 };

/** The shipped parameters of an arch. */
export function shippedTiming(arch: ArchName): TimingParams {
  const p = archProfile(arch);
  const fit = ARCH_TIMING[arch];
  return {
    launchNs: fit.launchNs,
    packetNs: fit.packetNs,
    chipDmaBytesPerNs: CHIP_DMA_BYTES_PER_NS[arch],
    engineBytesPerNs: calibratedEngineRate(p),
    descriptorNs: CALIBRATION.descriptorNs,
    semaphoreNs: SEMAPHORE_TO_START_NS,
    hopIntraChipNs: 1000,
    hopChipToChipNs: 2000,
    hopNodeToNodeNs: 15000,
    nodeMessageNs: NODE_MESSAGE_NS,
    hbmBytesPerNs: p.hbmBytesPerNs,
    chipLinkBytesPerNs: CHIP_LINK_BYTES_PER_NS[arch],
    dieLinkBytesPerNs: dieLinkBytesPerNs(p),
    nicBytesPerNs: NIC_BYTES_PER_NS[arch],
  };
}

/** The shipped parameters with `over` in place of the ones it names. */
export function resolveTiming(arch: ArchName, over: Partial<TimingParams> = {}): TimingParams {
  return { ...shippedTiming(arch), ...over };
}
