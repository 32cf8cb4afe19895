/**
 * The vring writer: a queue's TX (M2S) and RX (S2M) descriptor rings in device memory. Creating a
 * vring sets up each ring as the public driver does — pause, queue reset, base (drbp_lo / drbp_hi),
 * size (drl), no completion ring, enable (queue-registers.ts queueSetupWrites) — so the engine finds
 * the rings from the registers alone. Posting a packet writes its descriptors into the
 * next slots (stamped with the ring phase, which starts at 1 and advances at every wrap), then rings
 * the doorbell. A packet that does not fit is refused whole (spec/packet-model.ts).
 */
import { MAX_U32, uintArg } from "../../bits/arg-check.js";
import { FieldError } from "../../bits/errors.js";
import { type DeviceMemory, PageKeep, pageOffset, pageWords } from "../../engine/memory/memory.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { RegisterFile } from "../../hal/register-file.js";
import { queueRegisterAddress } from "../../spec/address-map.js";
import {
  DESCRIPTOR_BYTES,
  INITIAL_RING_PHASE,
  RING_ALIGN_BYTES,
  RING_MAX_SLOTS,
  RING_MIN_SLOTS,
  RING_RESERVED_SLOTS,
  RING_SLOTS_MULTIPLE,
} from "../../spec/packet-model.js";
import {
  type DescriptorSpec,
  encodeDescriptor,
  type Packet,
  type RingSide,
} from "../descriptors/descriptor.js";
import { type Doorbell, RegisterDoorbell } from "./doorbell.js";
import { checkQueueId, type QueueId, queueSetupWrites } from "./queue-registers.js";
import { RingFullError } from "./ring-full.js";

/** The accessor name the register log shows for ring programming and head reads. */
export const VRING_ACCESSOR = "vring";

export interface VringOptions extends QueueId {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly registers: RegisterFile;
  /** Byte address of the TX ring: 256-byte aligned, inside mapped memory. */
  readonly txBase: bigint;
  readonly rxBase: bigint;
  /** Descriptor slots per ring (both rings): a multiple of 16, 32 .. 2^24 − 16. */
  readonly slots: number;
  /** vring->stochastic_rounding_en (seed 000 §3.4): CCE packets open with a seed-init descriptor. */
  readonly stochasticRounding?: boolean;
  /** The 32-bit SR seed the seed-init descriptor loads (NEURON_RT_STOCHASTIC_ROUNDING_SEED, default 0). */
  readonly srSeed?: number;
  /** How to ring; default: drtp_inc writes through `registers`. */
  readonly doorbell?: Doorbell;
  /**
   * Read a ring's head (drhp) only when the free slots seen at the last read, less those written
   * since, do not cover a chain: the engine only moves the head forward, so that count never
   * overstates the room. Default false: a head read a chain (the driver's udma_available_get).
   */
  readonly knownFree?: boolean;
}

/** One descriptor as written: where, which layout, the bytes. */
export interface WrittenDescriptor {
  readonly ring: RingSide;
  readonly slot: number;
  readonly addr: bigint;
  readonly phase: number;
  readonly spec: DescriptorSpec;
  readonly bytes: Uint8Array;
}

/** One descriptor ring: its place in memory, the host's tail and phase. */
export class DescriptorRing {
  /** Next slot the host writes. */
  tail = 0;
  /** Ring phase of the next slot written (len_ctrl ring_id). */
  phase = INITIAL_RING_PHASE;

  constructor(
    readonly side: RingSide,
    readonly base: bigint,
    readonly slots: number,
    private readonly headAddr: bigint,
    private readonly registers: RegisterFile,
    private readonly knownFree = false,
  ) {
    this.baseNumber = Number(base);
  }

  /** Free slots at the last head read less the slots written since (knownFree); −1 before any read. */
  private free = -1;

  /** The base as a Number for memory's fast path (inexact past 2^53, where no region's fast path is). */
  private readonly baseNumber: number;
  /** The page {@link writeWords} last wrote in, and it as words. */
  private lastPage: Uint8Array | undefined;
  private lastWords: Uint32Array | undefined;
  /** The page holding the whole ring, as memory last gave it (DeviceMemory.keptPageAt). */
  private readonly kept = new PageKeep();

  /** Slots the host may fill now: the driver's udma_available_get, 16 slots always kept empty. */
  available(): number {
    const head = this.registers.read32(this.headAddr, VRING_ACCESSOR) % this.slots;
    const free = (((head - (this.tail + RING_RESERVED_SLOTS)) % this.slots) + this.slots) % this.slots;
    if (this.knownFree) this.free = free;
    return free;
  }

  /** The free slots for a chain of `count`: {@link available}, or with knownFree the count kept when it covers `count`. */
  fits(count: number): number {
    if (this.knownFree && this.free >= count) return this.free;
    return this.available();
  }

  /**
   * Encode descriptors for the slots from the tail on, without writing or moving the tail.
   * @throws FieldError when a field is out of range (nothing has been written).
   */
  stage(specs: readonly DescriptorSpec[]): WrittenDescriptor[] {
    let slot = this.tail;
    let phase = this.phase;
    return specs.map((spec) => {
      const written = {
        ring: this.side,
        slot,
        addr: this.base + BigInt(slot * DESCRIPTOR_BYTES),
        phase,
        spec,
        bytes: encodeDescriptor(spec, phase),
      };
      slot += 1;
      if (slot === this.slots) {
        slot = 0;
        phase = (phase + 1) % 4;
      }
      return written;
    });
  }

  /**
   * Write `chain.count` descriptors given as little-endian words (four a descriptor, W0 without
   * the ring phase) from the tail, ORing each one's phase bits for the slot's phase into W0: the
   * template path (cce-template.ts), with no encode. The caller has checked they fit.
   */
  writeWords(memory: DeviceMemory, chain: EncodedChain): void {
    const { words, phaseBits, count } = chain;
    let k = 0;
    while (k < count) {
      // One view over the run of slots up to the ring's end (plain memory in one page), else a slot at a time.
      const run = Math.min(count - k, this.slots - this.tail);
      const len = run * DESCRIPTOR_BYTES;
      // Memory's number fast path first: the page itself, no view nor bigint made.
      const a = this.baseNumber + this.tail * DESCRIPTOR_BYTES;
      // The page holding the whole ring (what is stale in it set once), kept: not looked up twice a packet.
      const page = memory.keptPageAt(this.kept, this.baseNumber, this.slots * DESCRIPTOR_BYTES);
      const from = page ? pageOffset(a) : 0;
      const slotWords = page !== undefined && from % 4 === 0 ? this.wordsOf(page) : undefined;
      if (slotWords !== undefined) {
        // Four word stores a descriptor (a little-endian host: memory.ts pageWords).
        for (let i = from / 4, j = 0; j < run; j++, k++, i += 4) {
          slotWords[i] = (words[4 * k] as number) | (phaseBits[4 * k + this.phase] as number);
          slotWords[i + 1] = words[4 * k + 1] as number;
          slotWords[i + 2] = words[4 * k + 2] as number;
          slotWords[i + 3] = words[4 * k + 3] as number;
          this.advance();
        }
        continue;
      }
      const at = page ? 0n : this.base + BigInt(this.tail * DESCRIPTOR_BYTES);
      const view = page ?? memory.poke(at, len, RING_WRITE[this.side]);
      for (let j = 0; j < run; j++, k++) {
        const out = view ?? new Uint8Array(DESCRIPTOR_BYTES);
        const o = view ? from + j * DESCRIPTOR_BYTES : 0;
        putWord(out, o, ((words[4 * k] as number) | (phaseBits[4 * k + this.phase] as number)) >>> 0);
        putWord(out, o + 4, words[4 * k + 1] as number);
        putWord(out, o + 8, words[4 * k + 2] as number);
        putWord(out, o + 12, words[4 * k + 3] as number);
        if (!view) memory.write(at + BigInt(j * DESCRIPTOR_BYTES), out, RING_WRITE[this.side]);
        this.advance();
      }
    }
  }

  /** `page` as words (memory.ts pageWords), made once per page the ring is written in. */
  private wordsOf(page: Uint8Array): Uint32Array | undefined {
    if (page !== this.lastPage) {
      this.lastPage = page;
      this.lastWords = pageWords(page);
    }
    return this.lastWords;
  }

  /** Write staged descriptors (the next ones from the tail; the caller has checked they fit). */
  write(memory: DeviceMemory, staged: readonly WrittenDescriptor[]): void {
    for (const w of staged) {
      memory.write(w.addr, w.bytes, `${this.side} ring slot ${w.slot}`);
      this.advance();
    }
  }

  /** The tail moves to the next slot; the phase advances at the wrap. */
  private advance(): void {
    if (this.free > 0) this.free -= 1;
    this.tail += 1;
    if (this.tail === this.slots) {
      this.tail = 0;
      this.phase = (this.phase + 1) % 4;
    }
  }
}

/**
 * A chain already encoded: `count` descriptors as words, four each, W0 without its ring phase;
 * `phaseBits[4·k + p]` is what phase p adds to descriptor k's W0.
 */
export interface EncodedChain {
  readonly words: Uint32Array;
  readonly phaseBits: Uint32Array;
  readonly count: number;
}

/** What a ring write is called in a memory fault (a constant: no string is built per packet). */
const RING_WRITE = { tx: "tx ring write", rx: "rx ring write" } as const;

/** Store `w` little-endian at `o`. */
function putWord(out: Uint8Array, o: number, w: number): void {
  out[o] = w;
  out[o + 1] = w >>> 8;
  out[o + 2] = w >>> 16;
  out[o + 3] = w >>> 24;
}

export class Vring {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly queue: QueueId;
  readonly tx: DescriptorRing;
  readonly rx: DescriptorRing;
  readonly stochasticRounding: boolean;
  readonly srSeed: number;
  private readonly doorbell: Doorbell;

  /**
   * Place the rings and set up the queue registers of both rings (queueSetupWrites, TX then RX).
   * @throws FieldError for a misaligned base, a bad slot count, overlapping rings, a bad engine or
   * queue, or a seed outside u32.
   * @throws DeviceFault when a ring is not inside mapped memory.
   */
  constructor(o: VringOptions) {
    checkQueueId(o.profile, o);
    if (
      !Number.isInteger(o.slots) ||
      o.slots < RING_MIN_SLOTS ||
      o.slots > RING_MAX_SLOTS ||
      o.slots % RING_SLOTS_MULTIPLE !== 0
    ) {
      throw new FieldError(
        "vring",
        "slots",
        o.slots,
        `a multiple of ${RING_SLOTS_MULTIPLE} in ${RING_MIN_SLOTS}..${RING_MAX_SLOTS} (udma_q_init)`,
      );
    }
    const ringBytes = BigInt(o.slots * DESCRIPTOR_BYTES);
    for (const [name, base] of [
      ["txBase", o.txBase],
      ["rxBase", o.rxBase],
    ] as const) {
      if (base < 0n || base % BigInt(RING_ALIGN_BYTES) !== 0n || base + ringBytes > 2n ** 64n) {
        throw new FieldError("vring", name, base, `a ${RING_ALIGN_BYTES}-byte aligned 64-bit address`);
      }
      o.memory.regionOf(base, Number(ringBytes), `${name} ring`);
    }
    if (o.txBase < o.rxBase + ringBytes && o.rxBase < o.txBase + ringBytes) {
      throw new FieldError(
        "vring",
        "rxBase",
        o.rxBase,
        `an address whose ring does not overlap the TX ring at 0x${o.txBase.toString(16)}`,
      );
    }
    const seed = uintArg("vring", "srSeed", o.srSeed ?? 0, MAX_U32);
    this.profile = o.profile;
    this.memory = o.memory;
    this.queue = { engine: o.engine, queue: o.queue };
    this.stochasticRounding = o.stochasticRounding ?? false;
    this.srSeed = seed;
    this.doorbell = o.doorbell ?? new RegisterDoorbell(o.registers, o.profile, this.queue);
    this.tx = this.place(o, "tx", o.txBase);
    this.rx = this.place(o, "rx", o.rxBase);
  }

  /** Set up one ring as the driver does (queue-registers.ts queueSetupWrites), TX before RX. */
  private place(o: VringOptions, side: RingSide, base: bigint): DescriptorRing {
    // No closure for the register addresses: a run makes a vring a queue it uses (hundreds), and
    // tsx (the bench's and the tests' runner) names each closure with an Object.defineProperty.
    for (const w of queueSetupWrites(side, base, o.slots))
      o.registers.write32(queueRegisterAddress(o.profile, this.queue, side, w.reg), w.value, VRING_ACCESSOR);
    const head = queueRegisterAddress(o.profile, this.queue, side, "drhp");
    return new DescriptorRing(side, base, o.slots, head, o.registers, o.knownFree ?? false);
  }

  /**
   * Refuse a packet that does not fit: either chain longer than its ring's free slots.
   * @throws RingFullError naming the ring, the slots needed and the slots free.
   */
  checkRoom(packet: Packet): void {
    this.checkRoomFor(packet.tx.length, packet.rx.length);
  }

  /** {@link checkRoom} by counts. @throws RingFullError; FieldError for a count not an integer ≥ 0. */
  checkRoomFor(txCount: number, rxCount: number): void {
    uintArg("Vring.checkRoomFor", "txCount", txCount, Number.MAX_SAFE_INTEGER);
    uintArg("Vring.checkRoomFor", "rxCount", rxCount, Number.MAX_SAFE_INTEGER);
    const txFree = this.tx.fits(txCount);
    if (txCount > txFree) throw new RingFullError("tx", txCount, txFree);
    const rxFree = this.rx.fits(rxCount);
    if (rxCount > rxFree) throw new RingFullError("rx", rxCount, rxFree);
  }

  /**
   * Post a packet already encoded (cce-template.ts): refuse it whole when it does not fit, write
   * both chains, ring the doorbell. @throws RingFullError (nothing written).
   */
  postEncoded(tx: EncodedChain, rx: EncodedChain): void {
    this.checkRoomFor(tx.count, rx.count);
    this.tx.writeWords(this.memory, tx);
    this.rx.writeWords(this.memory, rx);
    this.doorbell.ring(rx.count, tx.count);
  }

  /**
   * Write a packet's TX and RX chains into the rings, then ring the doorbell (RX count, then TX).
   * @throws RingFullError (nothing written) when either chain does not fit its ring's free slots.
   */
  post(packet: Packet): WrittenDescriptor[] {
    this.checkRoom(packet);
    // Encode everything before writing anything, so a field error leaves the rings untouched.
    const tx = this.tx.stage(packet.tx);
    const rx = this.rx.stage(packet.rx);
    this.tx.write(this.memory, tx);
    this.rx.write(this.memory, rx);
    this.doorbell.ring(packet.rx.length, packet.tx.length);
    return [...tx, ...rx];
  }
}
