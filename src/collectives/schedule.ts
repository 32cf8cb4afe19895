/**
 * Places a plan's legs in time with the cost model (cost-model.ts). The result depends only on the
 * plan, the topology and whether SR is on (a seed-init descriptor per CCE packet) — never on data —
 * so a timing-only run and a full run report the same time.
 */
import type { ProfileCostModel } from "../engine/index.js";
import { dtypeBytes } from "../spec/dtype.js";
import { MAX_DESCRIPTOR_BYTES } from "../spec/packet-model.js";
import { engineCostModel, LAUNCH_OVERHEAD_NS, SEMAPHORE_TO_START_NS } from "./cost-model.js";
import { legAluOp } from "./leg-math.js";
import type { LinkClass } from "./links.js";
import { isSb2sb, legPacketCount } from "./packets.js";
import type { Leg, Plan, ReduceOp } from "./plan.js";
import { sb2sbEngineNs } from "./sb2sb-legs.js";
import { linkClass, linkResource, type Topology } from "./topology.js";

export interface Schedule {
  /** Per leg, ns after launch. */
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Launch overhead + the last end, in ns. */
  readonly totalNs: number;
}

export interface ScheduleOptions {
  /** Stochastic rounding: every CCE packet opens with a seed-init descriptor. */
  readonly sr: boolean;
}

function chipOf(t: Topology, rank: number): string {
  const p = t.places[rank]!;
  return `hbm:${p.node}.${p.chip}`;
}

/** The shared resources a leg touches and the bytes it puts on each. */
function legResources(t: Topology, leg: Leg, bytes: number): Map<string, number> {
  const res = new Map<string, number>();
  const add = (k: string, b: number) => res.set(k, (res.get(k) ?? 0) + b);
  for (const s of leg.srcs) {
    add(chipOf(t, s.ref.rank), bytes);
    if (
      linkClass(t, s.ref.rank, leg.rank) === "chip-to-chip" ||
      linkClass(t, s.ref.rank, leg.rank) === "node-to-node"
    )
      add(linkResource(t, s.ref.rank, leg.rank), bytes);
  }
  for (const d of leg.dsts) {
    add(chipOf(t, d.rank), bytes);
    if (
      linkClass(t, leg.rank, d.rank) === "chip-to-chip" ||
      linkClass(t, leg.rank, d.rank) === "node-to-node"
    )
      add(linkResource(t, leg.rank, d.rank), bytes);
  }
  return res;
}

function resourceBandwidth(t: Topology, resource: string): number {
  const cls: Exclude<LinkClass, "local"> = resource.startsWith("hbm:")
    ? "intra-chip"
    : resource.startsWith("c2c:")
      ? "chip-to-chip"
      : "node-to-node";
  return t.links.links[cls].bytesPerNs;
}

/** What the time of a leg on its engine depends on (a {@link Leg} or a streamed leg spec). */
export type LegWork = Pick<Leg, "kind" | "queue" | "count" | "srcs" | "dsts">;

/** Descriptors of one packet of a leg (what the runtime writes for it). */
function descriptorsPerPacket(leg: LegWork, op: ReduceOp, sr: boolean, packetBytes: number): number {
  const alu = legAluOp(leg, op);
  if (alu === undefined) return 2 * Math.max(1, Math.ceil(packetBytes / MAX_DESCRIPTOR_BYTES));
  const n = leg.srcs.length;
  return n + 1 + (alu === "fma" ? n : 0) + (sr ? 1 : 0) + (leg.dsts.length - 1);
}

/**
 * The engine time of a leg: its packets through the engine's cost model. A pure function of the
 * leg's kind, count and source / destination counts (for a given plan dtype, op and SR), so equal
 * legs may share one answer.
 */
export function engineNs(
  model: ProfileCostModel,
  t: Topology,
  plan: Pick<Plan, "dtype" | "op">,
  leg: LegWork,
  sr: boolean,
): number {
  if (isSb2sb(leg)) return sb2sbEngineNs(model, t.profile, leg, plan.dtype, sr);
  const eb = dtypeBytes(plan.dtype);
  const packets = legPacketCount(t.profile, leg, plan.dtype);
  const bytes = leg.count * eb;
  const avgPacket = bytes / packets;
  return model.durationNs({
    engine: 0,
    queue: leg.queue,
    kind: leg.kind === "copy" ? "copy" : "cce",
    descriptors: packets * descriptorsPerPacket(leg, plan.op, sr, avgPacket),
    bytesRead: bytes * leg.srcs.length,
    bytesWritten: bytes * leg.dsts.length,
    sources: leg.srcs.length,
    destinations: leg.dsts.length,
    barrier: false,
    txSlot: 0,
    rxSlot: 0,
  });
}

/** The wait between a leg it reads from ending (on `from`'s queue) and this leg learning of it. */
export function waitNs(
  t: Topology,
  from: Pick<Leg, "rank" | "queue">,
  to: Pick<Leg, "rank" | "queue">,
): number {
  if (from.rank === to.rank && from.queue === to.queue) return 0;
  const cls = linkClass(t, from.rank, to.rank);
  return Math.max(SEMAPHORE_TO_START_NS, cls === "local" ? 0 : t.links.links[cls].latencyNs);
}

/**
 * Place every leg in time.
 * @example schedulePlan(plan, topology, { sr: false }).totalNs;
 */
export function schedulePlan(plan: Plan, t: Topology, opts: ScheduleOptions): Schedule {
  const model = engineCostModel(t.profile);
  const eb = dtypeBytes(plan.dtype);
  const users = new Map<string, number>();
  const resources = plan.legs.map((leg) => legResources(t, leg, leg.count * eb));
  for (const [i, leg] of plan.legs.entries()) {
    for (const k of resources[i]!.keys())
      users.set(`${leg.step}|${k}`, (users.get(`${leg.step}|${k}`) ?? 0) + 1);
  }
  const start = new Float64Array(plan.legs.length);
  const end = new Float64Array(plan.legs.length);
  const queueFree = new Map<string, number>();
  let last = 0;
  for (const [i, leg] of plan.legs.entries()) {
    let duration = engineNs(model, t, plan, leg, opts.sr);
    for (const [k, bytes] of resources[i]!) {
      const shared = (bytes * (users.get(`${leg.step}|${k}`) ?? 1)) / resourceBandwidth(t, k);
      duration = Math.max(duration, shared);
    }
    const qk = `${leg.rank}:${leg.queue}`;
    let s = queueFree.get(qk) ?? 0;
    for (const a of leg.after) s = Math.max(s, end[a]! + waitNs(t, plan.legs[a]!, leg));
    start[i] = s;
    end[i] = s + duration;
    queueFree.set(qk, end[i]!);
    last = Math.max(last, end[i]!);
  }
  return { start, end, totalNs: LAUNCH_OVERHEAD_NS + last };
}
