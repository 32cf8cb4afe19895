/**
 * The engine plans each compute-packet *shape* once. A shape is every descriptor word the plan
 * depends on — W0 (lengths, flags, ring phase) and W1 (meta-control) of every descriptor, W2..W3
 * of the compute descriptors that hold no address (seed, constant, FMA selectors and scale) — so
 * two packets of one leg differ only in what the cache leaves out: their addresses. The words are
 * the key: a ring slot rewritten with other words is another key, so no write can leave a stale
 * plan behind (test/engine/plan-cache.test.ts rewrites a cached packet's meta-control and sees it).
 *
 * A hit binds the cached plan to the fetched descriptors in place — each segment's descriptor and
 * its address as a Number for memory's fast path — with no allocation: the bigint address is made
 * only where a slow path asks for it (packet-plan.ts segmentAddr). (An accessor put on the segments
 * for it turned them into dictionary-mode objects: every field read got slower.) The plan returned
 * is valid until the next call (the executor uses it at once); {@link planPacket} stays the
 * allocating reference.
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import { ADDRESS_KINDS, type DescriptorKind, txKindOfWords } from "../../spec/ring-packet.js";
import { type Descriptor, hasMeta, pointerNumber } from "./descriptor.js";
import { type CcePlan, gceHeaderAddr, type PacketPlan, planPacket, type Segment } from "./packet-plan.js";

/** Shapes a cache keeps (a device sees a few per leg; past this it starts over). */
export const PLAN_CACHE_SHAPES = 4096;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Binding = { seg: Mutable<Segment>; ring: 0 | 1; at: number };

/** One cached shape: its key words, the plan, and where each segment's descriptor sits. */
interface Entry {
  readonly key: Uint32Array;
  readonly plan: CcePlan;
  /** Segments (sources, RX, replicas) whose descriptor and address are rebound per packet. */
  readonly bindings: readonly Binding[];
  /** The TX index of the constant / gradient descriptor, or −1. */
  readonly constantAt: number;
  readonly gceAt: number;
}

/** Slots of {@link KindMemo}: 2^KIND_SLOT_BITS. */
const KIND_SLOT_BITS = 6;
const KIND_SLOTS = 1 << KIND_SLOT_BITS;
/** The slots a descriptor may take in {@link KindMemo}, from the one its W0 and W1 hash to. */
const KIND_WAYS = 4;

/**
 * The grammar's kind of a compute descriptor (txKindOfWords), kept in a table: each entry holds the
 * bits of the four words the grammar read to tell the kind (their masks, and the words masked), so
 * it holds for every descriptor with those bits, whatever its others — a leg's replication
 * descriptors (a new destination in W2..W3 each packet, bits the grammar never reads) were
 * recognised afresh every packet, ≈ 49 000 a run of the 8-rank 64 MiB bf16 all-reduce. The kind
 * is a function of the bits read alone, and a queue's SR packets repeat one seed-init descriptor's
 * words packet after packet, whose recognition runs its layout's checks (≈ 1 µs a packet, as much
 * as the reduce of 2048 elements).
 */
class KindMemo {
  /** Each slot's masks, then its words masked (four each). */
  private readonly masks = new Uint32Array(4 * KIND_SLOTS);
  private readonly words = new Uint32Array(4 * KIND_SLOTS);
  /** Each slot's kind; null while the slot is empty (undefined is a kind: no known one). */
  private readonly kinds: (DescriptorKind | undefined | null)[] = new Array(KIND_SLOTS).fill(null);
  /** The descriptor's four words. */
  private readonly probe = new Uint32Array(4);
  /** The bits txKindOfWords read. */
  private readonly read = new Uint32Array(4);
  /** The way a new kind replaces next when all of its slots are taken. */
  private victim = 0;

  kindOf(d: Descriptor): DescriptorKind | undefined {
    const p = this.probe;
    p[0] = d.w0;
    p[1] = d.w1;
    p[2] = d.w2;
    p[3] = d.w3;
    // The hash's top bits: its low bits depend only on the words' low bits, which descriptors
    // share (lengths differ higher up). W0 and W1 only: W2..W3 hold addresses.
    const first = hashOf(p, 2) >>> (32 - KIND_SLOT_BITS);
    let free = -1;
    for (let k = 0; k < KIND_WAYS; k++) {
      const slot = (first + k) % KIND_SLOTS;
      const kind = this.kinds[slot];
      if (kind === null) {
        if (free < 0) free = slot;
        continue;
      }
      if (this.holds(slot)) return kind as DescriptorKind | undefined;
    }
    const read = this.read;
    read.fill(0);
    const found = txKindOfWords(d, read);
    const slot = free >= 0 ? free : (first + (this.victim++ % KIND_WAYS)) % KIND_SLOTS;
    for (let w = 0; w < 4; w++) {
      this.masks[4 * slot + w] = read[w] as number;
      this.words[4 * slot + w] = ((p[w] as number) & (read[w] as number)) >>> 0;
    }
    this.kinds[slot] = found;
    return found;
  }

  /** Whether the probe has the bits the kind in `slot` was told from. */
  private holds(slot: number): boolean {
    const p = this.probe;
    const at = 4 * slot;
    for (let w = 0; w < 4; w++)
      if (((p[w] as number) & (this.masks[at + w] as number)) >>> 0 !== this.words[at + w]) return false;
    return true;
  }
}

/** The words a descriptor contributes to its packet's shape key. */
function keyWords(d: Descriptor, tx: boolean, out: Uint32Array, n: number, kinds: KindMemo): number {
  out[n++] = d.w0;
  out[n++] = d.w1;
  // A data descriptor's W2..W3 (TX buf_ptr, RX buf1_ptr) and the replication / gradient
  // descriptors' (destination, header address) are addresses: left out, rebound per packet. Which
  // compute descriptor is which, the grammar tells (an unknown one keeps its words: it will fault).
  if (tx && hasMeta(d) && !ADDRESS_KINDS.has(kinds.kindOf(d) ?? "fma")) {
    out[n++] = d.w2;
    out[n++] = d.w3;
  }
  return n;
}

export class PlanCache {
  private readonly entries = new Map<number, Entry>();
  /** The key of the packet being planned (a TX and an RX chain of at most 2 × 64 descriptors each). */
  private key = new Uint32Array(64);
  private readonly kinds = new KindMemo();
  /**
   * The entry the last compute packet was planned from: a leg's packets run one after another and
   * share their shape, so a key equal to its key needs neither hash nor look-up.
   */
  private last: Entry | undefined;

  constructor(private readonly profile: ArchProfile) {}

  /** Number of shapes held (for tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The plan of a packet: a compute packet of a shape seen before is bound from its cached plan;
   * anything else is planned afresh. @throws DescriptorFault as {@link planPacket}.
   */
  plan(tx: readonly Descriptor[], rx: readonly Descriptor[]): PacketPlan {
    const rx0 = rx[0];
    // Only compute packets are cached: their RX opens with the S2M meta (has_meta). A plain copy
    // plans cheaply, and whether it is a transpose flush depends on its address.
    if (rx0 === undefined || !hasMeta(rx0)) return planPacket(this.profile, tx, rx);
    const len = this.fillKey(tx, rx);
    const last = this.last;
    if (last !== undefined && sameKey(last.key, this.key, len)) return bind(last, tx, rx);
    const hash = hashOf(this.key, len);
    const hit = this.entries.get(hash);
    if (hit !== undefined && sameKey(hit.key, this.key, len)) {
      this.last = hit;
      return bind(hit, tx, rx);
    }
    const plan = planPacket(this.profile, tx, rx);
    if (plan.kind === "cce") {
      if (this.entries.size >= PLAN_CACHE_SHAPES) this.entries.clear();
      const entry = entryOf(this.key.slice(0, len), plan, tx, rx);
      this.entries.set(hash, entry);
      this.last = entry;
    }
    return plan;
  }

  private fillKey(tx: readonly Descriptor[], rx: readonly Descriptor[]): number {
    const need = 4 * (tx.length + rx.length) + 2;
    if (this.key.length < need) this.key = new Uint32Array(need);
    const key = this.key;
    let n = 0;
    key[n++] = tx.length;
    key[n++] = rx.length;
    const kinds = this.kinds;
    for (const d of tx) n = keyWords(d, true, key, n, kinds);
    for (const d of rx) n = keyWords(d, false, key, n, kinds);
    return n;
  }
}

function hashOf(key: Uint32Array, len: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < len; i++) h = Math.imul(h ^ (key[i] as number), 0x01000193);
  return h >>> 0;
}

function sameKey(a: Uint32Array, b: Uint32Array, len: number): boolean {
  if (a.length !== len) return false;
  for (let i = 0; i < len; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A cache entry from a fresh plan: where each of its segments' descriptors sits in the chains. */
function entryOf(
  key: Uint32Array,
  plan: CcePlan,
  tx: readonly Descriptor[],
  rx: readonly Descriptor[],
): Entry {
  const bindings: Binding[] = [];
  const add = (seg: Segment, ring: 0 | 1) =>
    bindings.push({ seg: seg as Mutable<Segment>, ring, at: (ring === 0 ? tx : rx).indexOf(seg.desc) });
  for (const s of plan.sources) add(s, 0);
  for (const s of plan.rx) add(s, 1);
  for (const s of plan.replicas) add(s, 0);
  return {
    key,
    plan,
    bindings,
    constantAt: plan.constant ? tx.indexOf(plan.constant.desc) : -1,
    gceAt: plan.gce ? tx.indexOf(plan.gce.desc) : -1,
  };
}

/** The cached plan, its descriptors and addresses those of this packet. */
function bind(e: Entry, tx: readonly Descriptor[], rx: readonly Descriptor[]): CcePlan {
  for (const b of e.bindings) {
    const d = (b.ring === 0 ? tx : rx)[b.at] as Descriptor;
    b.seg.desc = d;
    b.seg.at = pointerNumber(d);
  }
  const plan = e.plan as Mutable<CcePlan>;
  if (plan.constant) plan.constant = { ...plan.constant, desc: tx[e.constantAt] as Descriptor };
  if (plan.gce) {
    const d = tx[e.gceAt] as Descriptor;
    plan.gce = { ...plan.gce, desc: d, headerAddr: gceHeaderAddr(d) };
  }
  return plan;
}
