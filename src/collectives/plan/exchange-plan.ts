/**
 * The exchange collectives' plan (exchange.ts gives the blocks): every rank pulls each block it
 * receives with plain copies on its own DMA queues, all in one step — its own block first, then
 * rank r + 1's, r + 2's, … — each block spread over channels like a mesh pull (mesh.ts's MODEL: a
 * rank's pulls rotate over its DMA engines so small blocks from many peers run side by side).
 */
import { type ExchangeName, exchangeGeometry } from "./exchange.js";
import { meshSubs } from "./mesh.js";
import type { Sub } from "./partition.js";
import type { MovableRef } from "./plan.js";
import type { LegSink } from "./plan-builder.js";
import { channelsFor, type PlanRequest } from "./plan-request.js";

/** Plan an exchange: the legs issued by ranks below `issuers` (all by default). */
export function planExchange(
  req: PlanRequest & { readonly collective: ExchangeName },
  b: LegSink,
  issuers = req.topology.ranks,
): void {
  const geometry = exchangeGeometry(req);
  // One leg per block, its references moved along the sub-legs (the sink borrows it: LegSink).
  const src: MovableRef = { rank: 0, buffer: "input", elem: 0 };
  const dst: MovableRef = { rank: 0, buffer: "output", elem: 0 };
  const leg = {
    step: 0,
    kind: "copy" as const,
    rank: 0,
    queue: 0,
    srcs: [{ ref: src }],
    dsts: [dst],
    count: 0,
  };
  for (let q = 0; q < issuers; q++) {
    let offset = 0;
    geometry.forEachReceive(q, (from, srcElem, dstElem, count) => {
      const pieces = meshSubs(req, { start: 0, count }, offset);
      offset += channelsFor(req, count, 1);
      src.rank = from;
      dst.rank = q;
      leg.rank = q;
      for (let i = 0; i < pieces.length; i++) {
        const { range, queue } = pieces[i] as Sub;
        src.elem = srcElem + range.start;
        dst.elem = dstElem + range.start;
        leg.queue = queue;
        leg.count = range.count;
        b.add(leg);
      }
    });
  }
}
