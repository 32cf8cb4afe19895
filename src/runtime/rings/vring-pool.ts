/**
 * One vring per DMA queue of a device, made on first use, its TX and RX rings side by side in a ring
 * area of device memory: queue (engine e, queue q) at `ringBase` + (e · queuesPerEngine + q) ·
 * 2 · slots · 16. What a host that drives many queues (the SB2SB executor, the collectives) keeps.
 */

import { MAX_ADDRESS } from "../../bits/arg-check.js";
import { checkOptions, type OptionRules } from "../../bits/option-check.js";
import type { DeviceMemory } from "../../engine/memory/memory.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { RegisterFile } from "../../hal/register-file.js";
import { engineCount } from "../../spec/address-map.js";
import { DESCRIPTOR_BYTES } from "../../spec/packet-model.js";
import type { Doorbell } from "./doorbell.js";
import { checkQueueId, type QueueId } from "./queue-registers.js";
import { Vring } from "./vring.js";

/** What the host reaches of a device: its profile, memory and registers. */
export interface VringHost {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly regs: RegisterFile;
}

export interface VringPoolOptions {
  /** Start of the ring area (256-byte aligned, mapped memory). */
  readonly ringBase: bigint;
  /** Descriptor slots per ring. */
  readonly slots: number;
  /** The SR seed of a queue's vring; undefined: stochastic rounding off on that ring. */
  readonly srSeedOf?: (q: QueueId) => number | undefined;
  /** How a queue's vring rings (default: drtp_inc writes through the registers, a packet at a time). */
  readonly doorbellOf?: (q: QueueId) => Doorbell;
  /** The vrings' {@link VringOptions.knownFree}. */
  readonly knownFree?: boolean;
  /**
   * Where a queue's TX ring starts (its RX ring right after it), when the host places the rings
   * itself (say, each in the HBM stack of its engine's core); default `ringBase` + key · 2 rings.
   */
  readonly ringBaseOf?: (q: QueueId) => bigint;
}

/**
 * The first byte after the ring area of a pool with these options (every queue of every engine of
 * the profile): where a host may place its buffers, known before any device exists.
 */
export function ringAreaEnd(p: ArchProfile, options: Pick<VringPoolOptions, "ringBase" | "slots">): bigint {
  const queues = engineCount(p) * p.queuesPerEngine;
  return options.ringBase + BigInt(queues) * 2n * BigInt(options.slots * DESCRIPTOR_BYTES);
}

const isFunction = { check: (f: unknown) => typeof f === "function", allowed: "a function" };

/** What each VringPoolOptions key takes (option-check.ts); a slot count's rules are the vring's. */
const POOL_OPTION_RULES: OptionRules = {
  ringBase: {
    check: (b) => typeof b === "bigint" && b >= 0n && b <= MAX_ADDRESS,
    allowed: "a bigint address",
  },
  slots: { integer: [1, 2 ** 32 - 1] },
  srSeedOf: isFunction,
  doorbellOf: isFunction,
  knownFree: { boolean: true },
  ringBaseOf: isFunction,
};

export class VringPool {
  private readonly vrings = new Map<number, Vring>();
  private readonly ringBytes: bigint;

  /** @throws FieldError for options that are not VringPoolOptions (option-check.ts). */
  constructor(
    readonly host: VringHost,
    readonly options: VringPoolOptions,
  ) {
    checkOptions("VringPool", options, POOL_OPTION_RULES, ["ringBase", "slots"]);
    this.ringBytes = BigInt(options.slots * DESCRIPTOR_BYTES);
  }

  /** The first byte after the ring area: every queue of every engine of the profile. */
  get end(): bigint {
    return ringAreaEnd(this.host.profile, this.options);
  }

  /** The vring of a queue. @throws FieldError for an engine / queue outside the profile. */
  get(q: QueueId): Vring {
    const p = this.host.profile;
    checkQueueId(p, q);
    const key = q.engine * p.queuesPerEngine + q.queue;
    let v = this.vrings.get(key);
    if (v === undefined) {
      const base = this.options.ringBaseOf?.(q) ?? this.options.ringBase + BigInt(key) * 2n * this.ringBytes;
      const srSeed = this.options.srSeedOf?.(q);
      v = new Vring({
        profile: p,
        memory: this.host.memory,
        registers: this.host.regs,
        engine: q.engine,
        queue: q.queue,
        txBase: base,
        rxBase: base + this.ringBytes,
        slots: this.options.slots,
        ...(srSeed === undefined ? {} : { stochasticRounding: true, srSeed }),
        ...(this.options.doorbellOf === undefined ? {} : { doorbell: this.options.doorbellOf(q) }),
        ...(this.options.knownFree === undefined ? {} : { knownFree: this.options.knownFree }),
      });
      this.vrings.set(key, v);
    }
    return v;
  }
}
