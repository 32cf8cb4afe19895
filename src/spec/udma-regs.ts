/**
 * The UDMA queue register block, declared once as data (aws-neuron-driver udma/udma_regs.h: struct
 * udma_rings_regs, the register part M2S and S2M share, inside struct udma_m2s_q / udma_s2m_q). Every
 * address sdmakit reads or writes in a queue's block comes from {@link QUEUE_REGISTERS}: the host's
 * ring set-up and doorbell (runtime/rings/vring.ts, doorbell.ts), the engine's register decode
 * (engine/device.ts) and the address map (spec/address-map.ts).
 *
 * Public (the driver): the offsets inside a block (udma_rings_regs opens with 8 reserved words, so
 * cfg is at +0x20 … crhp at +0x4c), the M2S-only and S2M-only registers the driver's queue set-up
 * writes, the M2S queue blocks at 0x1000 + q·0x1000 and the S2M ones at 0x21000 + q·0x1000 (struct
 * unit_regs_v4: the S2M unit at +0x20000, its queues at +0x1000 in it). GROUND_TRUTH names the
 * registers and the M2S placement.
 */

/** Which queue block a register is in: both (udma_rings_regs), M2S (TX) only or S2M (RX) only. */
export type QueueRegSide = "both" | "tx" | "rx";

/** One register of a queue block. */
export interface QueueRegister {
  /** sdmakit's name (the driver's, with drbp_low / drbp_high as drbp_lo / drbp_hi). */
  readonly name: string;
  /** Byte offset inside the queue's block. */
  readonly offset: number;
  readonly side: QueueRegSide;
  /** The driver's struct member (udma/udma_regs.h). */
  readonly driver: string;
  readonly doc: string;
}

/** The queue block, in offset order (udma/udma_regs.h; every offset public). */
export const QUEUE_REGISTERS = [
  {
    name: "desc_pref_cfg",
    offset: 0x00,
    side: "tx",
    driver: "udma_m2s_q.desc_pref_cfg",
    doc: "M2S descriptor prefetch configuration",
  },
  {
    name: "cfg",
    offset: 0x20,
    side: "both",
    driver: "udma_rings_regs.cfg",
    doc: "ring configuration: EN_PREF bit 16, EN_SCHEDULING bit 17",
  },
  {
    name: "status",
    offset: 0x24,
    side: "both",
    driver: "udma_rings_regs.status",
    doc: "ring status (sdmakit MODEL values: 0 idle, 1 posted, 2 stalled, 3 faulted)",
  },
  {
    name: "drbp_lo",
    offset: 0x28,
    side: "both",
    driver: "udma_rings_regs.drbp_low",
    doc: "descriptor ring base, low word",
  },
  {
    name: "drbp_hi",
    offset: 0x2c,
    side: "both",
    driver: "udma_rings_regs.drbp_high",
    doc: "descriptor ring base, high word",
  },
  {
    name: "drl",
    offset: 0x30,
    side: "both",
    driver: "udma_rings_regs.drl",
    doc: "ring length in descriptors",
  },
  {
    name: "drhp",
    offset: 0x34,
    side: "both",
    driver: "udma_rings_regs.drhp",
    doc: "head: next descriptor the engine fetches",
  },
  {
    name: "drtp_inc",
    offset: 0x38,
    side: "both",
    driver: "udma_rings_regs.drtp_inc",
    doc: "doorbell: add this many descriptors to the tail",
  },
  { name: "drtp", offset: 0x3c, side: "both", driver: "udma_rings_regs.drtp", doc: "tail" },
  { name: "dcp", offset: 0x40, side: "both", driver: "udma_rings_regs.dcp", doc: "current descriptor" },
  {
    name: "crbp_lo",
    offset: 0x44,
    side: "both",
    driver: "udma_rings_regs.crbp_low",
    doc: "completion ring base, low word",
  },
  {
    name: "crbp_hi",
    offset: 0x48,
    side: "both",
    driver: "udma_rings_regs.crbp_high",
    doc: "completion ring base, high word",
  },
  { name: "crhp", offset: 0x4c, side: "both", driver: "udma_rings_regs.crhp", doc: "completion ring head" },
  {
    name: "comp_cfg",
    offset: 0x54,
    side: "rx",
    driver: "udma_s2m_q.comp_cfg",
    doc: "S2M completion configuration (0: no completion ring)",
  },
  {
    name: "q_sw_ctrl",
    offset: 0x64,
    side: "rx",
    driver: "udma_s2m_q.q_sw_ctrl",
    doc: "S2M queue software control: RST_Q bit 8",
  },
  {
    name: "rlimit_mask",
    offset: 0x74,
    side: "tx",
    driver: "udma_m2s_q.rlimit.mask",
    doc: "M2S rate-limiter mask: bit 2 pauses at a DMB",
  },
  {
    name: "comp_cfg",
    offset: 0xa0,
    side: "tx",
    driver: "udma_m2s_q.comp_cfg",
    doc: "M2S completion configuration (0: no completion ring)",
  },
  {
    name: "q_sw_ctrl",
    offset: 0xb0,
    side: "tx",
    driver: "udma_m2s_q.q_sw_ctrl",
    doc: "M2S queue software control: RST_Q bit 8",
  },
] as const satisfies readonly QueueRegister[];

/** A queue register's name. */
export type QueueReg = (typeof QUEUE_REGISTERS)[number]["name"];
/** The two rings of a queue: M2S (TX) and S2M (RX). */
export type QueueSide = "tx" | "rx";

type SideMap = ReadonlyMap<string, number>;
const offsetsOf = (side: QueueSide): SideMap =>
  new Map(QUEUE_REGISTERS.filter((r) => r.side === "both" || r.side === side).map((r) => [r.name, r.offset]));
const namesOf = (side: QueueSide): ReadonlyMap<number, QueueReg> =>
  new Map(QUEUE_REGISTERS.filter((r) => r.side === "both" || r.side === side).map((r) => [r.offset, r.name]));
const OFFSETS: Readonly<Record<QueueSide, SideMap>> = { tx: offsetsOf("tx"), rx: offsetsOf("rx") };
const NAMES: Readonly<Record<QueueSide, ReadonlyMap<number, QueueReg>>> = {
  tx: namesOf("tx"),
  rx: namesOf("rx"),
};

/**
 * The registers both blocks share (udma_rings_regs), by name: offsets inside a queue block.
 * @example QUEUE_REG.drtp_inc; // 0x38
 */
export const QUEUE_REG = Object.fromEntries(
  QUEUE_REGISTERS.filter((r) => r.side === "both").map((r) => [r.name, r.offset]),
) as Readonly<Record<Extract<(typeof QUEUE_REGISTERS)[number], { side: "both" }>["name"], number>>;

/**
 * The offset of register `reg` in a `side` queue block.
 * @throws RangeError when the register is not in that block (q_sw_ctrl and comp_cfg exist on both
 * sides at different offsets; desc_pref_cfg and rlimit_mask on M2S only).
 * @example queueRegOffset("rx", "q_sw_ctrl"); // 0x64
 */
export function queueRegOffset(side: QueueSide, reg: QueueReg): number {
  const off = OFFSETS[side].get(reg);
  if (off === undefined)
    throw new RangeError(`${reg} is not a register of the ${side === "tx" ? "M2S" : "S2M"} queue block`);
  return off;
}

/** The register at byte `offset` of a `side` queue block, or undefined (reserved or unmodelled). */
export function queueRegAt(side: QueueSide, offset: number): QueueReg | undefined {
  return NAMES[side].get(offset);
}

/** Bytes of one queue's register block (sizeof udma_m2s_q = sizeof udma_s2m_q = 0x1000, public). */
export const QUEUE_BLOCK_BYTES = 0x1000;
/** Where the M2S (TX) queue blocks start inside an engine's register space (udma_m2s_regs_v4.m2s_q). */
export const M2S_QUEUES_OFFSET = 0x1000;
/** Where the S2M (RX) queue blocks start: the S2M unit at +0x20000, its s2m_q[] at +0x1000 in it. */
export const S2M_QUEUES_OFFSET = 0x21000;

/** M2S (TX) queue q's block inside an engine's register space: 0x1000 + q·0x1000 (public). */
export function m2sQueueOffset(queue: number): number {
  return M2S_QUEUES_OFFSET + queue * QUEUE_BLOCK_BYTES;
}

/** S2M (RX) queue q's block: 0x21000 + q·0x1000 (public). */
export function s2mQueueOffset(queue: number): number {
  return S2M_QUEUES_OFFSET + queue * QUEUE_BLOCK_BYTES;
}

/** cfg after reset, both sides (udma_main.c M2S_CFG_RESET_VALUE / S2M_CFG_RESET_VALUE: 3 << 24). */
export const QUEUE_CFG_RESET = 0x0300_0000;
/** cfg EN_PREF (bit 16): the queue prefetches descriptors (UDMA_M2S_Q_CFG_EN_PREF). */
export const QUEUE_CFG_EN_PREF = 0x1_0000;
/** cfg EN_SCHEDULING (bit 17): the queue is scheduled (UDMA_M2S_Q_CFG_EN_SCHEDULING; S2M EN_STREAM). */
export const QUEUE_CFG_EN_SCHEDULING = 0x2_0000;
/** Both enable bits: the driver's udma_q_enable sets / clears them together. */
export const QUEUE_CFG_ENABLE = QUEUE_CFG_EN_PREF | QUEUE_CFG_EN_SCHEDULING;
/** q_sw_ctrl RST_Q (bit 8): reset the queue's pointers (UDMA_M2S_Q_SW_CTRL_RST_Q / UDMA_S2M_…). */
export const Q_SW_CTRL_RST_Q = 0x100;
/** M2S rlimit.mask after reset (udma_main.c M2S_RATE_LIMIT_RESET_VALUE 0b111). */
export const RLIMIT_MASK_RESET = 0x7;
/** rlimit.mask INTERNAL_PAUSE_DMB (bit 2): the driver clears it so a DMB descriptor waits (v2, v3). */
export const RLIMIT_MASK_INTERNAL_PAUSE_DMB = 0x4;

/**
 * NeuronCore event block, relative to the core's TPB window (GROUND_TRUTH; the driver's
 * V2 / V3 / V4_MMAP_NC_EVENT_OFFSET, "relative to nc"), 256 semaphores; the semaphore windows below
 * are relative to it (V*_MMAP_NC_SEMA_READ / SET / INCR / DECR_OFFSET).
 */
export const EVENT_BLOCK_OFFSET = 0x2700000n;
export const SEMAPHORE_WINDOWS = {
  read: 0x1000n,
  set: 0x1400n,
  increment: 0x1800n,
  decrement: 0x1c00n,
} as const;
export const SEMAPHORE_COUNT = 256;
