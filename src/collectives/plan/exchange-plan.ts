/**
 * The exchange collectives' plan (exchange.ts gives the blocks): every rank pulls each block it
 * receives with plain copies on its own DMA queues, all in one step — its own block first, then
 * rank r + 1's, r + 2's, … — each block spread over channels like a mesh pull (mesh.ts's MODEL: a
 * rank's pulls rotate over its DMA engines so small blocks from many peers run side by side).
 */
import { type ExchangeName, exchangeGeometry } from "./exchange.js";
import { meshSubs } from "./mesh.js";
import { type LegSink, MovableCopy } from "./plan-builder.js";
import { channelsFor, type PlanRequest } from "./plan-request.js";

/** Plan an exchange: the legs issued by ranks below `issuers` (all by default). */
export function planExchange(
  req: PlanRequest & { readonly collective: ExchangeName },
  b: LegSink,
  issuers = req.topology.ranks,
): void {
  const geometry = exchangeGeometry(req);
  const pull = new MovableCopy(0, "input");
  for (let q = 0; q < issuers; q++) {
    let offset = 0;
    geometry.forEachReceive(q, (from, srcElem, dstElem, count) => {
      const pieces = meshSubs(req, { start: 0, count }, offset);
      offset += channelsFor(req, count, 1);
      pull.src.rank = from;
      pull.addPieces(b, q, pieces, srcElem, dstElem);
    });
  }
}
