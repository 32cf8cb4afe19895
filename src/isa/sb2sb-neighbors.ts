/**
 * encd_neigh resolution (seed 002 §4.4): which NeuronCore an SB2SB leg targets. libnrt resolves
 * through get_neighbor_metaring @0x235e40 / get_port_to_neighbor_for_metaring @0x2329e0; we model
 * the resolution over one node's ring of NeuronCores and its LNC2 pairs (NC0-NC1, NC2-NC3, …, §7.1).
 */
import { EncdNeigh } from "../spec/enums.js";

/** Where this core sits: its index, the ring it belongs to, and whether cores are paired (LNC2). */
export interface Sb2sbPlace {
  /** This NeuronCore, 0 .. ringSize − 1. */
  readonly self: number;
  /** NeuronCores in the ring (one node). */
  readonly ringSize: number;
  /** LNC2: cores pair as NC2k-NC2k+1; LNC1: every core is its own group (self-test). */
  readonly lnc: 1 | 2;
}

/**
 * encd_neigh_t as the wrappers read it: the enum at +0 and the byte at +4 they compare with 0
 * before building (`cmp BYTE PTR [neigh+0x4], 0; jne <abort>`, seed 002 §4.2).
 */
export interface EncdNeighRef {
  readonly neigh: EncdNeigh;
  /** The byte at +4: non-zero means the peer could not be resolved. */
  readonly invalidByte: number;
  /** The resolved peer core (meaningful only when invalidByte is 0). */
  readonly core: number;
}

/**
 * Resolve an encd_neigh to a peer core. MODEL: LOCAL = self; NEXT / PREV = the ring neighbours;
 * PEER_LOCAL = the LNC2 partner (self under LNC1); NEXT_PEER_RMTV = the next core's partner.
 * GATEWAY, PEER_RMTV, PEER_RMTV2 (cross-node / remote-virtual peers), INVALID and NUM resolve to
 * an invalid reference (peer-valid byte 1): sdmakit models one node.
 * @example resolveNeighbor(EncdNeigh.PEER_LOCAL, { self: 2, ringSize: 8, lnc: 2 }).core // 3
 */
export function resolveNeighbor(neigh: EncdNeigh, p: Sb2sbPlace): EncdNeighRef {
  const partner = (core: number) => (p.lnc === 2 ? core ^ 1 : core);
  const next = (p.self + 1) % p.ringSize;
  const table: Partial<Record<EncdNeigh, number>> = {
    [EncdNeigh.LOCAL]: p.self,
    [EncdNeigh.NEXT]: next,
    [EncdNeigh.PREV]: (p.self - 1 + p.ringSize) % p.ringSize,
    [EncdNeigh.PEER_LOCAL]: partner(p.self),
    [EncdNeigh.NEXT_PEER_RMTV]: partner(next),
  };
  const core = table[neigh];
  return core === undefined || core >= p.ringSize
    ? { neigh, invalidByte: 1, core: -1 }
    : { neigh, invalidByte: 0, core };
}
