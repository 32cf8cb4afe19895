/**
 * The collective cost model: every parameter of it, in one place, with where it comes from — a
 * public figure ([C], ../shared/GROUND_TRUTH.md), a MODEL choice, or the nccom-test table it was
 * fitted on (test/data/nccom-test-user-guide.json; docs/TIMING.md shows the fit). The link figures
 * (hop latencies, HBM, chip-to-chip, EFA per NIC) are in links.ts; docs/FIDELITY.md has one row each.
 *
 * A leg's duration is the longest of
 * - its DMA queue's engine time: the packets the runtime builds for it (leg-cost.ts) through the
 *   engine's {@link ProfileCostModel} (16 ns per descriptor plus max(bytes read, bytes written) at
 *   the engine rate, CCE at `profile.cceRateFactor` of it), the rate calibrated below;
 * - for every shared resource it touches — the HBM of each chip it reads or writes, a directed
 *   chip-to-chip link, the sending and the receiving EFA NIC, its rank's chip's DMA ceiling — its bytes
 *   there × the number of queues of the same step touching that resource ÷ the resource's bandwidth.
 *   Legs on one queue run one after another, so they do not share with each other.
 * A leg starts when its queue is free and every leg it reads from has ended, plus the wait to learn
 * of it: nothing on the same queue (in order), else max(semaphore-to-start, the hop latency between
 * the two ranks). A leg touching another rank's buffer that no earlier leg wrote (a step-0 remote
 * read, a write into a peer) waits the same for that peer's "ready". The collective's time is the
 * arch's launch plus the last end.
 */

import { ProfileCostModel } from "../../engine/index.js";
import type { ArchName, ArchProfile } from "../../hal/arch-profile.js";

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

/** The engine cost model with the calibrated rate. */
export function engineCostModel(profile: ArchProfile): ProfileCostModel {
  return new ProfileCostModel(profile, {
    descriptorLatencyNs: CALIBRATION.descriptorNs,
    bytesPerNs: calibratedEngineRate(profile),
  });
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

/**
 * The sharing rule, the one place it is written: a leg lasts at least `ns` and at least its `bytes`
 * through a resource × the queues of its step sharing it ÷ the resource's bandwidth. The placer
 * folds it over the resources a leg touches; the pre-pass's lower bound over a queue's step (its
 * engine ns summed, its bytes per resource summed) — so the bound stays a bound of the placement.
 */
export function legDurationNs(ns: number, bytes: number, sharers: number, bytesPerNs: number): number {
  return Math.max(ns, (bytes * sharers) / bytesPerNs);
}
