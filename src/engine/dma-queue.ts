/**
 * One DMA queue as the device sees it: a TX (M2S) ring and an RX (S2M) ring, each found only through
 * its registers (drbp_lo / drbp_hi base, drl size in descriptors, drtp_inc doorbell, cfg enable,
 * q_sw_ctrl reset; offsets in src/spec/udma-regs.ts, meaning in src/spec/packet-model.ts). The host writes descriptors into ring memory, then
 * rings the doorbell with the count; the engine consumes from the head, and the ring's phase
 * (len_ctrl ring_id) starts at 1 and advances mod 4 each time the head wraps.
 */
import { MAX_U32, uintArg } from "../bits/arg-check.js";
import { FieldError } from "../bits/errors.js";
import { type SrRounding, SrStream } from "../numerics/index.js";
import {
  DESCRIPTOR_BYTES,
  INITIAL_RING_PHASE,
  RING_ALIGN_BYTES,
  RING_SLOTS_MULTIPLE,
} from "../spec/packet-model.js";
import type { Descriptor } from "./decode/descriptor.js";
import type { DescriptorFault, QueueStall } from "./decode/faults.js";
import { SlotReader } from "./decode/slot-descriptor.js";
import { PageKeep } from "./memory/memory.js";

/** The most engines / queues a device numbers (far above any profile's): the limit of a queue's ids. */
const MAX_QUEUE_ID = 0xffff;

/** A queue's engine and index. @throws FieldError for either not an integer 0..MAX_QUEUE_ID. */
function checkIds(context: string, engine: unknown, queue: unknown): void {
  uintArg(context, "engine", engine, MAX_QUEUE_ID);
  uintArg(context, "queue", queue, MAX_QUEUE_ID);
}

/** The key of a ring's unchecked slot reader: the device's fetch alone uses it (device.ts). */
export const UNCHECKED_READER = Symbol("unchecked slot reader");

export class Ring {
  private lo = 0;
  private hi = 0;
  /** drbp_lo / drbp_hi as one address, kept as they are written (read for every descriptor fetched). */
  private baseAddr = 0n;
  /** The base as a Number (inexact only at 2^53 and above, where no memory's fast path reaches). */
  private baseNum = 0;
  /** The descriptors of the packet being fetched (reused packet after packet). */
  readonly fetched: Descriptor[] = [];
  /**
   * The descriptors of the packet being fetched, read in place with no argument checked (the
   * device's fetch, which checked the page holds the ring: slot-descriptor.ts). Under a symbol the
   * engine's index does not export: a caller reads a slot through {@link slotDescriptor}, checked.
   */
  readonly [UNCHECKED_READER]: SlotReader;
  /** The page holding the whole ring as memory last gave it for the base and size it had (DeviceMemory.keptPageAt). */
  readonly fetchPage = new PageKeep();
  /** drl: the ring's size in descriptor slots. */
  slots = 0;
  /** Slot of the next descriptor to fetch (drhp). */
  head = 0;
  /** Descriptors posted by doorbells and not yet consumed. */
  posted = 0;
  /**
   * drtp_inc as last written, what a read of it gives (the device's other queue registers are in
   * DmaQueue.shadow): the register the collectives write every leg, kept where the doorbell goes.
   */
  doorbell = 0;
  /** The ring_id a descriptor at the head must carry. */
  phase = INITIAL_RING_PHASE;
  /**
   * cfg EN_PREF | EN_SCHEDULING: the ring fetches and is scheduled. True from the start, as the
   * public driver enables every queue when it initialises the engine (udma_handle_init_aux); its
   * queue set-up pauses the ring (cfg without the bits) and enables it again.
   */
  enabled = true;

  /** @throws FieldError for ids that are not integers 0..65535 or a name not tx / rx. */
  constructor(
    readonly engine: number,
    readonly queue: number,
    readonly name: "tx" | "rx",
  ) {
    checkIds("Ring", engine, queue);
    if (name !== "tx" && name !== "rx") throw new FieldError("Ring", "name", name, "tx | rx");
    this[UNCHECKED_READER] = new SlotReader(this);
  }

  get base(): bigint {
    return this.baseAddr;
  }

  get baseNumber(): number {
    return this.baseNum;
  }

  /** drbp_lo: the ring base's low word. @throws FieldError for a value outside 0..2^32 − 1. */
  set baseLo(v: number) {
    this.lo = uintArg("Ring.baseLo", "value", v, MAX_U32);
    this.rebase();
  }

  /** drbp_hi: the ring base's high word. @throws FieldError for a value outside 0..2^32 − 1. */
  set baseHi(v: number) {
    this.hi = uintArg("Ring.baseHi", "value", v, MAX_U32);
    this.rebase();
  }

  private rebase(): void {
    this.baseAddr = (BigInt(this.hi) << 32n) | BigInt(this.lo);
    this.baseNum = this.hi * 2 ** 32 + this.lo;
  }

  /**
   * The `n`-th descriptor of the packet being fetched: the one in `slot`, read in place in `page`,
   * where the ring starts at byte `at`. Valid until the ring fetches the next packet.
   * @throws FieldError for a slot outside the ring or a descriptor past the page.
   */
  slotDescriptor(n: number, slot: number, page: Uint8Array, at: number): Descriptor {
    const c = "Ring.slotDescriptor";
    uintArg(c, "n", n, this.slots - 1);
    uintArg(c, "slot", slot, this.slots - 1);
    if (!(page instanceof Uint8Array)) throw new FieldError(c, "page", page, "a Uint8Array");
    uintArg(c, "at", at, page.length - this.slots * DESCRIPTOR_BYTES);
    return this[UNCHECKED_READER].read(n, slot, page, at);
  }

  /** drtp: the slot after the last posted descriptor. */
  get tail(): number {
    return this.slots === 0 ? 0 : (this.head + this.posted) % this.slots;
  }

  /** Reprogramming the base starts the ring over (MODEL: as a queue reset). */
  reset(): void {
    this.head = 0;
    this.posted = 0;
    this.phase = INITIAL_RING_PHASE;
  }

  /** Why the ring cannot be used, or undefined (alignment and size rules, GROUND_TRUTH). */
  misconfiguration(): string | undefined {
    if (this.slots === 0 || this.slots % RING_SLOTS_MULTIPLE !== 0) {
      return `ring size drl = ${this.slots} descriptors is not a positive multiple of ${RING_SLOTS_MULTIPLE}`;
    }
    // The low word alone decides the alignment (2^32 is a multiple of it): no bigint per fetch.
    if (this.lo % RING_ALIGN_BYTES !== 0) {
      return `ring base 0x${this.base.toString(16)} is not ${RING_ALIGN_BYTES}-byte aligned`;
    }
    return undefined;
  }

  /** The slot `k` descriptors after the head. @throws FieldError for k not an integer ≥ 0. */
  slotOf(k: number): number {
    uintArg("Ring.slotOf", "k", k, Number.MAX_SAFE_INTEGER);
    return (this.head + k) % this.slots;
  }

  /** The phase a descriptor `k` slots after the head must carry. @throws FieldError as {@link slotOf}. */
  phaseOf(k: number): number {
    uintArg("Ring.phaseOf", "k", k, Number.MAX_SAFE_INTEGER);
    return (this.phase + Math.floor((this.head + k) / this.slots)) % 4;
  }

  /**
   * Consume `n` descriptors: the head moves on, the phase advances at each wrap.
   * @throws FieldError for n not an integer 0..posted.
   */
  consume(n: number): void {
    uintArg("Ring.consume", "n", n, this.posted);
    const abs = this.head + n;
    this.phase = (this.phase + Math.floor(abs / this.slots)) % 4;
    this.head = abs % this.slots;
    this.posted -= n;
  }
}

export class DmaQueue {
  readonly tx: Ring;
  readonly rx: Ring;
  /** Set when a packet faulted: the queue stops until its rings are reprogrammed. */
  fault: DescriptorFault | undefined;
  /** The last reason the queue could not progress, cleared when it does. */
  stall: QueueStall | undefined;
  /**
   * The queue's registers (both blocks) as last written, by byte offset in its engine's register
   * space: what a read of one the device does not compute (cfg, crbp, drtp_inc, ...) gives.
   */
  readonly shadow = new Map<number, number>();
  /** The queue's stochastic rounding: its SR stream, reseeded by each seed-init (made once here). */
  readonly sr: SrRounding<SrStream> = { mode: "sr", rng: new SrStream(0) };

  /** @throws FieldError for ids that are not integers 0..65535. */
  constructor(
    readonly engine: number,
    readonly queue: number,
  ) {
    checkIds("DmaQueue", engine, queue);
    this.tx = new Ring(engine, queue, "tx");
    this.rx = new Ring(engine, queue, "rx");
  }

  /** The queue has work posted on both rings, both rings are enabled, and it has not faulted. */
  get runnable(): boolean {
    return (
      this.fault === undefined &&
      this.tx.posted > 0 &&
      this.rx.posted > 0 &&
      this.tx.enabled &&
      this.rx.enabled
    );
  }

  /** MODEL status register: 0 idle, 1 work posted, 2 stalled, 3 faulted. */
  get status(): number {
    if (this.fault) return 3;
    if (this.stall) return 2;
    return this.tx.posted > 0 || this.rx.posted > 0 ? 1 : 0;
  }
}
