/**
 * A queue of the host's view: engine and queue index, checked against the profile, and the register
 * writes that set one up. Where its registers sit is the address map's (spec/address-map.ts
 * queueRegisterAddress), shared with the engine.
 */
import { addrArg, MAX_U32, uintArg } from "../../bits/arg-check.js";
import { FieldError } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { engineCount } from "../../spec/address-map.js";
import {
  Q_SW_CTRL_RST_Q,
  QUEUE_CFG_ENABLE,
  QUEUE_CFG_RESET,
  type QueueReg,
  type QueueSide,
  RLIMIT_MASK_INTERNAL_PAUSE_DMB,
  RLIMIT_MASK_RESET,
} from "../../spec/udma-regs.js";

/** One DMA queue of one engine. */
export interface QueueId {
  readonly engine: number;
  readonly queue: number;
}

/**
 * Check a queue id against the profile's engine and queue counts.
 * @throws FieldError naming the engine or queue and the allowed range.
 */
export function checkQueueId(profile: ArchProfile, q: QueueId): void {
  const engines = engineCount(profile);
  if (!Number.isInteger(q.engine) || q.engine < 0 || q.engine >= engines) {
    throw new FieldError("vring", "engine", q.engine, `0..${engines - 1} (${profile.name})`);
  }
  if (!Number.isInteger(q.queue) || q.queue < 0 || q.queue >= profile.queuesPerEngine) {
    throw new FieldError("vring", "queue", q.queue, `0..${profile.queuesPerEngine - 1}`);
  }
}

/** One 32-bit write of a queue's set-up: the register (of the side's block) and the value. */
export interface QueueRegWrite {
  readonly reg: QueueReg;
  readonly value: number;
}

/**
 * The writes that set up one ring of a queue, in the driver's order (aws-neuron-driver
 * udma_m2m_init_queue → udma_q_init: the M2S queue, then the S2M one): on M2S only, the rate-limit
 * mask with INTERNAL_PAUSE_DMB cleared (ndhal udma_q_config, v2 / v3); cfg paused (the reset value
 * without EN_PREF | EN_SCHEDULING, udma_q_reset → udma_q_pause); q_sw_ctrl RST_Q; drbp_low,
 * drbp_high, drl (udma_q_set_pointers); comp_cfg 0 (no completion ring, udma_q_config_compl);
 * cfg enabled (udma_q_enable).
 * The ring's own rules (alignment, a multiple of slots) are the device's to fault on; only what is
 * not a register value at all is refused here.
 * @throws FieldError for a side, base or slot count that is not one (drl is a 32-bit register).
 * @example queueSetupWrites("rx", 0x1000n, 32)[0]; // { reg: "cfg", value: 0x03000000 }
 */
export function queueSetupWrites(side: QueueSide, base: bigint, slots: number): QueueRegWrite[] {
  if (side !== "tx" && side !== "rx") throw new FieldError("queueSetupWrites", "side", side, "tx | rx");
  addrArg("queueSetupWrites", "base", base);
  uintArg("queueSetupWrites", "slots", slots, MAX_U32);
  const writes: QueueRegWrite[] = [];
  if (side === "tx")
    writes.push({ reg: "rlimit_mask", value: RLIMIT_MASK_RESET & ~RLIMIT_MASK_INTERNAL_PAUSE_DMB });
  writes.push(
    { reg: "cfg", value: (QUEUE_CFG_RESET & ~QUEUE_CFG_ENABLE) >>> 0 },
    { reg: "q_sw_ctrl", value: Q_SW_CTRL_RST_Q },
    { reg: "drbp_lo", value: Number(base & 0xffffffffn) },
    { reg: "drbp_hi", value: Number(base >> 32n) },
    { reg: "drl", value: slots },
    { reg: "comp_cfg", value: 0 },
    { reg: "cfg", value: (QUEUE_CFG_RESET | QUEUE_CFG_ENABLE) >>> 0 },
  );
  return writes;
}
