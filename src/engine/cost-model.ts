/**
 * The timing model, kept apart from execution: the engine asks it how long a packet takes and
 * stamps the event; nothing functional depends on the answer. Swap it for a calibrated one with
 * `new Device(profile, { costModel })`.
 */
import { checkOptions } from "../bits/option-check.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import type { Work } from "./execute/events.js";

export interface CostModel {
  /** Nanoseconds the packet occupies its DMA engine. Must be ≥ 0 and finite. */
  durationNs(work: Work): number;
}

export interface ProfileCostOptions {
  /** Fixed cost per descriptor fetched (MODEL default 16 ns). */
  readonly descriptorLatencyNs?: number;
  /** Bytes per ns of one engine (default: the profile's dmaBytesPerNs, GROUND_TRUTH). */
  readonly bytesPerNs?: number;
}

/**
 * MODEL: a packet costs a fixed latency per descriptor plus max(bytes read, bytes written) at the
 * engine's rate, the rate scaled by `profile.cceRateFactor` for compute (CCE runs at half the copy
 * rate before Trn3, GROUND_TRUTH). 16 ns per descriptor keeps a 4 KiB transfer ≈ 85 % efficient
 * ("≥ 4 KiB to saturate") and a 32 KiB HBM→SBUF copy on Trn2 near the published 1416 ns.
 */
export class ProfileCostModel implements CostModel {
  readonly descriptorLatencyNs: number;
  readonly bytesPerNs: number;

  /** @throws FieldError for a latency that is not a finite ns ≥ 0 or a rate not a finite number > 0. */
  constructor(
    readonly profile: ArchProfile,
    options: ProfileCostOptions = {},
  ) {
    checkOptions("ProfileCostModel", options, {
      descriptorLatencyNs: { number: [0, Number.MAX_VALUE] },
      bytesPerNs: { number: [0, Number.MAX_VALUE], above: 0 },
    });
    this.descriptorLatencyNs = options.descriptorLatencyNs ?? 16;
    this.bytesPerNs = options.bytesPerNs ?? profile.dmaBytesPerNs;
  }

  durationNs(work: Work): number {
    const rate = work.kind === "copy" ? this.bytesPerNs : this.bytesPerNs * this.profile.cceRateFactor;
    return work.descriptors * this.descriptorLatencyNs + Math.max(work.bytesRead, work.bytesWritten) / rate;
  }
}
