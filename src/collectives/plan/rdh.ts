/**
 * RDH: recursive halving, then recursive doubling (Rabenseifner's all-reduce), over a power-of-two
 * rank count n = 2^L. Data is cut into n blocks (the mesh's chunks; reduce-scatter's and
 * all-gather's per-rank chunks).
 *
 * Reduce-scatter, L steps: at step k rank r and its partner r XOR 2^b_k hold the same range of
 * blocks; each keeps one half (the lower when bit b_k of r is 0) and reduce-copies it from its own
 * partial and the partner's (2R1W, the shape seed 000 §8's reduction_type_t calls RING_2R1W; at
 * step 0 the two inputs, with the avg pre-scale). After L steps rank r holds one reduced block.
 * All-gather, L steps in the reverse bit order: rank r copies the partner's range into its output,
 * doubling what it holds. All-reduce is both; reduce-scatter the first half (bits b_k from the top:
 * rank r ends holding block r), all-gather the second (bits from the bottom, from block r).
 *
 * MODEL (bit order): the all-reduce halves by partner distance 1, 2, 4, … so its largest
 * exchanges (step 0, and the all-gather's last step) are with the nearest ranks — the same chip
 * first — and it ends holding block bitreverse(r); reduce-scatter needs block r, so it halves by
 * distance n/2 first.
 * MODEL (partials): no packet reads what it writes. All-reduce partials alternate between scratch
 * and the output, ending in the output (as the mesh does); a reduce-scatter's output is one block,
 * so its partials alternate between scratch and scratch mirrored into the half given away at
 * step 0 (no rank reads that half of this rank's scratch: step 0 reads inputs).
 * MODEL (legs): what a rank moves in a step is one leg per channel (channelsFor, as a power of
 * two), the nodes of one range tree (halves of blocks, then halves within a block), so a read is
 * half of one earlier write, a whole one, or a span of them (plan-builder.ts spanWriters). The
 * all-gather's last steps read what was written up to L steps before: see {@link rdhKeptSteps}.
 * Refused (UsageError; `auto` skips it) on a rank count that is not a power of two: the extra
 * ranks' fold-in and fold-out steps are not modelled.
 */
import { UsageError } from "../../bits/errors.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { type ElemRange, splitRange } from "./partition.js";
import type { BufferName, BufRef, LegSource } from "./plan.js";
import { type LegSink, MovableCopy } from "./plan-builder.js";
import { channelsFor, inputScale, type PlanRequest } from "./plan-request.js";

/** The geometry every RDH step uses: blocks, the bit order, the range tree. */
interface Rdh {
  readonly req: PlanRequest;
  readonly n: number;
  /** log2 n. */
  readonly L: number;
  readonly eb: number;
  /** Block c's range in the full-size coordinate (allr buffers, redsct input, allg output). */
  readonly blocks: readonly ElemRange[];
  /** The bit whose partner a reduce-scatter step k exchanges with (the all-gather: reversed). */
  readonly bits: readonly number[];
}

function rdhOf(req: PlanRequest): Rdh {
  const n = req.topology.ranks;
  if (n & (n - 1)) {
    throw new UsageError(
      `algorithm rdh: ranks ${n} must be a power of two (1, 2, 4, 8, …); use ring, kangaring or mesh`,
    );
  }
  const L = Math.round(Math.log2(n));
  const eb = dtypeBytes(req.dtype);
  const per = req.collective === "allr" ? 0 : req.count / n;
  const blocks =
    req.collective === "allr"
      ? splitRange({ start: 0, count: req.count }, n, eb)
      : Array.from({ length: n }, (_, c) => ({ start: c * per, count: per }));
  const up = Array.from({ length: L }, (_, k) => k);
  const bits = req.collective === "allr" ? up : up.reverse();
  return { req, n, L, eb, blocks, bits };
}

/**
 * Node q at depth u of the range tree: depth u ≤ L halves the blocks u times (node q: blocks
 * q·2^(L−u) …); deeper nodes halve a block on 32-byte granules (splitRange), so every node is
 * its two children, whatever the count.
 */
function nodeRange(rdh: Rdh, u: number, q: number): ElemRange {
  const { L, blocks } = rdh;
  if (u <= L) {
    const first = blocks[q * 2 ** (L - u)] as ElemRange;
    const last = blocks[(q + 1) * 2 ** (L - u) - 1] as ElemRange;
    return { start: first.start, count: last.start + last.count - first.start };
  }
  let range = blocks[q >> (u - L)] as ElemRange;
  for (let t = u - L - 1; t >= 0; t--) range = splitRange(range, 2, rdh.eb)[(q >> t) & 1] as ElemRange;
  return range;
}

/**
 * log2 of the legs (one per channel) a rank cuts what it holds after reduce-scatter step k into:
 * MODEL, channelsFor of its size as a power of two — at most doubling as the size doubles, so a
 * step's legs are halves of the step before's, or whole ones, or spans of them (plan-builder.ts).
 */
function laneBits(rdh: Rdh, k: number): number {
  const elems = (rdh.blocks[0] as ElemRange).count * 2 ** (rdh.L - 1 - k);
  return Math.floor(Math.log2(channelsFor(rdh.req, elems, 1)));
}

/** The first block and the block count of what rank r holds after reduce-scatter step k (k = −1: all). */
function held(rdh: Rdh, r: number, k: number): { first: number; count: number } {
  let first = 0;
  for (let j = 0; j <= k; j++) first += ((r >> (rdh.bits[j] as number)) & 1) << (rdh.L - 1 - j);
  return { first, count: 1 << (rdh.L - 1 - k) };
}

/**
 * Steps back an RDH plan reads: the all-gather's last step reads what the reduce-scatter's last
 * step (allr) or the own-block copy (allg) wrote L steps before; the scheduler keeps that many.
 */
export function rdhKeptSteps(req: PlanRequest): number {
  return Math.round(Math.log2(Math.max(1, req.topology.ranks))) + 1;
}

/**
 * What a schedule folded onto one node (timing/node-fold.ts) asks of each RDH step (2 log2 n + 1 of
 * them, allg's own copy the first): the rank bit its partner differs in, and on an all-gather step
 * the block bit by which what the partner holds (and the rank copies) differs from what the rank
 * holds itself; −1 on a reduce-scatter step (both hold the same blocks) and for allg's own copy.
 */
export function rdhStepBits(req: PlanRequest): { rank: Int32Array; block: Int32Array } {
  const { L, bits } = rdhOf(req);
  const gatherFrom = req.collective === "allg" ? 1 : req.collective === "allr" ? L : Number.POSITIVE_INFINITY;
  const rank = new Int32Array(2 * L + 1).fill(-1);
  const block = new Int32Array(2 * L + 1).fill(-1);
  for (let step = req.collective === "allg" ? 1 : 0; step < rank.length; step++) {
    // All-gather step g moves what the partner holds after reduce-scatter step k = L − 1 − g.
    const k = step < gatherFrom ? step : L - 1 - (step - gatherFrom);
    if (k < 0 || k >= L) continue;
    rank[step] = bits[k] as number;
    if (step >= gatherFrom) block[step] = L - 1 - k;
  }
  return { rank, block };
}

/**
 * Every block the same number of elements (then a block's halves, and theirs, are alike too), or
 * undefined: the all-reduce's blocks differ by a granule unless the count is a multiple of ranks ×
 * granules. @throws UsageError as RDH planning does (ranks not a power of two).
 */
export function rdhEqualBlock(req: PlanRequest): number | undefined {
  const { blocks } = rdhOf(req);
  const count = (blocks[0] as ElemRange).count;
  return blocks.every((b) => b.count === count) ? count : undefined;
}

/**
 * Emit, for each rank below `issuers`, one leg per channel over what `holder(r)` holds after
 * reduce-scatter step k (a tree node, cut into 2^laneBits(k) descendants); `block`: its first block.
 */
function eachLeg(
  rdh: Rdh,
  issuers: number,
  holder: (r: number) => { rank: number; k: number },
  emit: (r: number, range: ElemRange, block: number, queue: number) => void,
): void {
  for (let r = 0; r < issuers; r++) {
    const { rank, k } = holder(r);
    const { first } = held(rdh, rank, k);
    const d = laneBits(rdh, k);
    const depth = k + 1 + d;
    const q = (first >> (rdh.L - 1 - k)) * 2 ** d;
    for (let j = 0; j < 2 ** d; j++) emit(r, nodeRange(rdh, depth, q + j), first, j);
  }
}

/** Where reduce-scatter step k's partial of element x (full coordinate) sits on rank r. */
function partialAt(rdh: Rdh, k: number, r: number, x: number): BufRef {
  const { req, L } = rdh;
  if (k === L - 1) {
    const shift = req.collective === "allr" ? 0 : (rdh.blocks[r] as ElemRange).start;
    return { rank: r, buffer: "output", elem: x - shift };
  }
  if (req.collective === "allr")
    return { rank: r, buffer: (L - 1 - k) % 2 === 0 ? "output" : "scratch", elem: x };
  if (k % 2 === 0) return { rank: r, buffer: "scratch", elem: x };
  const half = req.count / 2;
  return { rank: r, buffer: "scratch", elem: (r >> (rdh.bits[0] as number)) & 1 ? x - half : x + half };
}

/** Reduce-scatter: L steps (one copy-or-reduce of the own input when n = 1). @returns the next step. */
function reduceScatter(rdh: Rdh, b: LegSink, issuers: number): number {
  const { req, L } = rdh;
  const scale = inputScale(req);
  const input = (rank: number, elem: number): LegSource => {
    const ref: BufRef = { rank, buffer: "input", elem };
    return scale === undefined ? { ref } : { ref, scale };
  };
  const partial = (k: number, rank: number, elem: number): LegSource => {
    const ref = partialAt(rdh, k, rank, elem);
    return scale === undefined ? { ref } : { ref, scale: 1 };
  };
  if (L === 0) {
    eachLeg(
      rdh,
      issuers,
      (r) => ({ rank: r, k: -1 }),
      (r, piece, _block, queue) => {
        const dsts = [{ rank: r, buffer: "output" as BufferName, elem: piece.start }];
        b.add({
          step: 0,
          kind: "reduce-copy",
          rank: r,
          queue,
          srcs: [input(r, piece.start)],
          dsts,
          count: piece.count,
        });
      },
    );
    return 1;
  }
  for (let k = 0; k < L; k++) {
    const bit = 1 << (rdh.bits[k] as number);
    eachLeg(
      rdh,
      issuers,
      (r) => ({ rank: r, k }),
      (r, piece, _block, queue) => {
        const x = piece.start;
        const srcs =
          k === 0 ? [input(r, x), input(r ^ bit, x)] : [partial(k - 1, r, x), partial(k - 1, r ^ bit, x)];
        const dsts = [partialAt(rdh, k, r, x)];
        b.add({ step: k, kind: "reduce-copy", rank: r, queue, srcs, dsts, count: piece.count });
      },
    );
  }
  return L;
}

/**
 * All-gather: L steps from `first`, the reduce-scatter's bits in reverse; at each rank r pulls what
 * its partner holds into its output (all-gather's first step: the partner's input). allg first
 * copies its own input into its output.
 */
function allGather(rdh: Rdh, b: LegSink, issuers: number, first: number): void {
  const { req, L } = rdh;
  const allg = req.collective === "allg";
  const { src, dst, leg } = new MovableCopy(first, "output");
  const move = (r: number, from: number, fromInput: boolean, piece: ElemRange, c: number, queue: number) => {
    src.rank = from;
    src.buffer = fromInput ? "input" : "output";
    src.elem = fromInput ? piece.start - (rdh.blocks[c] as ElemRange).start : piece.start;
    dst.rank = r;
    dst.elem = piece.start;
    leg.rank = r;
    leg.queue = queue;
    leg.count = piece.count;
    b.add(leg);
  };
  let step = first;
  if (allg) {
    eachLeg(
      rdh,
      issuers,
      (r) => ({ rank: r, k: L - 1 }),
      (r, piece, c, q) => move(r, r, true, piece, c, q),
    );
    step++;
  }
  for (let g = 0; g < L; g++, step++) {
    const k = L - 1 - g;
    const bit = 1 << (rdh.bits[k] as number);
    leg.step = step;
    eachLeg(
      rdh,
      issuers,
      (r) => ({ rank: r ^ bit, k }),
      (r, piece, c, q) => move(r, r ^ bit, allg && g === 0, piece, c, q),
    );
  }
}

/** Plan an RDH collective: the legs issued by ranks below `issuers` (all by default). @throws UsageError (see the module doc). */
export function planRdh(req: PlanRequest, b: LegSink, issuers = req.topology.ranks): void {
  const rdh = rdhOf(req);
  if (req.collective === "allg") {
    allGather(rdh, b, issuers, 0);
    return;
  }
  const next = reduceScatter(rdh, b, issuers);
  if (req.collective === "allr" && rdh.L > 0) allGather(rdh, b, issuers, next);
}
