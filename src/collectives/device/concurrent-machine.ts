/**
 * Collectives that run at once (replica groups, streams) on one simulated device: every group's
 * plan is built alone on its ranks, its buffers placed in a region of their own after the previous
 * group's (guards around each, as a single run's), its legs posted to the queues of the run's ranks
 * they belong to, and the device runs all of them together — each round posts the next batch of
 * independent legs of every group, then runs the device, so packets of different groups and
 * streams share the engines' round-robin. The caller (run-concurrent.ts) writes the inputs and
 * checks each group like a run of its own.
 *
 * MODEL (queues): stream k's rank r drives the engines of rank r (device-machine.ts `legQueue`) on
 * queues of its own: it is device rank r + k · R (R ranks in the run), which lands on the same
 * engines as r when R is a multiple of the device's logical cores, the next queue of each. When
 * streams × R passes the device's rank capacity (`maxDeviceRanks`), the streams share rank r's own
 * queues instead (their packets then run in posting order on each queue; not with SR, whose seed
 * is per queue).
 */
import { UsageError } from "../../bits/errors.js";
import { Device } from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { OverflowPolicy } from "../../numerics/index.js";
import { drainDeviceCount, VringPool } from "../../runtime/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { legCalls } from "../plan/leg-calls.js";
import { queueSeed } from "../plan/packets.js";
import type { BufferName, BufRef, Leg, Plan } from "../plan/plan.js";
import { BufferLayout, type BufferReader, GUARD_FILL, OUTPUT_FILL, type Span } from "./buffer-layout.js";
import {
  checkDeviceRanks,
  checkHbm,
  legQueue,
  maxDeviceRanks,
  postLegCalls,
  ringOptions,
  stackPlacement,
} from "./device-machine.js";

/** A group to run: its plan, the run's rank of each of its ranks, and its stream. */
export interface GroupPlan {
  readonly plan: Plan;
  readonly ranks: readonly number[];
  readonly stream: number;
}

/** One group on the shared device: its plan, where its buffers are, and its ranks' device ranks. */
export interface Placed {
  readonly plan: Plan;
  readonly layout: BufferLayout;
  /** Per group rank: its device rank (see the module doc). */
  readonly deviceRank: readonly number[];
}

/** Place every group's buffers one after another in each HBM stack (stack 0 from the end of the ring area). */
function place(
  groups: readonly GroupPlan[],
  profile: ArchProfile,
  runRanks: number,
  ownQueues: boolean,
): Placed[] {
  const placed: Placed[] = [];
  for (const g of groups) {
    const prev = placed[placed.length - 1];
    const shift = ownQueues ? g.stream * runRanks : 0;
    const deviceRank = g.ranks.map((r) => r + shift);
    // Each group's ranks in their cores' stacks, after the previous group's buffers there.
    const at = stackPlacement(profile, g.plan.lnc, (r) => deviceRank[r] as number, prev?.layout.stackEnds);
    placed.push({ plan: g.plan, layout: new BufferLayout(g.plan, at), deviceRank });
  }
  return placed;
}

/**
 * Where the shared device puts every group (what it allocates follows: host-memory.ts estimates it
 * from this before the device is made).
 * @throws UsageError when the device cannot hold streams × runRanks ranks or the groups' buffers.
 */
export function placeGroups(
  profile: ArchProfile,
  lnc: 1 | 2,
  groups: readonly GroupPlan[],
  runRanks: number,
  streams: number,
  sr: boolean,
): Placed[] {
  checkDeviceRanks(runRanks, profile, lnc);
  const ownQueues = streams * runRanks <= maxDeviceRanks(profile, lnc);
  if (!ownQueues && sr) {
    throw new UsageError(
      `${streams} streams × ${runRanks} ranks with --sr: the device has queues for ${maxDeviceRanks(profile, lnc)} (SR seeds a queue); use --timing-only or fewer ranks`,
    );
  }
  const placed = place(groups, profile, runRanks, ownQueues);
  const last = placed[placed.length - 1];
  if (last !== undefined) checkHbm(last.layout, profile);
  return placed;
}

/** The device with every group's buffers, running all groups' legs together. */
export class SharedDevice {
  readonly device: Device;
  private readonly rings: VringPool;
  /** Per device queue (engine · 0x10000 + queue): the [group rank, channel] its SR seed is for. */
  private readonly seedOf = new Map<number, [number, number]>();

  private readonly placed: readonly Placed[];

  /**
   * @param streams how many streams the run has (each gets queues of its own)
   * @throws UsageError when the device cannot hold streams × runRanks ranks or the groups' buffers.
   */
  constructor(
    readonly profile: ArchProfile,
    readonly lnc: 1 | 2,
    groups: readonly GroupPlan[],
    runRanks: number,
    streams: number,
    opts: {
      readonly srSeed?: number | undefined;
      readonly overflow: OverflowPolicy;
      /** Host bytes the device's memory may allocate (MachineOptions.memoryBudget). */
      readonly memoryBudget?: number;
    },
  ) {
    this.placed = placeGroups(profile, lnc, groups, runRanks, streams, opts.srSeed !== undefined);
    this.device = new Device(profile, {
      overflow: opts.overflow,
      keepEvents: false,
      ...(opts.memoryBudget === undefined ? {} : { memoryBudget: opts.memoryBudget }),
    });
    const { srSeed } = opts;
    const seedOf = this.seedOf;
    this.rings = new VringPool(this.device, {
      ...ringOptions(profile),
      ...(srSeed === undefined
        ? {}
        : {
            srSeedOf: (q) => {
              const rc = seedOf.get(q.engine * 0x10000 + q.queue);
              return rc === undefined ? undefined : queueSeed(srSeed, rc[0], rc[1]);
            },
          }),
    });
  }

  /** Write input bytes of group `g`'s rank from element `from` (generateInputs' sink). */
  writeInput(g: number, rank: number, from: number, bytes: Uint8Array): void {
    const p = this.placed[g] as Placed;
    this.device.memory.write(p.layout.addr({ rank, buffer: "input", elem: from }), bytes);
  }

  /** A reader of group `g`'s buffer elements for the checks, copying into a tile of `maxElems`. */
  reader(g: number, maxElems: number): BufferReader {
    const p = this.placed[g] as Placed;
    const eb = dtypeBytes(p.plan.dtype);
    const tile = new Uint8Array(maxElems * eb);
    return (rank, buffer, from, len) => {
      const out = tile.subarray(0, len * eb);
      this.device.memory.readInto(p.layout.addr({ rank, buffer, elem: from }), out);
      return out;
    };
  }

  /** A copy of one of group `g`'s buffers. */
  read(g: number, rank: number, buffer: BufferName): Uint8Array {
    const s = (this.placed[g] as Placed).layout.buffer(rank, buffer);
    return this.device.memory.read(s.addr, s.bytes);
  }

  /** The guard spans of group `g`'s rank. */
  guards(g: number, rank: number): Span[] {
    return (this.placed[g] as Placed).layout.guards(rank);
  }

  /** Host bytes of device pages allocated (touched) so far. */
  get pageBytes(): number {
    return this.device.memory.allocatedBytes;
  }

  /** Give the device's memory back (the device must not be used after). */
  release(): void {
    this.device.memory.release();
  }

  prefill(): void {
    const mem = this.device.memory;
    for (const p of this.placed) {
      for (let r = 0; r < p.plan.ranks; r++) {
        for (const g of p.layout.guards(r)) mem.fill(g.addr, g.bytes, GUARD_FILL);
        for (const b of ["output", "scratch"] as const) {
          const s = p.layout.buffer(r, b);
          if (s.bytes > 0) mem.fill(s.addr, s.bytes, OUTPUT_FILL);
        }
      }
    }
  }

  /** Post every packet of a group's leg on its rank's queue; a full ring first drains the device. */
  private post(p: Placed, leg: Leg): void {
    const q = legQueue(this.profile, this.lnc, p.deviceRank[leg.rank] as number, leg.queue);
    this.seedOf.set(q.engine * 0x10000 + q.queue, [leg.rank, leg.queue]);
    const addr = (ref: BufRef, plus: number) => p.layout.addr(ref, plus);
    const calls = legCalls(this.profile, leg, p.plan.dtype, p.plan.op, addr);
    postLegCalls(this.rings.get(q), calls, leg.id, () => this.run());
  }

  run(): void {
    drainDeviceCount(this.device, "device");
  }

  /** Every group's legs: each round posts each group's next batch of independent legs, then runs. */
  execute(): void {
    const at = this.placed.map(() => 0);
    for (;;) {
      let posted = false;
      this.placed.forEach((p, k) => {
        const legs = p.plan.legs;
        const first = at[k] as number;
        let i = first;
        while (i < legs.length && (legs[i] as Leg).after.every((a) => a < first))
          this.post(p, legs[i++] as Leg);
        posted ||= i > first;
        at[k] = i;
      });
      if (!posted) return;
      this.run();
    }
  }
}
