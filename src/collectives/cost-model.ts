/**
 * The collective cost model: every constant of it, in one place, with where it comes from.
 *
 * A leg's duration is the longest of
 * - its DMA engine's time: the engine's own {@link ProfileCostModel} (16 ns per descriptor plus
 *   max(bytes read, bytes written) at the engine rate, CCE at `profile.cceRateFactor` of it), with
 *   the rate calibrated below;
 * - for every shared resource it touches — the HBM of each chip it reads or writes, the directed
 *   chip-to-chip link or the node's network interface it crosses — its bytes there × the number
 *   of legs of the same step touching that resource ÷ the resource's bandwidth (links.ts).
 * A leg starts when its queue is free and every leg it reads from has ended, plus the wait to
 * learn of it: nothing on the same queue (in order), else max(semaphore-to-start, the hop latency
 * between the two ranks). The collective's time is the launch overhead plus the last end.
 */

import { ProfileCostModel } from "../engine/index.js";
import type { ArchProfile } from "../hal/arch-profile.js";

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

/** MODEL: host launch of a collective (doorbells, first fetch); not published, chosen small. */
export const LAUNCH_OVERHEAD_NS = 5000;
