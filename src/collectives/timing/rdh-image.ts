/**
 * RDH's node symmetry (node-fold.ts): with P = 2^p ranks a node and every block alike, rank r XOR m
 * (m a multiple of P) runs rank r's legs — the same steps, queues and counts — over what it holds,
 * which is what r holds with some block bits flipped (rdh.ts: the bits of r it has halved by so far
 * pick its blocks). Partners stay partners (r XOR 2^b ↔ r XOR m XOR 2^b) and the topology maps onto
 * itself (a node onto a node, a place in it onto the same place), so its legs start and end when
 * r's do.
 *
 * A first-node rank r reads another node's range only at its partner r XOR 2^b (b ≥ p), whose image
 * is r itself: on a reduce-scatter step the partner's partial of the blocks both hold, at the same
 * elements as r's own; on an all-gather step what the partner holds and r does not, at the elements
 * of what r holds itself — the partner's range with the step's block bit flipped (rdhStepBits).
 */
import { type BufRef, bufferIndex } from "../plan/plan.js";
import { bufferSizes, type PlanRequest } from "../plan/plan-request.js";
import { rdhStepBits } from "../plan/rdh.js";
import type { ElemImage } from "./node-fold.js";

export class RdhImage implements ElemImage {
  private readonly perNode: number;
  /** Elements of a block (all alike: rdhEqualBlock). */
  private readonly block: number;
  /** Per step: the partner's rank bit, and the block bit an all-gather step flips (−1: none). */
  private readonly rankBit: Int32Array;
  private readonly blockBit: Int32Array;
  /** The buffers in the full-size coordinate (bufferIndex order), whose blocks are the blocks. */
  private readonly full: readonly boolean[];

  /** `block`: the elements of every block, alike (NodeFold.of folds only where rdhEqualBlock says so). */
  constructor(req: PlanRequest, block: number) {
    const t = req.topology;
    this.perNode = t.ranks / t.nodes;
    this.block = block;
    ({ rank: this.rankBit, block: this.blockBit } = rdhStepBits(req));
    const sizes = bufferSizes(req);
    this.full = [sizes.input, sizes.output, sizes.scratch].map((size) => size === req.count);
  }

  elem(ref: BufRef, node: number, step: number): number {
    const bit = this.rankBit[step] ?? -1;
    if (bit < 0 || node * this.perNode !== 2 ** bit) {
      throw new Error(`RdhImage: step ${step} reads rank ${ref.rank}, not a partner on another node`);
    }
    const flip = this.blockBit[step]!;
    if (flip < 0 || !this.full[bufferIndex(ref.buffer)]) return ref.elem;
    const c = Math.floor(ref.elem / this.block);
    return ref.elem + ((c >> flip) & 1 ? -1 : 1) * 2 ** flip * this.block;
  }
}
