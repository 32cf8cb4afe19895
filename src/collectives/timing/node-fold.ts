/**
 * The node symmetry the scheduler uses to time one node for all (timing-only at thousands of ranks).
 * Shifting every rank by one node's ranks P maps the topology onto itself (every node has the same
 * chips, links and NICs, and the ring's node-to-node hops, the wrap included, stay node-to-node), and
 * it maps the plan onto itself when every rank's chunk has the same shape: a rank's legs are then
 * its predecessor-by-a-node's legs with ranks + P and elements + P chunks. So the legs of the other
 * nodes start and end exactly when the first node's do: the scheduler places only the first node's
 * legs, reads another node's range at its image in the first node, and counts a resource of another
 * node as its image's. The times are the full schedule's, bit for bit (the same float operations on
 * the same values, sums in the same order: schedule.ts) — test/collectives/node-fold.test.ts compares
 * them over a grid.
 *
 * Where it is exact (else the scheduler places every rank): two or more nodes; no SB2SB rewrite (one
 * node only); an all-reduce count of whole 32-byte granules, as many for every node (a multiple of
 * nodes × granules: the chunks inside a node may differ, every node's are the same); reduce-scatter,
 * all-gather and send-recv always (their chunks are count / ranks by definition); the exchanges
 * whose blocks are uniform (alltoall, and alltoallv / allgv without metadata: exchange.ts's
 * `symmetric`) — not permute's pairs or metadata, which need not be.
 *
 * RDH's partners are r XOR 2^b, which a shift does not map onto themselves: its symmetry is the XOR
 * r → r XOR k·P instead (rdh-image.ts), exact when its blocks are all alike (rdh.ts rdhEqualBlock).
 * P is then a power of two, so r XOR k·P of a first-node rank is r + k·P, and a rank of node k has
 * its image at r − k·P under either symmetry: only the elements' images and the way back from node k
 * (a shift back k nodes; the XOR, its own inverse) differ.
 */
import { dtypeBytes } from "../../spec/dtype.js";
import { exchangeGeometry, isExchange } from "../plan/exchange.js";
import { GRANULE_BYTES } from "../plan/partition.js";
import { type BufferName, type BufRef, bufferIndex } from "../plan/plan.js";
import { bufferSizes, type PlanRequest } from "../plan/plan-request.js";
import { rdhEqualBlock } from "../plan/rdh.js";
import { sb2sbAllowed } from "../plan/sb2sb-legs.js";
import { RdhImage } from "./rdh-image.js";

/** A range's image in the first node: the rank there, the element, and the node it is on. */
export interface Folded {
  rank: number;
  elem: number;
  /** The node the range is on (0: the first, where the image is the range itself). */
  nodes: number;
}

/** Where an element of a range on another node has its image in the first node. */
export interface ElemImage {
  /** The image of `ref`'s element; `ref` is on node `node` ≥ 1 and read or written in step `step`. */
  elem(ref: BufRef, node: number, step: number): number;
}

/** The shift's images: per buffer, elements move with the ranks by a node's chunks (or not at all). */
class ShiftImage implements ElemImage {
  /** Per buffer (bufferIndex): its size, and how far its elements move when ranks move one node. */
  constructor(
    private readonly size: readonly number[],
    private readonly shift: readonly number[],
  ) {}

  elem(ref: BufRef, node: number): number {
    const b = bufferIndex(ref.buffer);
    const shift = node * this.shift[b]!;
    const size = this.size[b]!;
    const d = ref.elem - shift;
    // No negative dividend (a −0 result would make every later `%` a float modulo: group-ring.ts).
    return shift === 0 ? ref.elem : d >= 0 ? d % size : (size - (-d % size)) % size;
  }

  /** A request's shift images: `nodes` the topology's (folded), or 1 (nothing moves). */
  static of(req: PlanRequest, nodes: number): ShiftImage {
    const t = req.topology;
    const sizes = bufferSizes(req);
    const buffers: BufferName[] = ["input", "output", "scratch"];
    // A buffer in the full-size coordinate moves by P chunks of count / ranks; a chunk-sized one
    // (the reduce-scatter output, the all-gather input) and send-recv's whole buffers do not move.
    const chunk = req.collective === "sendrecv" ? 0 : (req.count / t.ranks) * (t.ranks / nodes);
    return new ShiftImage(
      buffers.map((b) => sizes[b]),
      buffers.map((b) => (sizes[b] === req.count ? chunk : 0)),
    );
  }
}

export class NodeFold {
  /** Ranks of one node (P): the ranks the scheduler places. */
  readonly perNode: number;
  readonly nodes: number;
  readonly ranks: number;

  private constructor(
    ranks: number,
    nodes: number,
    private readonly image: ElemImage,
    /** The symmetry is the XOR (its own inverse), not the shift. */
    private readonly xor: boolean,
  ) {
    this.perNode = ranks / nodes;
    this.nodes = nodes;
    this.ranks = ranks;
  }

  /** The fold of a request onto its first node where that is exact (see the module doc), else none. */
  static of(req: PlanRequest): NodeFold {
    const t = req.topology;
    if (t.nodes < 2 || sb2sbAllowed(req)) return NodeFold.none(req);
    if (req.algorithm === "rdh") {
      // A rank count RDH refuses folds to nothing: planning it throws the UsageError.
      const pow2 = (t.ranks & (t.ranks - 1)) === 0;
      const block = pow2 && !isExchange(req.collective) ? rdhEqualBlock(req) : undefined;
      return block === undefined
        ? NodeFold.none(req)
        : new NodeFold(t.ranks, t.nodes, new RdhImage(req, block), true);
    }
    const granule = Math.max(1, Math.floor(GRANULE_BYTES / dtypeBytes(req.dtype)));
    // Chunk k of an all-reduce ends at ⌊k · G / ranks⌋ granules (G = count / granule; the last at
    // count, partition.ts): moving k by a node's P ranks moves it by exactly G / nodes granules
    // when G is a multiple of the nodes, whatever the ranks — small counts (fewer granules than
    // ranks: chunks of 0 and 1 granule in a pattern that repeats every node) fold too.
    const granules = req.count / granule;
    const unequal = req.collective === "allr" && (!Number.isInteger(granules) || granules % t.nodes !== 0);
    const asymmetric =
      isExchange(req.collective) && !exchangeGeometry({ ...req, collective: req.collective }).symmetric;
    if (unequal || asymmetric) return NodeFold.none(req);
    return new NodeFold(t.ranks, t.nodes, ShiftImage.of(req, t.nodes), false);
  }

  /** No fold: every rank placed (what a recorded schedule needs, a leg per plan leg). */
  static none(req: PlanRequest): NodeFold {
    return new NodeFold(req.topology.ranks, 1, ShiftImage.of(req, 1), false);
  }

  /** No fold over `ranks` ranks of any collectives (concurrent ones: concurrent-schedule.ts). */
  static identity(ranks: number): NodeFold {
    return new NodeFold(ranks, 1, new ShiftImage([0, 0, 0], [0, 0, 0]), false);
  }

  /** Write into `out` the image of `ref` (read or written in step `step`) in the first node. */
  fold(ref: BufRef, step: number, out: Folded): Folded {
    const k = Math.floor(ref.rank / this.perNode);
    out.rank = ref.rank - k * this.perNode;
    out.elem = k === 0 ? ref.elem : this.image.elem(ref, k, step);
    out.nodes = k;
    return out;
  }

  /** A first-node `rank` taken to node `node` (the symmetry that maps the first node there). */
  unfold(rank: number, node: number): number {
    return (rank + node * this.perNode) % this.ranks;
  }

  /** A first-node `rank` taken by the symmetry that maps node `node` onto the first node. */
  back(rank: number, node: number): number {
    return this.unfold(rank, this.xor ? node : (this.nodes - node) % this.nodes);
  }
}
