/**
 * A CCE packet compiled once per transfer shape — everything but the addresses — and posted many
 * times: the descriptor bytes encoded once through the layouts (FIRST / LAST / DMB included), where
 * each address goes, and what each ring phase adds to W0. Posting patches the addresses into a copy
 * of the words and writes them into ring memory: no layout encode, no field objects, no request
 * spread per packet. A leg's packets share one template (they differ only in addresses), so
 * add_dma_packet_cce (cce-packet.ts) keeps one per request shape on each vring.
 */
import { wordAt } from "../../bits/index.js";
import { REPLICATION_DESC, UDMA_RX, UDMA_TX } from "../../spec/layouts/index.js";
import { DESCRIPTOR_BYTES } from "../../spec/packet-model.js";
import type { DescriptorKind, PacketSlot } from "../../spec/ring-packet.js";
import type { CceInfo } from "../descriptors/cce-info.js";
import {
  type DescriptorSpec,
  encodeDescriptor,
  phaseBits,
  type RingSide,
} from "../descriptors/descriptor.js";
import type { DescriptorRing, EncodedChain, Vring, WrittenDescriptor } from "../rings/vring.js";
import type { CcePacket, CceRequest } from "./cce-packet.js";

/** The address field of each grammar slot kind that carries one; `dests` slots index the destinations. */
const ADDRESS_FIELD: Partial<
  Record<DescriptorKind, { readonly field: string; readonly of: "sources" | "dests" }>
> = {
  source: { field: "buf_ptr", of: "sources" },
  replication: { field: "dest", of: "dests" },
  rx: { field: "buf1_ptr", of: "dests" },
};
/** The layout each address slot's field belongs to (checked when a template is compiled). */
const ADDRESS_LAYOUT = { source: UDMA_TX, replication: REPLICATION_DESC, rx: UDMA_RX } as const;

const U64_MAX = 2n ** 64n - 1n;
const NO_ADDRESS = -1;

/**
 * words[at], words[at + 1] ← the low and high 32 bits of `n`, an exact integer below 2^53: by a floor
 * and a multiply (no floating modulo: it runs per address).
 */
function putAddress(words: Uint32Array, at: number, n: number): void {
  const hi = Math.floor(n / 2 ** 32);
  words[at] = n - hi * 2 ** 32;
  words[at + 1] = hi;
}

/** One ring's side of a template: the words and phase bits to post, and where the addresses go. */
export class TemplateChain implements EncodedChain {
  readonly count: number;
  /** The words to write: the template's, with the current packet's addresses patched in. */
  readonly words: Uint32Array;
  readonly phaseBits: Uint32Array;
  /** Per descriptor: the word index of its 64-bit address (low word first), or NO_ADDRESS. */
  private readonly addrWord: Int32Array;
  /** Per descriptor: 0 the address is sources[addrIndex], 1 dests[addrIndex]. */
  private readonly addrOf: Uint8Array;
  private readonly addrIndex: Int32Array;

  constructor(
    readonly side: RingSide,
    readonly specs: readonly DescriptorSpec[],
    readonly slots: readonly PacketSlot[],
  ) {
    const n = specs.length;
    this.count = n;
    this.words = new Uint32Array(4 * n);
    this.phaseBits = new Uint32Array(4 * n);
    this.addrWord = new Int32Array(n).fill(NO_ADDRESS);
    this.addrOf = new Uint8Array(n);
    this.addrIndex = new Int32Array(n);
    const bytes = new Uint8Array(DESCRIPTOR_BYTES);
    for (let k = 0; k < n; k++) {
      const spec = specs[k] as DescriptorSpec;
      const slot = slots[k] as PacketSlot;
      encodeDescriptor(spec, 0, bytes);
      for (let w = 0; w < 4; w++) this.words[4 * k + w] = wordAt(bytes, 4 * w);
      for (let p = 0; p < 4; p++) this.phaseBits[4 * k + p] = phaseBits(spec.layout, p);
      const a = ADDRESS_FIELD[slot.kind];
      if (a === undefined) continue;
      const leaf = spec.layout.leaf(a.field);
      if (spec.layout !== ADDRESS_LAYOUT[slot.kind as keyof typeof ADDRESS_LAYOUT] || leaf.bit % 32 !== 0)
        throw new Error(
          `cce-template: ${slot.kind} slot's ${a.field} is not a word-aligned field of its layout`,
        );
      this.addrWord[k] = 4 * k + leaf.bit / 32;
      this.addrOf[k] = a.of === "sources" ? 0 : 1;
      this.addrIndex[k] = slot.index;
    }
  }

  /** Patch the packet's addresses into `words`; false (nothing to trust) when one is not a u64 bigint. */
  patch(sources: readonly bigint[], dests: readonly bigint[]): boolean {
    for (let k = 0; k < this.count; k++) {
      const at = this.addrWord[k] as number;
      if (at === NO_ADDRESS) continue;
      const a = (this.addrOf[k] === 0 ? sources : dests)[this.addrIndex[k] as number];
      if (typeof a !== "bigint" || a < 0n || a > U64_MAX) return false;
      // Split through the exact Number below 2^53 (no bigint made); the bigint ops past it.
      const n = Number(a);
      if (n <= Number.MAX_SAFE_INTEGER) putAddress(this.words, at, n);
      else {
        this.words[at] = Number(BigInt.asUintN(32, a));
        this.words[at + 1] = Number(a >> 32n);
      }
    }
    return true;
  }

  /**
   * {@link patch} from addresses as Numbers (exact integers below 2^53: no bigint made); false
   * (nothing to trust) when one is not.
   */
  patchAt(sources: Float64Array, dests: Float64Array): boolean {
    for (let k = 0; k < this.count; k++) {
      const at = this.addrWord[k] as number;
      if (at === NO_ADDRESS) continue;
      const n = (this.addrOf[k] === 0 ? sources : dests)[this.addrIndex[k] as number];
      if (n === undefined || !Number.isSafeInteger(n) || n < 0) return false;
      putAddress(this.words, at, n);
    }
    return true;
  }

  /** The address field of descriptor `k` and its value in this packet, or undefined. */
  address(k: number, sources: readonly bigint[], dests: readonly bigint[]): [string, bigint] | undefined {
    const a = ADDRESS_FIELD[(this.slots[k] as PacketSlot).kind];
    if (a === undefined) return undefined;
    return [a.field, (this.addrOf[k] === 0 ? sources : dests)[this.addrIndex[k] as number] as bigint];
  }
}

/**
 * A packet shape compiled for a vring and re-pointed packet after packet (a CCE packet's, a copy's):
 * what a host that posts many packets of one shape keeps.
 */
export interface PacketTemplate {
  /**
   * Post with these addresses as Numbers (a copy: its source and destination), the bytes the
   * builder would write: false, nothing written, when the counts differ or an address is not an
   * exact integer below 2^53 (the caller then posts the request).
   * @throws RingFullError (nothing written).
   */
  postAt(vring: Vring, sources: Float64Array, dests: Float64Array): boolean;
}

/** A descriptor posted from a template; its spec and bytes are made only when asked for. */
class PostedDescriptor implements WrittenDescriptor {
  constructor(
    readonly ring: RingSide,
    readonly slot: number,
    readonly phase: number,
    private readonly base: bigint,
    private readonly template: DescriptorSpec,
    private readonly address: [string, bigint] | undefined,
  ) {}

  get addr(): bigint {
    return this.base + BigInt(this.slot * DESCRIPTOR_BYTES);
  }

  get spec(): DescriptorSpec {
    if (this.address === undefined) return this.template;
    const [field, value] = this.address;
    return { ...this.template, fields: { ...this.template.fields, [field]: value } };
  }

  get bytes(): Uint8Array {
    return encodeDescriptor(this.spec, this.phase);
  }
}

/**
 * One CCE request shape compiled for one vring (its stochastic-rounding settings are in the bytes),
 * from the packet buildCcePacket made of it: every check add_dma_packet_cce makes is made once.
 */
export class CcePacketTemplate implements PacketTemplate {
  private readonly tx: TemplateChain;
  private readonly rx: TemplateChain;

  constructor(
    /** The request compiled (its addresses are those of the first packet). */
    readonly request: CceRequest,
    packet: CcePacket,
  ) {
    this.tx = new TemplateChain("tx", packet.tx, packet.slots.tx);
    this.rx = new TemplateChain("rx", packet.rx, packet.slots.rx);
  }

  /**
   * Post the template with these addresses: the bytes add_dma_packet_cce would write.
   * @throws RingFullError (nothing written).
   * @returns undefined, having written nothing, when the counts differ from the request's or an
   * address is not a u64 bigint: the full builder then names what is wrong.
   */
  post(vring: Vring, sources: readonly bigint[], dests: readonly bigint[]): WrittenDescriptor[] | undefined {
    const txSlot = vring.tx.tail;
    const txPhase = vring.tx.phase;
    const rxSlot = vring.rx.tail;
    const rxPhase = vring.rx.phase;
    if (!this.postQuiet(vring, sources, dests)) return undefined;
    const out: WrittenDescriptor[] = [];
    this.written(out, vring.tx, this.tx, txSlot, txPhase, sources, dests);
    this.written(out, vring.rx, this.rx, rxSlot, rxPhase, sources, dests);
    return out;
  }

  /**
   * {@link post} without the descriptors written (no object a descriptor): true when posted, false
   * (nothing written) when the counts or an address do not fit the template.
   * @throws RingFullError (nothing written).
   */
  postQuiet(vring: Vring, sources: readonly bigint[], dests: readonly bigint[]): boolean {
    if (
      sources.length !== this.request.sources.length ||
      dests.length !== this.request.dests.length ||
      !this.tx.patch(sources, dests) ||
      !this.rx.patch(sources, dests)
    )
      return false;
    vring.postEncoded(this.tx, this.rx);
    return true;
  }

  postAt(vring: Vring, sources: Float64Array, dests: Float64Array): boolean {
    if (
      sources.length !== this.request.sources.length ||
      dests.length !== this.request.dests.length ||
      !this.tx.patchAt(sources, dests) ||
      !this.rx.patchAt(sources, dests)
    )
      return false;
    vring.postEncoded(this.tx, this.rx);
    return true;
  }

  private written(
    out: WrittenDescriptor[],
    ring: DescriptorRing,
    c: TemplateChain,
    first: number,
    firstPhase: number,
    sources: readonly bigint[],
    dests: readonly bigint[],
  ): void {
    let slot = first;
    let phase = firstPhase;
    for (let k = 0; k < c.count; k++) {
      const spec = c.specs[k] as DescriptorSpec;
      out.push(new PostedDescriptor(c.side, slot, phase, ring.base, spec, c.address(k, sources, dests)));
      if (++slot === ring.slots) {
        slot = 0;
        phase = (phase + 1) % 4;
      }
    }
  }
}

/**
 * Templates one cache keeps at most (a new shape past this starts the cache over); a cache serves
 * every vring alike in profile and SR settings (cce-packet.ts).
 */
const TEMPLATES_PER_CACHE = 64;

/**
 * Packet templates by request shape: a numeric hash of every field but the addresses, then a
 * field-by-field comparison (no key string is built per packet).
 */
export class TemplateCache {
  private readonly byHash = new Map<number, CcePacketTemplate>();

  /** The template compiled from a request of the same shape as `r`, or undefined. */
  get(r: CceRequest): CcePacketTemplate | undefined {
    const t = this.byHash.get(shapeHash(r));
    return t !== undefined && sameShape(t.request, r) ? t : undefined;
  }

  set(t: CcePacketTemplate): void {
    if (this.byHash.size >= TEMPLATES_PER_CACHE) this.byHash.clear();
    this.byHash.set(shapeHash(t.request), t);
  }
}

const mix = (h: number, v: number): number => Math.imul(h ^ v, 0x9e3779b1) >>> 0;

function shapeHash(r: CceRequest): number {
  let h = mix(r.op, r.inDtype);
  h = mix(h, r.accumDtype ?? -1);
  h = mix(h, r.outDtype ?? -1);
  h = mix(h, r.size);
  h = mix(h, r.sources.length);
  h = mix(h, r.dests.length);
  h = mix(h, (r.dmb === undefined ? 0 : r.dmb ? 1 : 2) + (r.wrbar === undefined ? 0 : r.wrbar ? 4 : 8));
  return mix(h, r.cceInfo === null ? -1 : r.cceInfo.num_sources);
}

/** Two requests build the same packet but for the addresses. */
function sameShape(a: CceRequest, b: CceRequest): boolean {
  return (
    a.op === b.op &&
    a.inDtype === b.inDtype &&
    a.accumDtype === b.accumDtype &&
    a.outDtype === b.outDtype &&
    a.size === b.size &&
    a.sources.length === b.sources.length &&
    a.dests.length === b.dests.length &&
    a.dmb === b.dmb &&
    a.wrbar === b.wrbar &&
    sameCceInfo(a.cceInfo, b.cceInfo)
  );
}

function sameCceInfo(a: CceInfo | null, b: CceInfo | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const fa = a as Record<string, unknown>;
  const fb = b as Record<string, unknown>;
  let fields = 0;
  // Object.is: a scale or constant of −0 or NaN is bits in a descriptor, not a number to compare.
  for (const k in fa) {
    if (!Object.is(fa[k], fb[k])) return false;
    fields++;
  }
  for (const _ in fb) fields--;
  return fields === 0;
}
