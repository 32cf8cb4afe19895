/**
 * Mesh: every rank talks to every rank directly, in one or two steps — few hops, so it wins for
 * small sizes. All-reduce: rank r reduce-copies chunk r from all n inputs (NR1W; beyond the
 * profile's CCE source limit the sources are folded in batches through a partial), then every rank
 * pulls every other rank's reduced chunk. Reduce-scatter is the first step; all-gather is a pull of
 * every rank's input. Sources are read starting with the rank's own, then r + 1, r + 2, … .
 *
 * MODEL (queues): the pulls of one rank are spread over its DMA channels round robin — peer k's
 * sub-legs start at channel (k − 1) · subs — so small pieces from many peers run side by side on
 * separate engines instead of one after another on channel 0, as the runtime spreads a mesh
 * step's peers over its DMA rings.
 */
import { dtypeBytes } from "../../spec/dtype.js";
import { LiveChunks } from "./live-chunks.js";
import { type ElemRange, type Sub, splitRange } from "./partition.js";
import type { BufRef, LegSource } from "./plan.js";
import { type LegSink, MovableCopy } from "./plan-builder.js";
import { channelsFor, inputScale, type PlanRequest } from "./plan-request.js";

/** A chunk cut over channels; the k-th pull of a rank starts at channel `offset`. */
export function meshSubs(req: PlanRequest, chunk: ElemRange, offset = 0): Sub[] {
  const ch = channelsFor(req, chunk.count, 1);
  const channels = req.topology.channelsPerRank;
  return splitRange(chunk, ch, dtypeBytes(req.dtype)).map((range, j) => ({
    range,
    queue: (offset + j) % channels,
  }));
}

/**
 * The first step whose writes no leg reads, or undefined: a mesh all-reduce's or all-gather's
 * pulls land in the outputs, final (16384 ranks' pulls were 17 M writes kept for nothing, 1.3 GB);
 * a reduce-scatter's batches read the partials of their own step.
 */
export function meshUnreadStep(req: PlanRequest): number | undefined {
  if (req.collective === "allr") return 1;
  return req.collective === "allg" ? 0 : undefined;
}

/** Plan a mesh collective: the legs issued by ranks below `issuers` (all by default). */
export function planMesh(req: PlanRequest, b: LegSink, issuers = req.topology.ranks): void {
  const n = req.topology.ranks;
  const eb = dtypeBytes(req.dtype);
  const per = req.collective === "allr" ? 0 : req.count / n;
  const chunks =
    req.collective === "allr"
      ? splitRange({ start: 0, count: req.count }, n, eb)
      : Array.from({ length: n }, (_, r) => ({ start: r * per, count: per }));
  const chunk = (r: number) => chunks[r] as ElemRange;
  const scale = inputScale(req);
  const maxSources = req.topology.profile.maxCceSources;

  if (req.collective === "allr" || req.collective === "redsct") {
    for (let r = 0; r < issuers; r++) {
      const base = chunk(r).start;
      const pieces = meshSubs(req, chunk(r));
      for (let i = 0; i < pieces.length; i++) {
        const { range, queue } = pieces[i] as Sub;
        // An empty piece (a small count's empty chunk) emits nothing: its sources are not built.
        if (range.count === 0) continue;
        const out: BufRef = {
          rank: r,
          buffer: "output",
          elem: req.collective === "allr" ? range.start : range.start - base,
        };
        // Each batch builds only its own sources (not all n, sliced: a million objects at 1024 ranks).
        const input = (k: number): LegSource => {
          const ref: BufRef = { rank: (r + k) % n, buffer: "input", elem: range.start };
          return scale === undefined ? { ref } : { ref, scale };
        };
        // Fold in batches: the first takes maxSources inputs, each next one the partial + maxSources − 1.
        // Partials alternate between scratch and the output so no packet reads what it writes.
        const batches = 1 + Math.ceil(Math.max(0, n - maxSources) / (maxSources - 1));
        const tmp: BufRef = { rank: r, buffer: "scratch", elem: range.start };
        let partial: BufRef | undefined;
        let next = 0;
        for (let batch = 0; batch < batches; batch++) {
          const take = partial === undefined ? maxSources : maxSources - 1;
          const srcs: LegSource[] =
            partial === undefined
              ? []
              : [scale === undefined ? { ref: partial } : { ref: partial, scale: 1 }];
          for (const end = Math.min(n, next + take); next < end; next++) srcs.push(input(next));
          const dst = (batches - 1 - batch) % 2 === 0 ? out : tmp;
          b.add({ step: 0, kind: "reduce-copy", rank: r, queue, srcs, dsts: [dst], count: range.count });
          partial = dst;
        }
      }
    }
  }
  if (req.collective === "redsct") return;
  const step = req.collective === "allr" ? 1 : 0;
  const first = req.collective === "allr" ? 1 : 0;
  const pull = new MovableCopy(step, req.collective === "allr" ? "output" : "input");
  const pullFrom = (q: number, k: number, r: number) => {
    if (k < first) return;
    const shift = req.collective === "allr" ? 0 : chunk(r).start;
    const offset = (k - first) * channelsFor(req, chunk(r).count, 1);
    pull.src.rank = r;
    pull.addPieces(b, q, meshSubs(req, chunk(r), offset), -shift, 0);
  };
  // Peers whose chunk is empty send nothing (live-chunks.ts): only the others are walked.
  const live = new LiveChunks(chunks);
  for (let q = 0; q < issuers; q++) {
    if (live.all) for (let k = first; k < n; k++) pullFrom(q, k, (q + k) % n);
    else live.visit(n, q, n, (k, r) => pullFrom(q, k, r));
  }
}
