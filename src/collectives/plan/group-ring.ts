/**
 * Ring and KangaRing as one planner: a ring over groups of g ranks (g = 1: Ring; g = 2: KangaRing
 * over LNC2 pairs). Data is cut into G = n/g chunks, each chunk into g pieces; member m of a group
 * owns piece m of every chunk.
 *
 * Reduce-scatter, G − 1 steps (one when G = 1): at step s, member (p, m) reduce-copies piece m of
 * chunk c = (p − s − 2) mod G, reading its own and its partners' inputs and the partial the same
 * member of group p − 1 made at step s − 1 (at step 0, group p − 1's inputs instead), into its
 * partial buffer (all-reduce: its output; {@link partialBuffer}) — or, at the last step, its
 * output, where c = p. Ring: 2R1W (own input + partial);
 * KangaRing: NR1W with N = 3 (own, partner, partial), 4 at step 0 (seed 000 §8 RING_2R1W /
 * KANGARING_NR1W; GROUND_TRUTH "KangaRing reduce-scatter is 3R1W").
 *
 * All-gather, G − 1 steps: member (p, m) copies piece m of chunk c = (p − 1 − s) mod G from the
 * same member of group p − 1 into its own output and its partner's — one read, two writes (the
 * 1R2W duplication, a CCE replication packet where the arch has it, else two copies).
 *
 * Each piece is cut into 2 slices × channels so a slice's reduction overlaps the next slice's
 * transfer and the rank's DMA engines share the work ([C] "Ring reduce-scatter splits a chunk in two
 * slices so that reduction overlaps transfer").
 */
import { dtypeBytes } from "../../spec/dtype.js";
import { copyOrDuplicate, fanOutLegs, type SliceLeg } from "./duplicate.js";
import { LiveChunks } from "./live-chunks.js";
import { type ElemRange, type Sub, splitRange } from "./partition.js";
import type { BufferName, BufRef, LegSource, MovableRef } from "./plan.js";
import type { LegSink } from "./plan-builder.js";
import { channelsFor, inputScale, type PlanRequest } from "./plan-request.js";

/** Slices per piece: the two that let reduction overlap transfer. */
export const RING_SLICES = 2;

/**
 * Plan a ring over groups of `g` consecutive ranks (g must divide the rank count); only the legs
 * issued by ranks below `issuers` (a multiple of g: whole groups), all by default.
 */
export function planGroupRing(req: PlanRequest, g: number, b: LegSink, issuers = req.topology.ranks): void {
  const ring = groupRing(req, g, issuers);
  let step = 0;
  if (req.collective === "allr" || req.collective === "redsct") step = reduceScatter(ring, b, step);
  if (req.collective === "redsct") return;
  step = placeOwnPieces(ring, b, step);
  allGather(ring, b, step);
}

/** The ring's geometry and the buffer references its legs use. */
interface GroupRing {
  readonly req: PlanRequest;
  readonly n: number;
  readonly g: number;
  /** Groups on the ring: n / g. */
  readonly G: number;
  /** Groups whose legs are emitted: the first issuers / g. */
  readonly emitted: number;
  readonly mod: (x: number) => number;
  /** The rank of member m of group p (p taken mod G). */
  readonly rankOf: (p: number, m: number) => number;
  /** Piece (c, m): its range in the full-size coordinate (allr buffers; redsct input; allg output). */
  readonly piece: (c: number, m: number) => ElemRange;
  /** Piece (c, m) cut into slices × channels, each with its queue. */
  readonly subs: (c: number, m: number) => Sub[];
  readonly at: (rank: number, buffer: BufferName, elem: number) => BufRef;
  readonly input: (rank: number, elem: number) => LegSource;
  readonly partial: (rank: number, elem: number) => LegSource;
  /** Where a reduce-scatter step before the last writes its partial ({@link partialBuffer}). */
  readonly partials: BufferName;
  /** The all-reduce's chunks that hold elements (the others emit no leg: live-chunks.ts). */
  readonly live: LiveChunks | undefined;
}

/** Each emitted group p, ascending, with its chunk c = (p − offset) mod G, where c holds elements. */
function eachGroup(ring: GroupRing, offset: number, fn: (p: number, c: number) => void): void {
  const { G, emitted, mod, live } = ring;
  if (live === undefined || live.all) for (let p = 0; p < emitted; p++) fn(p, mod(p - offset));
  else live.visit(G, -offset, emitted, fn);
}

/**
 * Where the reduce-scatter's partials go: an all-reduce's into the output (full-size, and every
 * element of it written again later, by the last step or the all-gather, with the final sum), so a
 * run touches no scratch — a quarter of the 8-rank ring's device pages, each a first touch in a
 * cold process; a reduce-scatter's output holds one chunk, so its partials go to the scratch.
 * No hazard: the partial of chunk c in rank q's output is read by rank q + 1 at the next step, and
 * rank q overwrites it only in the all-gather, with the final chunk c, whose chain of legs passes
 * through that read (chunk c is reduced by ranks c + 2, …, c in turn, then passed on: c + 1, …, q).
 */
export const partialBuffer = (req: PlanRequest): BufferName =>
  req.collective === "allr" ? "output" : "scratch";

function groupRing(req: PlanRequest, g: number, issuers: number): GroupRing {
  const n = req.topology.ranks;
  const G = n / g;
  const eb = dtypeBytes(req.dtype);
  // No negative dividend: −G % G is −0, a float to V8, and one such result turns every later
  // `%` here into a float modulo (a C call) — a tenth of a 1024-rank timing-only run.
  const mod = (x: number) => (x >= 0 ? x % G : (G - (-x % G)) % G);
  const per = req.collective === "allr" ? 0 : req.count / n;
  const chunks = req.collective === "allr" ? splitRange({ start: 0, count: req.count }, G, eb) : [];
  const piece = (c: number, m: number): ElemRange =>
    req.collective === "allr"
      ? (splitRange(chunks[c] as ElemRange, g, eb)[m] as ElemRange)
      : { start: (g * c + m) * per, count: per };
  // By chunk and member as one index (a string key was built a call).
  const subsCache: (Sub[] | undefined)[] = new Array(G * g).fill(undefined);
  const subs = (c: number, m: number): Sub[] => {
    let s = subsCache[c * g + m];
    if (s === undefined) {
      const pc = piece(c, m);
      const ch = channelsFor(req, pc.count, RING_SLICES);
      s = splitRange(pc, RING_SLICES * ch, eb).map((range, j) => ({ range, queue: j % ch }));
      subsCache[c * g + m] = s;
    }
    return s;
  };
  const at = (rank: number, buffer: BufferName, elem: number): BufRef => ({ rank, buffer, elem });
  const scale = inputScale(req);
  const partials = partialBuffer(req);
  return {
    partials,
    req,
    n,
    g,
    G,
    emitted: issuers / g,
    mod,
    rankOf: (p, m) => mod(p) * g + m,
    piece,
    subs,
    at,
    input: (rank, elem) =>
      scale === undefined ? { ref: at(rank, "input", elem) } : { ref: at(rank, "input", elem), scale },
    partial: (rank, elem) =>
      scale === undefined ? { ref: at(rank, partials, elem) } : { ref: at(rank, partials, elem), scale: 1 },
    live: req.collective === "allr" ? new LiveChunks(chunks) : undefined,
  };
}

/**
 * The sources member m of group p reduces at reduce-scatter step s: its group's inputs, then group
 * p − 1's inputs (step 0) or partial. Literal arrays where g is 1 or 2 (Ring, KangaRing): an empty
 * array grown by push reserves 17 slots, the bulk of a timing-only run's garbage.
 */
function reduceSources(ring: GroupRing, p: number, m: number, s: number, elem: number): LegSource[] {
  const { g, G, rankOf, input, partial } = ring;
  const own0 = input(rankOf(p, m), elem);
  if (G === 1 && g === 1) return [own0];
  const prev0 = s === 0 ? input(rankOf(p - 1, m), elem) : partial(rankOf(p - 1, m), elem);
  if (g === 1) return [own0, prev0];
  const own1 = input(rankOf(p, (m + 1) % g), elem);
  if (g === 2 && G > 1 && s > 0) return [own0, own1, prev0];
  if (g === 2 && G > 1) return [own0, own1, prev0, input(rankOf(p - 1, (m + 1) % g), elem)];
  const srcs: LegSource[] = [];
  for (let k = 0; k < g; k++) srcs.push(input(rankOf(p, (m + k) % g), elem));
  if (G > 1 && s === 0) for (let k = 0; k < g; k++) srcs.push(input(rankOf(p - 1, (m + k) % g), elem));
  if (G > 1 && s > 0) srcs.push(partial(rankOf(p - 1, m), elem));
  return srcs;
}

/** The outputs of group p, member m's first: literal arrays for g = 1, 2 (see {@link reduceSources}). */
function groupOutputs(ring: GroupRing, p: number, m: number, elem: number): BufRef[] {
  const { g, rankOf, at } = ring;
  const first = at(rankOf(p, m), "output", elem);
  if (g === 1) return [first];
  if (g === 2) return [first, at(rankOf(p, (m + 1) % g), "output", elem)];
  const dsts = [first];
  for (let k = 1; k < g; k++) dsts.push(at(rankOf(p, (m + k) % g), "output", elem));
  return dsts;
}

/** Reduce-scatter, G − 1 steps (one when G = 1). @returns the next step. */
function reduceScatter(ring: GroupRing, b: LegSink, first: number): number {
  const { req, g, G, rankOf, piece, subs, at } = ring;
  const rsSteps = Math.max(1, G - 1);
  let step = first;
  for (let s = 0; s < rsSteps; s++, step++) {
    const last = s === rsSteps - 1;
    eachGroup(ring, G === 1 ? 0 : s + 2, (p, c) => {
      for (let m = 0; m < g; m++) {
        const r = rankOf(p, m);
        // One leg per slice, its references moved along (the sink borrows it: see LegSink).
        const srcs = reduceSources(ring, p, m, s, 0);
        const dst = at(r, last ? "output" : ring.partials, 0) as MovableRef;
        const shift = last && req.collective !== "allr" ? piece(c, m).start : 0;
        const leg = { step, kind: "reduce-copy" as const, rank: r, queue: 0, srcs, dsts: [dst], count: 0 };
        // Indexed loops over the pieces, here and below: for-of made an iterator result a piece.
        const pieces = subs(c, m);
        for (let i = 0; i < pieces.length; i++) {
          const { range, queue } = pieces[i] as Sub;
          for (let k = 0; k < srcs.length; k++) ((srcs[k] as LegSource).ref as MovableRef).elem = range.start;
          dst.elem = range.start - shift;
          leg.queue = queue;
          leg.count = range.count;
          b.add(leg);
        }
      }
    });
  }
  return step;
}

/**
 * Before the all-gather: each member's own piece into its partners' outputs (g > 1; allr: the
 * reduced piece, allg: its input), or a Ring all-gather's own input into its output.
 * @returns the next step.
 */
function placeOwnPieces(ring: GroupRing, b: LegSink, step: number): number {
  const { req, g, emitted, rankOf, piece, subs, at } = ring;
  if (g > 1) {
    eachGroup(ring, 0, (p) => {
      for (let m = 0; m < g; m++) {
        const r = rankOf(p, m);
        const base = piece(p, m).start;
        const pieces = subs(p, m);
        for (let i = 0; i < pieces.length; i++) {
          const { range, queue } = pieces[i] as Sub;
          const src =
            req.collective === "allr" ? at(r, "output", range.start) : at(r, "input", range.start - base);
          const dsts = [];
          for (let k = req.collective === "allr" ? 1 : 0; k < g; k++)
            dsts.push(at(rankOf(p, (m + k) % g), "output", range.start));
          copyOrDuplicate(req, b, { step, rank: r, queue, src, dsts, count: range.count });
        }
      }
    });
    return step + 1;
  }
  if (req.collective !== "allg") return step;
  for (let r = 0; r < emitted; r++) {
    const base = piece(r, 0).start;
    const pieces = subs(r, 0);
    for (let i = 0; i < pieces.length; i++) {
      const { range, queue } = pieces[i] as Sub;
      const src = at(r, "input", range.start - base);
      const dsts = [at(r, "output", range.start)];
      copyOrDuplicate(req, b, { step, rank: r, queue, src, dsts, count: range.count });
    }
  }
  return step + 1;
}

/** All-gather, G − 1 steps: piece m of chunk (p − 1 − s) from group p − 1 into the group's outputs. */
function allGather(ring: GroupRing, b: LegSink, first: number): void {
  const { req, g, G, rankOf, piece, subs, at } = ring;
  let step = first;
  for (let s = 0; s < G - 1; s++, step++) {
    eachGroup(ring, 1 + s, (p, c) => {
      for (let m = 0; m < g; m++) {
        const r = rankOf(p, m);
        const from = rankOf(p - 1, m);
        const fromInput = req.collective === "allg" && s === 0;
        const shift = fromInput ? piece(c, m).start : 0;
        // References moved along the slices (the sink borrows them: see LegSink).
        const src = at(from, fromInput ? "input" : "output", 0) as MovableRef;
        const dsts = groupOutputs(ring, p, m, 0);
        const legs = fanOutLegs(req, { step, rank: r, queue: 0, src, dsts, count: 0 });
        const pieces = subs(c, m);
        for (let i = 0; i < pieces.length; i++) {
          const { range, queue } = pieces[i] as Sub;
          src.elem = range.start - shift;
          for (let k = 0; k < dsts.length; k++) (dsts[k] as MovableRef).elem = range.start;
          for (let k = 0; k < legs.length; k++) {
            const leg = legs[k] as SliceLeg;
            leg.queue = queue;
            leg.count = range.count;
            b.add(leg);
          }
        }
      }
    });
  }
}
