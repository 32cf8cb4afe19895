/**
 * The shared resources a leg's bytes go through, as integer ids — what the scheduler divides
 * bandwidth by (cost-model.ts) — and the ones a leg touches.
 */

import { coreDie, hbmStackOf } from "../../spec/address-map.js";
import type { ArchWiring } from "../topology/links.js";
import { CHIP_PORTS, chipRoute } from "../topology/route.js";
import type { Topology } from "../topology/topology.js";

/** The kinds of shared resource, in the order of their ids. */
const KINDS = ["hbm", "c2c", "nicOut", "nicIn", "dma", "dieLink"] as const;
type KindName = (typeof KINDS)[number];

/** A kind's ids: [first, end), `perNode` of them a node (node 0's first), each of `bytesPerNs`. */
interface ResourceKind {
  readonly first: number;
  readonly end: number;
  readonly perNode: number;
  readonly bytesPerNs: number;
}

/**
 * Integer ids of the shared resources: each HBM stack of each chip, each direction of each chip-to-chip link
 * inside a node (route.ts), each node's EFA NICs (out and in), each chip's DMA (its [C] bandwidth,
 * shared by all its cores' queues: timing-params.ts `chipDmaBytesPerNs`), and on a chip of 2 dies each
 * direction of its die boundary (named by the die the bytes leave: timing-params.ts `dieLinkBytesPerNs`).
 */
export class Resources {
  readonly count: number;
  private readonly chip: Int32Array;
  /** Per rank: its HBM stack's id (its chip's first stack + the stack by its first core). */
  private readonly stack: Int32Array;
  private readonly chipInNode: Int32Array;
  private readonly node: Int32Array;
  /** Per rank: its node's first NIC id, and where its chip's own NIC is in {@link nicList}. */
  private readonly nicBase: Int32Array;
  private readonly nicOwn: Int32Array;
  /** The NICs (index in a node) next to the chips the collective occupies in a node, in order. */
  private readonly nicList: Int32Array;
  /** Each kind's ids and bandwidth, by name and in id order ({@link kindOf}). */
  private readonly kind: Readonly<Record<KindName, ResourceKind>>;
  private readonly kinds: readonly ResourceKind[];
  /** Per rank: the die of its cores, engines and HBM stack (spec/address-map.ts coreDie). */
  private readonly die: Int32Array;
  /** Die-boundary ids per chip: one per direction, so 2 with 2 dies, none with one. */
  private readonly dieLinks: number;
  private readonly cpn: number;
  /**
   * Per (sending chip, receiving chip) of a node, cpn · from + to: its route's link ids (relative
   * to the node's first link) at routeLinks[routeAt[pair] .. routeAt[pair + 1]), in route order —
   * routed once per pair, not per leg.
   */
  private readonly routeAt: Int32Array;
  private readonly routeLinks: Int32Array;

  constructor(t: Topology) {
    const cpn = t.links.chipsPerNode;
    const nics = t.links.nicsPerNode;
    this.cpn = cpn;
    this.chip = Int32Array.from(t.places, (p) => p.node * cpn + p.chip);
    const stacks = t.profile.addressMap.hbmStacks.length;
    this.stack = Int32Array.from(
      t.places,
      (p) => (p.node * cpn + p.chip) * stacks + hbmStackOf(t.profile, p.core * t.lnc),
    );
    this.chipInNode = Int32Array.from(t.places, (p) => p.chip);
    this.node = Int32Array.from(t.places, (p) => p.node);
    this.nicBase = Int32Array.from(t.places, (p) => p.node * nics);
    [this.nicList, this.nicOwn] = nicsUsed(t);
    [this.routeAt, this.routeLinks] = routeTable(t.links);
    const dies = t.profile.addressMap.dies;
    if (dies > 2) throw new RangeError(`${dies} dies a chip: the die boundary is modelled for 1 or 2`);
    this.dieLinks = dies === 2 ? 2 : 0;
    this.die = Int32Array.from(t.places, (p) => coreDie(t.profile, p.core * t.lnc));
    this.kind = kindTable(t, this.dieLinks);
    this.kinds = KINDS.map((k) => this.kind[k]);
    this.count = this.kind.dieLink.end;
  }

  /**
   * The HBM stack a rank's buffers sit in: its first physical core's (spec/address-map.ts
   * hbmStackOf; an LNC 2 pair shares one stack on Trn2 / Trn3).
   */
  hbm(rank: number): number {
    return this.stack[rank]!;
  }

  /** The DMA of a rank's chip. */
  dma(rank: number): number {
    return this.kind.dma.first + this.chip[rank]!;
  }

  /** Add every chip-to-chip link a transfer from → to crosses inside a node (none across nodes). */
  c2c(from: number, to: number, touches: Touches): void {
    const node = this.node[from]!;
    if (node !== this.node[to]! || this.chip[from]! === this.chip[to]!) return;
    const c2c = this.kind.c2c;
    const base = c2c.first + node * c2c.perNode;
    const pair = this.chipInNode[from]! * this.cpn + this.chipInNode[to]!;
    const end = this.routeAt[pair + 1]!;
    for (let k = this.routeAt[pair]!; k < end; k++) touches.add(base + this.routeLinks[k]!, 1);
  }

  /**
   * Add the die boundary a transfer from → to crosses between two ranks of one chip: a rank's engines
   * and buffers sit on its cores' die, so a leg's bytes cross where its source's or destination's die
   * is not its own. MODEL: a transfer between chips enters and leaves each chip at the die it needs
   * (which die a chip-to-chip port sits on is not public), so it crosses none.
   */
  dieBoundary(from: number, to: number, touches: Touches): void {
    const chip = this.chip[from]!;
    const die = this.die[from]!;
    if (this.dieLinks === 0 || chip !== this.chip[to]! || die === this.die[to]!) return;
    touches.add(this.kind.dieLink.first + chip * this.dieLinks + die, 1);
  }

  /**
   * The sending NIC of a transfer from → to across nodes on a rank's DMA channel, or −1. MODEL: a
   * chip sends on the NIC next to it (links.ts: chip c on NIC ⌊c · nics / chips⌋); the runtime's
   * rings cross nodes at many chips of the collective, each on its own NIC, where our plans cross at
   * one rank — so a rank's channels are spread over the NICs next to the chips the collective
   * occupies in its node, starting at its own: one rank a node gets one NIC's worth, a full node all.
   */
  nicOut(from: number, to: number, channel: number): number {
    if (this.node[from]! === this.node[to]!) return -1;
    return this.kind.nicOut.first + this.nicBase[from]! + this.nicOf(from, channel);
  }

  /** The receiving NIC of a transfer from → to across nodes on a channel (as {@link nicOut}), or −1. */
  nicIn(from: number, to: number, channel: number): number {
    if (this.node[from]! === this.node[to]!) return -1;
    return this.kind.nicIn.first + this.nicBase[to]! + this.nicOf(to, channel);
  }

  /** The NIC (index in its node) a rank's channel uses. */
  private nicOf(rank: number, channel: number): number {
    const list = this.nicList;
    return list[(this.nicOwn[rank]! + channel) % list.length]!;
  }

  /** The bandwidth of a resource, bytes a ns. */
  bandwidth(id: number): number {
    return this.kindOf(id).bytesPerNs;
  }

  /** The kind of a resource. */
  private kindOf(id: number): ResourceKind {
    const kinds = this.kinds;
    const last = kinds.length - 1;
    for (let k = 0; k < last; k++) if (id < kinds[k]!.end) return kinds[k]!;
    return kinds[last]!;
  }

  /** The same resource of the first node (node-fold.ts): the id whose sharers it has. */
  image(id: number): number {
    const { first, perNode } = this.kindOf(id);
    return first + ((id - first) % perNode);
  }
}

/**
 * Each kind's ids, node after node within a kind (HBM stacks, chip-to-chip link directions, NICs
 * out, NICs in, chips' DMAs, die-boundary directions: `dieLinks` a chip), and its bandwidth.
 */
function kindTable(t: Topology, dieLinks: number): Record<KindName, ResourceKind> {
  const cpn = t.links.chipsPerNode;
  const nics = t.links.nicsPerNode;
  const stacks = t.profile.addressMap.hbmStacks.length;
  const l = t.links.links;
  const perNode: Record<KindName, number> = {
    hbm: cpn * stacks,
    c2c: cpn * CHIP_PORTS,
    nicOut: nics,
    nicIn: nics,
    dma: cpn,
    dieLink: cpn * dieLinks,
  };
  const bytesPerNs: Record<KindName, number> = {
    // A stack gets its share of the chip's HBM bandwidth ([C] the chip's figure; MODEL: even split).
    hbm: l["intra-chip"].bytesPerNs / stacks,
    c2c: l["chip-to-chip"].bytesPerNs,
    nicOut: l["node-to-node"].bytesPerNs,
    nicIn: l["node-to-node"].bytesPerNs,
    dma: t.timing.chipDmaBytesPerNs,
    dieLink: t.timing.dieLinkBytesPerNs,
  };
  const table = {} as Record<KindName, ResourceKind>;
  let first = 0;
  for (const k of KINDS) {
    const end = first + t.nodes * perNode[k];
    table[k] = { first, end, perNode: perNode[k], bytesPerNs: bytesPerNs[k] };
    first = end;
  }
  return table;
}

/**
 * The NICs next to the chips a collective occupies in a node (every node is laid out alike:
 * topology.ts), in order, and per rank where its own chip's NIC is in that list.
 */
function nicsUsed(t: Topology): [Int32Array, Int32Array] {
  const { chipsPerNode, nicsPerNode } = t.links;
  const own = (chip: number) => Math.floor((chip * nicsPerNode) / chipsPerNode);
  const list = [...new Set(t.places.filter((p) => p.node === 0).map((p) => own(p.chip)))].sort(
    (a, b) => a - b,
  );
  return [Int32Array.from(list), Int32Array.from(t.places, (p) => list.indexOf(own(p.chip)))];
}

/**
 * Each wiring's route table ({@link routeTable}) by its network and chips, made once a process: a
 * run builds Resources once per candidate algorithm, and the table read-only is the same each time.
 */
const ROUTE_TABLES = new Map<string, readonly [Int32Array, Int32Array]>();

/** Every chip pair's route (chipRoute), flattened: [per pair's first index (and the end), link ids]. */
function routeTable(links: ArchWiring): readonly [Int32Array, Int32Array] {
  const key = `${links.chipNetwork}:${links.chipsPerNode}`;
  let table = ROUTE_TABLES.get(key);
  if (table === undefined) {
    table = routesOf(links);
    ROUTE_TABLES.set(key, table);
  }
  return table;
}

/** {@link routeTable}, made. */
function routesOf(links: ArchWiring): [Int32Array, Int32Array] {
  const cpn = links.chipsPerNode;
  const at = new Int32Array(cpn * cpn + 1);
  const ids: number[] = [];
  for (let a = 0; a < cpn; a++) {
    for (let b = 0; b < cpn; b++) {
      at[a * cpn + b] = ids.length;
      if (a !== b) chipRoute(links, a, b, (id) => ids.push(id));
    }
  }
  at[cpn * cpn] = ids.length;
  return [at, Int32Array.from(ids)];
}

/** What of a leg decides the resources it touches. */
export interface TouchingLeg {
  readonly rank: number;
  readonly queue: number;
  readonly srcs: readonly { readonly ref: { readonly rank: number } }[];
  readonly dsts: readonly { readonly rank: number }[];
}

/** The resources one leg touches, with its bytes there in units of the leg's bytes. */
export class Touches {
  /** At most 7 per source and destination (HBM, 4 links or the die boundary, 2 NICs) and one more; ≤ 32 sources. */
  readonly ids = new Int32Array(512);
  readonly times = new Int32Array(512);
  size = 0;
  /** Per resource id: its index in `ids`, or −1 (a mesh leg of 32 sources touches hundreds). */
  private slot = new Int32Array(0);
  /**
   * What the touches were last computed for: the resources, the leg's rank, its sources' and
   * destinations' ranks, and its queue if a NIC was touched (the only part a queue picks). Legs
   * come in runs alike in all of that (a piece's slices), so most legs reuse the last answer.
   */
  private res: Resources | undefined;
  private rank = -1;
  private readonly ranks = new Int32Array(512);
  private srcCount = -1;
  private dstCount = -1;
  private queue = -1;
  private nics = false;

  of(res: Resources, leg: TouchingLeg): this {
    if (this.alike(res, leg)) return this;
    this.remember(res, leg);
    for (let k = 0; k < this.size; k++) this.slot[this.ids[k]!] = -1;
    if (this.slot.length !== res.count) this.slot = new Int32Array(res.count).fill(-1);
    this.size = 0;
    for (let k = 0; k < leg.srcs.length; k++) {
      const from = (leg.srcs[k] as TouchingLeg["srcs"][number]).ref.rank;
      this.add(res.hbm(from), 1);
      this.links(res, from, leg.rank, leg.queue);
    }
    for (let k = 0; k < leg.dsts.length; k++) {
      const d = leg.dsts[k] as TouchingLeg["dsts"][number];
      this.add(res.hbm(d.rank), 1);
      this.links(res, leg.rank, d.rank, leg.queue);
    }
    // The engine moves max(read, written): so does the rank's DMA.
    this.add(res.dma(leg.rank), Math.max(leg.srcs.length, leg.dsts.length));
    return this;
  }

  /** True when the leg crosses nodes (it touched a NIC). */
  get crossesNodes(): boolean {
    return this.nics;
  }

  /** True when `leg` touches what the last leg did (see {@link res}). */
  private alike(res: Resources, leg: TouchingLeg): boolean {
    const { srcs, dsts } = leg;
    if (res !== this.res || leg.rank !== this.rank || (this.nics && leg.queue !== this.queue)) return false;
    if (srcs.length !== this.srcCount || dsts.length !== this.dstCount) return false;
    const ranks = this.ranks;
    for (let k = 0; k < srcs.length; k++) if (srcs[k]!.ref.rank !== ranks[k]) return false;
    for (let k = 0; k < dsts.length; k++) if (dsts[k]!.rank !== ranks[srcs.length + k]) return false;
    return true;
  }

  private remember(res: Resources, leg: TouchingLeg): void {
    this.res = res;
    this.rank = leg.rank;
    this.queue = leg.queue;
    this.nics = false;
    this.srcCount = leg.srcs.length;
    this.dstCount = leg.dsts.length;
    leg.srcs.forEach((s, k) => {
      this.ranks[k] = s.ref.rank;
    });
    leg.dsts.forEach((d, k) => {
      this.ranks[leg.srcs.length + k] = d.rank;
    });
  }

  /** The links data crosses from one rank's memory to another's, beyond the HBM. */
  private links(res: Resources, from: number, to: number, channel: number): void {
    res.c2c(from, to, this);
    res.dieBoundary(from, to, this);
    const out = res.nicOut(from, to, channel);
    if (out < 0) return;
    this.nics = true;
    this.add(out, 1);
    this.add(res.nicIn(from, to, channel), 1);
  }

  /** Count `times` more of the leg's bytes through resource `id` (none when −1). */
  add(id: number, times: number): void {
    if (id < 0) return;
    const k = this.slot[id]!;
    if (k >= 0) {
      this.times[k]! += times;
      return;
    }
    this.slot[id] = this.size;
    this.ids[this.size] = id;
    this.times[this.size++] = times;
  }
}
