/**
 * The collective cost model: every parameter of it, in one place, with where it comes from — a
 * public figure ([C], ../shared/GROUND_TRUTH.md), a MODEL choice, or the nccom-test table it was
 * fitted on (test/data/nccom-test-user-guide.json; docs/TIMING.md shows the fit). The link figures
 * (hop latencies, HBM, chip-to-chip, EFA per NIC) are in links.ts; docs/FIDELITY.md has one row each.
 *
 * A leg's duration is the longest of
 * - its DMA queue's engine time: the packets the runtime builds for it (leg-cost.ts) through the
 *   engine's {@link ProfileCostModel} (16 ns per descriptor plus max(bytes read, bytes written) at
 *   the engine rate, CCE at `profile.cceRateFactor` of it), the rate calibrated below, plus the
 *   fitted per-packet cost, plus the node message cost when it crosses nodes (placer.ts). A rank's
 *   channels are its engines (16 per physical core, × LNC: topology.ts), so its DMA is what the
 *   engines its legs drive move, capped only by its chip's [C] DMA bandwidth;
 * - for every shared resource it touches — the HBM stack of each rank it reads or writes, a directed
 *   chip-to-chip link, the sending and the receiving EFA NIC, its rank's chip's DMA, the direction of
 *   its chip's die boundary it crosses (Trn2 / Trn3: a peer on the other die of the chip) — its bytes
 *   there × the number of queues of the same step touching that resource ÷ the resource's bandwidth.
 *   Legs on one queue run one after another, so they do not share with each other.
 * A leg starts when its queue is free and every leg it reads from has ended, plus the wait to learn
 * of it: nothing on the same queue (in order), else max(semaphore-to-start, the hop latency between
 * the two ranks). A leg touching another rank's buffer that no earlier leg wrote (a step-0 remote
 * read, a write into a peer) waits the same for that peer's "ready". The collective's time is the
 * arch's launch plus the last end.
 */

import { ProfileCostModel } from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { CALIBRATION, calibratedEngineRate } from "../topology/timing-params.js";

// The parameters' values live with the registry (topology/timing-params.ts); re-exported here.
export {
  ARCH_TIMING,
  type ArchTiming,
  CALIBRATION,
  calibratedEngineRate,
  SEMAPHORE_TO_START_NS,
} from "../topology/timing-params.js";

/** The engine cost model with the calibrated rate (or a timing profile's rate and descriptor cost). */
export function engineCostModel(
  profile: ArchProfile,
  timing?: { readonly engineBytesPerNs: number; readonly descriptorNs: number },
): ProfileCostModel {
  return new ProfileCostModel(profile, {
    descriptorLatencyNs: timing?.descriptorNs ?? CALIBRATION.descriptorNs,
    bytesPerNs: timing?.engineBytesPerNs ?? calibratedEngineRate(profile),
  });
}

/**
 * The sharing rule, the one place it is written: a leg lasts at least `ns` and at least its `bytes`
 * through a resource × the queues of its step sharing it ÷ the resource's bandwidth. The placer
 * folds it over the resources a leg touches; the pre-pass's lower bound over a queue's step (its
 * engine ns summed, its bytes per resource summed) — so the bound stays a bound of the placement.
 */
export function legDurationNs(ns: number, bytes: number, sharers: number, bytesPerNs: number): number {
  return Math.max(ns, (bytes * sharers) / bytesPerNs);
}
