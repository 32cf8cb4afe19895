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
 * all-gather and send-recv always (their chunks are count / ranks by definition); the exchanges whose blocks are uniform (alltoall, and alltoallv / allgv
 * without metadata: exchange.ts's `symmetric`) — not permute's pairs or metadata, which need not be; never for RDH
 * (its partners are r XOR 2^k, not r + a node).
 */
import { dtypeBytes } from "../../spec/dtype.js";
import { exchangeGeometry, isExchange } from "../plan/exchange.js";
import { GRANULE_BYTES } from "../plan/partition.js";
import { type BufferName, type BufRef, bufferIndex } from "../plan/plan.js";
import { bufferSizes, type PlanRequest } from "../plan/plan-request.js";
import { sb2sbAllowed } from "../plan/sb2sb-legs.js";

/** A range's image in the first node: the rank there, the element, and how many nodes it moved. */
export interface Folded {
  rank: number;
  elem: number;
  /** Nodes the image is shifted by (0: the range is on the first node already). */
  nodes: number;
}

export class NodeFold {
  /** Ranks of one node (P): the ranks the scheduler places. */
  readonly perNode: number;
  readonly nodes: number;
  readonly ranks: number;
  /** Per buffer (bufferIndex): its size, and how far its elements move when ranks move one node. */
  private readonly size: readonly number[];
  private readonly shift: readonly number[];

  private constructor(ranks: number, nodes: number, size: readonly number[], shift: readonly number[]) {
    this.perNode = ranks / nodes;
    this.nodes = nodes;
    this.ranks = ranks;
    this.size = size;
    this.shift = shift;
  }

  /** `nodes`: the topology's (folded), or 1 (every rank placed: the identity). */
  private static make(req: PlanRequest, nodes: number): NodeFold {
    const t = req.topology;
    const sizes = bufferSizes(req);
    const buffers: BufferName[] = ["input", "output", "scratch"];
    // A buffer in the full-size coordinate moves by P chunks of count / ranks; a chunk-sized one
    // (the reduce-scatter output, the all-gather input) and send-recv's whole buffers do not move.
    const chunk = req.collective === "sendrecv" ? 0 : (req.count / t.ranks) * (t.ranks / nodes);
    const shift = buffers.map((b) => (sizes[b] === req.count ? chunk : 0));
    return new NodeFold(
      t.ranks,
      nodes,
      buffers.map((b) => sizes[b]),
      shift,
    );
  }

  /** The fold of a request onto its first node where that is exact (see the module doc), else none. */
  static of(req: PlanRequest): NodeFold {
    const t = req.topology;
    const granule = Math.max(1, Math.floor(GRANULE_BYTES / dtypeBytes(req.dtype)));
    // Chunk k of an all-reduce ends at ⌊k · G / ranks⌋ granules (G = count / granule; the last at
    // count, partition.ts): moving k by a node's P ranks moves it by exactly G / nodes granules
    // when G is a multiple of the nodes, whatever the ranks — small counts (fewer granules than
    // ranks: chunks of 0 and 1 granule in a pattern that repeats every node) fold too.
    const granules = req.count / granule;
    const unequal = req.collective === "allr" && (!Number.isInteger(granules) || granules % t.nodes !== 0);
    const asymmetric =
      isExchange(req.collective) && !exchangeGeometry({ ...req, collective: req.collective }).symmetric;
    // RDH's partners are r XOR 2^k: shifting ranks by a node does not map its plan onto itself.
    const rdh = req.algorithm === "rdh";
    return NodeFold.make(req, t.nodes < 2 || sb2sbAllowed(req) || unequal || asymmetric || rdh ? 1 : t.nodes);
  }

  /** No fold: every rank placed (what a recorded schedule needs, a leg per plan leg). */
  static none(req: PlanRequest): NodeFold {
    return NodeFold.make(req, 1);
  }

  /** No fold over `ranks` ranks of any collectives (concurrent ones: concurrent-schedule.ts). */
  static identity(ranks: number): NodeFold {
    return new NodeFold(ranks, 1, [0, 0, 0], [0, 0, 0]);
  }

  /** Write into `out` the image of `ref` in the first node. */
  fold(ref: BufRef, out: Folded): Folded {
    const k = Math.floor(ref.rank / this.perNode);
    const b = bufferIndex(ref.buffer);
    const shift = k * this.shift[b]!;
    const size = this.size[b]!;
    out.rank = ref.rank - k * this.perNode;
    const d = ref.elem - shift;
    // No negative dividend (a −0 result would make every later `%` a float modulo: group-ring.ts).
    out.elem = shift === 0 ? ref.elem : d >= 0 ? d % size : (size - (-d % size)) % size;
    out.nodes = k;
    return out;
  }

  /** `rank` moved forward by `nodes` nodes (around the ring of ranks). */
  unfold(rank: number, nodes: number): number {
    return (rank + nodes * this.perNode) % this.ranks;
  }
}
