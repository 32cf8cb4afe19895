/**
 * The descriptors the engine fetches from a ring held in one page of plain memory: read in place,
 * with no object made per fetch. A ring keeps a few of them, the n-th of a packet re-pointed at the
 * slot the n-th descriptor sits in, so a descriptor is valid until its ring fetches the next packet
 * (a plan is used at once; a fault or a stall takes `ref`, made then). One object per slot instead,
 * kept for the device's life, was the main job's largest allocation (≈ 160 000 a run, each living
 * through the young generation's collections) and most of its collection time.
 */
import { wordAt } from "../../bits/index.js";
import { DESCRIPTOR_BYTES } from "../../spec/packet-model.js";
import { pageWords } from "../memory/memory.js";
import type { Descriptor } from "./descriptor.js";
import type { DescriptorRef } from "./faults.js";

const EMPTY = new Uint8Array(0);

/** Which ring a slot descriptor belongs to. */
export interface RingName {
  readonly engine: number;
  readonly queue: number;
  readonly name: "tx" | "rx";
}

export class SlotDescriptor implements Descriptor {
  w0 = 0;
  w1 = 0;
  w2 = 0;
  w3 = 0;
  private slot = 0;
  private page: Uint8Array = EMPTY;
  private at = 0;
  private view: Uint8Array | undefined;
  private madeRef: DescriptorRef | undefined;

  constructor(private readonly ring: RingName) {}

  /**
   * Point at `slot`, whose 16 bytes are at byte `at` of `page` (`words`: the page as words,
   * memory.ts {@link pageWords}, or
   * undefined to read them byte by byte), and read its words.
   */
  point(slot: number, page: Uint8Array, at: number, words: Uint32Array | undefined): this {
    this.slot = slot;
    this.page = page;
    this.at = at;
    this.view = undefined;
    this.madeRef = undefined;
    if (words !== undefined && at % 4 === 0) {
      const i = at >> 2;
      this.w0 = words[i] as number;
      this.w1 = words[i + 1] as number;
      this.w2 = words[i + 2] as number;
      this.w3 = words[i + 3] as number;
    } else {
      this.w0 = wordAt(page, at);
      this.w1 = wordAt(page, at + 4);
      this.w2 = wordAt(page, at + 8);
      this.w3 = wordAt(page, at + 12);
    }
    return this;
  }

  /** The 16 bytes in place (a view made when first asked for: the grammar and layout reads). */
  get bytes(): Uint8Array {
    this.view ??= this.page.subarray(this.at, this.at + DESCRIPTOR_BYTES);
    return this.view;
  }

  get ref(): DescriptorRef {
    this.madeRef ??= {
      engine: this.ring.engine,
      queue: this.ring.queue,
      ring: this.ring.name,
      slot: this.slot,
    };
    return this.madeRef;
  }
}

/**
 * A ring's slot descriptors, the n-th of a packet re-pointed packet after packet, with no argument
 * checked: the device fetches a packet's chain from a page it checked holds the whole ring (each
 * slot then lies in it), one descriptor after another. Ring.slotDescriptor, the public door, checks
 * its arguments and comes here; the fetch comes straight here (its checks per descriptor were
 * ≈ 1 % of the main job's per-packet work, for what the loop already guarantees).
 */
export class SlotReader {
  private readonly pool: SlotDescriptor[] = [];
  /** The page last read from, and it as words. */
  private page: Uint8Array | undefined;
  private words: Uint32Array | undefined;

  constructor(private readonly ring: RingName) {}

  /** The `n`-th descriptor of the packet: the one in `slot` of a ring starting at byte `at` of `page`. */
  read(n: number, slot: number, page: Uint8Array, at: number): Descriptor {
    if (page !== this.page) {
      this.page = page;
      this.words = pageWords(page);
    }
    while (this.pool.length <= n) this.pool.push(new SlotDescriptor(this.ring));
    return (this.pool[n] as SlotDescriptor).point(slot, page, at + slot * DESCRIPTOR_BYTES, this.words);
  }
}
