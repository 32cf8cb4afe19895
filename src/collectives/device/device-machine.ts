/**
 * Runs a plan on the simulated device, with the device's memory as the only data path: each leg's
 * packets go through the runtime's builders (add_dma_packet for a copy, add_dma_packet_cce for a
 * reduce-copy or a duplication) into the TX / RX rings of the leg's rank and channel, the doorbell
 * rings, and the engine executes the descriptor bytes.
 *
 * MODEL (queues): with L = lnc physical cores per rank and C = cores / L logical cores per device,
 * rank r is logical core r mod C (physical cores L·(r mod C) …), and its channel c is DMA engine
 * (L·(r mod C) + ⌊c / enginesPerCore⌋) · enginesPerCore + c mod enginesPerCore, queue ⌊r / C⌋ of
 * that engine — so the ranks of one chip use their own cores' engines, an LNC = 2 rank drives both
 * of its cores' engines, and the chips of a run share the device's engines by queue. A run needs
 * ranks ≤ C × queues per engine (Trn1 32; Trn2 / Trn3 128 at LNC 1, 64 at LNC 2); beyond that only
 * --timing-only runs.
 *
 * Ordering: legs are posted in plan order (a leg's `after` are earlier legs) and the device runs
 * each leg to completion before the next is posted — the host-side equivalent of the semaphore wait
 * between ring steps. On hardware a step's independent legs run at once, their queues round-robin;
 * independent legs give the same bytes in any order, and one queue at a time keeps a leg's data,
 * ring slots and descriptors in cache (the 8-rank 64 MiB bf16 ring all-reduce's execute ≈ 15 %
 * faster than 256 queues round-robin). On several threads (threads/threaded-execute.ts) each
 * thread runs its ranks' legs this way, in plan order, on a machine of its own over the same memory.
 * Timing does not come from here (see schedule.ts): the engine's events only feed the trace.
 */
import { DeviceFault, isEinval, UsageError } from "../../bits/errors.js";
import {
  Device,
  type EngineEvent,
  HBM_BASE,
  type MemorySpan,
  PAGE_BYTES,
  pageNumber,
  pageOffset,
} from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { Sb2sbPacket } from "../../isa/index.js";
import type { OverflowPolicy } from "../../numerics/index.js";
import {
  DeferredDoorbell,
  drainDevice,
  drainDeviceCount,
  type PacketTemplate,
  postHostPacket,
  type QueueId,
  RegisterDoorbell,
  type Vring,
  VringPool,
} from "../../runtime/index.js";
import { hbmStackOf } from "../../spec/address-map.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { DESCRIPTOR_BYTES } from "../../spec/packet-model.js";
import { legCalls, shapeKey } from "../plan/leg-calls.js";
import { isSb2sb, queueSeed } from "../plan/packets.js";
import type { BufRef, Leg, Plan } from "../plan/plan.js";
import { formatBytes } from "../report/format-bytes.js";
import {
  BufferLayout,
  type BufferReader,
  GUARD_FILL,
  type InputTarget,
  OUTPUT_FILL,
  type StackPlacement,
} from "./buffer-layout.js";
import { PacketPoster } from "./packet-poster.js";

/** Descriptor slots per ring (MODEL: 1024, 16 KiB a ring; a full ring drains the device first). */
export const RING_SLOTS = 1024;

export interface MachineOptions {
  /** Stochastic rounding seed; RNE when undefined. */
  readonly srSeed?: number;
  readonly overflow: OverflowPolicy;
  /**
   * Host bytes the device's memory may allocate (engine Device memoryBudget): the run's host budget,
   * so a run the estimate under-counted is stopped by the allocator, not by the host. Unbounded when
   * undefined.
   */
  readonly memoryBudget?: number;
  /**
   * Keep {@link DeviceMachine.events}, each engine event with its leg (default true); false counts
   * the packets only ({@link DeviceMachine.packets}): no object a packet nor queue matching.
   */
  readonly keepEvents?: boolean;
  /** Device memory in shared memory, for worker threads to write inputs and check outputs in place. */
  readonly sharedMemory?: boolean;
}

/**
 * The plan's legs in batches of mutually independent legs, as [first, end) (plan order; a batch
 * ends at the first leg that depends on one in it): a ring step.
 */
export function batches(plan: Plan): [number, number][] {
  const legs = plan.legs;
  const out: [number, number][] = [];
  let i = 0;
  while (i < legs.length) {
    const first = i;
    while (i < legs.length && (legs[i] as Leg).after.every((a) => a < first)) i++;
    out.push([first, i]);
  }
  return out;
}

/** The most ranks of `lnc` physical cores each the device can run with data. */
export function maxDeviceRanks(profile: ArchProfile, lnc: 1 | 2 = 1): number {
  return (profile.neuronCores / lnc) * profile.queuesPerEngine;
}

/** @throws UsageError when a device cannot run `ranks` ranks of `lnc` cores each with data. */
export function checkDeviceRanks(ranks: number, profile: ArchProfile, lnc: 1 | 2): void {
  const most = maxDeviceRanks(profile, lnc);
  if (ranks > most) {
    throw new UsageError(
      `${ranks} ranks: a ${profile.name} device runs at most ${most} at LNC ${lnc} with data; use --timing-only`,
    );
  }
}

/**
 * Post a leg's runtime calls to its ring, each packet then `posted()`; a full ring first runs the
 * device (`drain`) to make room.
 * @throws DeviceFault when the runtime refuses a packet.
 */
export function postLegCalls(
  vring: Vring,
  calls: Iterable<Sb2sbPacket>,
  legId: number,
  drain: () => void,
  posted?: () => void,
): void {
  for (const call of calls) {
    // add_dma_packet / add_dma_packet_cce's bytes from the vring's template of the call's shape
    // (no descriptor objects made: nothing reads them back).
    const written = postHostPacket(vring, call, drain);
    if (isEinval(written))
      throw new DeviceFault(`leg ${legId}: the runtime refused the packet: ${written.message}`);
    posted?.();
  }
}

/** MODEL (queues, above): the engine and queue of rank r's channel c. */
export function legQueue(p: ArchProfile, lnc: number, rank: number, channel: number): QueueId {
  const logical = p.neuronCores / lnc;
  const core = (rank % logical) * lnc + Math.floor(channel / p.dmaEnginesPerCore);
  return {
    engine: core * p.dmaEnginesPerCore + (channel % p.dmaEnginesPerCore),
    queue: Math.floor(rank / logical),
  };
}

/** The inverse of {@link legQueue}: [rank, channel]. */
function rankAndChannel(p: ArchProfile, lnc: number, q: QueueId): [number, number] {
  const core = Math.floor(q.engine / p.dmaEnginesPerCore);
  const rank = q.queue * (p.neuronCores / lnc) + Math.floor(core / lnc);
  return [rank, (core % lnc) * p.dmaEnginesPerCore + (q.engine % p.dmaEnginesPerCore)];
}

/** The ring slots of every queue: one TX and one RX ring of RING_SLOTS each. */
export const RING_AREA = { ringBase: HBM_BASE, slots: RING_SLOTS } as const;
const RING_PAIR_BYTES = 2n * BigInt(RING_SLOTS * DESCRIPTOR_BYTES);

/** The first NeuronCore whose HBM stack is `stack` (cores of a stack are contiguous). */
function firstCoreOf(profile: ArchProfile, stack: number): number {
  let c = 0;
  while (c < profile.neuronCores - 1 && hbmStackOf(profile, c) < stack) c++;
  return c;
}

/**
 * Where queue q's TX ring sits (its RX ring right after): in the HBM stack of its engine's core,
 * the queues of the stack's engines one after another from the stack's base.
 */
export function ringBaseOf(profile: ArchProfile, q: QueueId): bigint {
  const epc = profile.dmaEnginesPerCore;
  const stack = hbmStackOf(profile, Math.floor(q.engine / epc));
  const first = firstCoreOf(profile, stack) * epc;
  const key = (q.engine - first) * profile.queuesPerEngine + q.queue;
  return (profile.addressMap.hbmStacks[stack]?.base ?? HBM_BASE) + BigInt(key) * RING_PAIR_BYTES;
}

/** Where each HBM stack's ring area ends: after the rings of every queue of its cores' engines. */
export function ringAreaEnds(profile: ArchProfile): bigint[] {
  return profile.addressMap.hbmStacks.map((s, i) => {
    let cores = 0;
    for (let c = 0; c < profile.neuronCores; c++) if (hbmStackOf(profile, c) === i) cores++;
    return s.base + BigInt(cores * profile.dmaEnginesPerCore * profile.queuesPerEngine) * RING_PAIR_BYTES;
  });
}

/** The ring pool's options of a run on `profile`: every ring in its engine's stack. */
export function ringOptions(profile: ArchProfile) {
  return { ...RING_AREA, ringBaseOf: (q: QueueId) => ringBaseOf(profile, q) };
}

/** The HBM stack of rank `rank`'s NeuronCore (its first core's, as {@link legQueue} maps it). */
export function rankStack(profile: ArchProfile, lnc: number, rank: number): number {
  const core = Math.floor(legQueue(profile, lnc, rank, 0).engine / profile.dmaEnginesPerCore);
  return hbmStackOf(profile, core);
}

/**
 * The placement of a run's ranks: each rank in the HBM stack of its core, after that stack's
 * rings. `deviceRank` maps a plan rank to the device rank whose queues it uses (concurrent
 * groups); `starts` overrides where each stack's free space begins.
 */
export function stackPlacement(
  profile: ArchProfile,
  lnc: number,
  deviceRank: (rank: number) => number = (r) => r,
  starts?: readonly bigint[],
): StackPlacement {
  return {
    starts: starts ?? ringAreaEnds(profile),
    stackOf: (r) => rankStack(profile, lnc, deviceRank(r)),
  };
}

/**
 * Where a plan's buffers sit on the device (the stack of each rank's core; stack 0 after the ring
 * area), known before any device or buffer exists (only the plan's sizes are read).
 */
export function deviceLayout(plan: Plan, profile: ArchProfile): BufferLayout {
  return new BufferLayout(plan, stackPlacement(profile, plan.lnc));
}

/**
 * @throws UsageError when the layout's buffers do not fit the profile's HBM: all of them, or those
 * of one stack.
 */
export function checkHbm(layout: BufferLayout, profile: ArchProfile): void {
  const stacks = profile.addressMap.hbmStacks;
  const used = layout.stackEnds.map((end, i) => end - (stacks[i]?.base ?? HBM_BASE));
  const total = used.reduce((a, b) => a + b, 0n);
  const hint = "use --timing-only, fewer ranks or a smaller size";
  if (total > profile.hbmBytes) {
    throw new UsageError(
      `the buffers need ${formatBytes(Number(total))} of HBM; ${profile.name} has ${formatBytes(Number(profile.hbmBytes))}: ${hint}`,
    );
  }
  used.forEach((bytes, i) => {
    const stack = stacks[i];
    if (stack !== undefined && bytes > stack.bytes) {
      throw new UsageError(
        `the buffers of the ranks in HBM stack ${i} need ${formatBytes(Number(bytes))}; a ${profile.name} stack holds ${formatBytes(Number(stack.bytes))} (each rank's buffers sit in its core's stack): ${hint}`,
      );
    }
  });
}

export class DeviceMachine {
  readonly device: Device;
  readonly layout: BufferLayout;
  private readonly rings: VringPool;
  /** Every engine event, in execution order, with the leg that posted it (none unless keepEvents). */
  readonly events: { readonly leg: number; readonly event: EngineEvent }[] = [];
  /** Packets the device has executed. */
  packets = 0;
  private readonly pending: number[] = [];
  /** The doorbells with counts to ring before the device next runs (one write a ring per leg). */
  private readonly bells: DeferredDoorbell[] = [];
  /** Each vring's packet templates by leg shape (postPackets). */
  private readonly shapes = new Map<Vring, Map<number, PacketTemplate>>();
  /** The address of a buffer element (legCalls' `addr`), made once rather than per leg. */
  private readonly addr = (ref: BufRef, plus: number): bigint => this.layout.addr(ref, plus);
  /** Posts the packets of the legs that are not SB2SB. */
  private readonly poster: PacketPoster;

  /** @throws UsageError when the plan has more ranks than the device has queues for. */
  constructor(
    readonly plan: Plan,
    readonly profile: ArchProfile,
    readonly opts: MachineOptions,
  ) {
    checkDeviceRanks(plan.ranks, profile, plan.lnc);
    // The events go to `events` (with their legs) from each run()'s report: the device keeps none.
    this.device = new Device(profile, {
      overflow: opts.overflow,
      keepEvents: false,
      ...(opts.memoryBudget === undefined ? {} : { memoryBudget: opts.memoryBudget }),
      sharedMemory: opts.sharedMemory === true,
    });
    const { srSeed } = opts;
    const listBell = (bell: DeferredDoorbell) => this.bells.push(bell);
    this.rings = new VringPool(this.device, {
      ...ringOptions(profile),
      knownFree: true,
      doorbellOf: (q) => new DeferredDoorbell(new RegisterDoorbell(this.device.regs, profile, q), listBell),
      ...(srSeed === undefined
        ? {}
        : { srSeedOf: (q: QueueId) => queueSeed(srSeed, ...rankAndChannel(profile, plan.lnc, q)) }),
    });
    this.layout = deviceLayout(plan, profile);
    checkHbm(this.layout, profile);
    const pending = opts.keepEvents === false ? undefined : this.pending;
    this.poster = new PacketPoster(profile, plan.dtype, plan.op, this.addr, () => this.run(), pending);
  }

  /**
   * Paint the guards and pre-fill outputs and scratch, in place in device memory (no buffer of a
   * buffer's size is made); inputs are then written by {@link writeInput}.
   */
  prefill(): void {
    const mem = this.device.memory;
    for (let r = 0; r < this.plan.ranks; r++) {
      for (const g of this.layout.guards(r)) mem.fill(g.addr, g.bytes, GUARD_FILL);
      for (const b of ["output", "scratch"] as const) {
        const s = this.layout.buffer(r, b);
        if (s.bytes > 0) mem.fill(s.addr, s.bytes, OUTPUT_FILL);
      }
    }
  }

  /** Write input bytes of a rank, starting at element `firstElem` (inputs/generateInputs' sink). */
  writeInput(rank: number, firstElem: number, bytes: Uint8Array): void {
    this.device.memory.write(this.layout.addr({ rank, buffer: "input", elem: firstElem }), bytes);
  }

  /**
   * Inputs drawn straight into device memory (inputs.ts InputTarget): the bytes from an element to
   * its page's end, a view to overwrite whole, reported written after; the same bytes as
   * {@link writeInput} writes, without the copy.
   */
  inputTarget(): InputTarget {
    const mem = this.device.memory;
    const addr = (rank: number, elem: number) => this.layout.addr({ rank, buffer: "input", elem });
    return {
      view: (rank, firstElem, maxBytes) => {
        const a = addr(rank, firstElem);
        const toPageEnd = PAGE_BYTES - Number(a % BigInt(PAGE_BYTES));
        return mem.poke(a, Math.min(maxBytes, toPageEnd), "write", true);
      },
      written: (rank, firstElem, bytes) => {
        const a = Number(addr(rank, firstElem));
        mem.overwritten(pageNumber(a), pageOffset(a), bytes);
      },
    };
  }

  /**
   * A reader of buffer elements for the checks (verify.ts): a view of device memory in place when
   * the span lies in one page, else a copy into a reused tile of `maxElems`.
   */
  reader(maxElems: number): BufferReader {
    const eb = dtypeBytes(this.plan.dtype);
    const tile = new Uint8Array(maxElems * eb);
    const mem = this.device.memory;
    return (rank, buffer, from, len) => {
      const addr = this.layout.addr({ rank, buffer, elem: from });
      const bytes = len * eb;
      const view = mem.peek(addr, bytes);
      if (view !== undefined) return view;
      const out = tile.subarray(0, bytes);
      mem.readInto(addr, out);
      return out;
    };
  }

  /**
   * A rank's whole buffer as pieces of shared device memory for a worker thread
   * (engine DeviceMemory.spansOf; `write`: the worker writes all of it before it is read).
   */
  spans(rank: number, buffer: "input" | "output", write: boolean): MemorySpan[] {
    const s = this.layout.buffer(rank, buffer);
    return this.device.memory.spansOf(s.addr, s.bytes, write);
  }

  /** Host bytes of device pages this machine has allocated (touched). */
  get pageBytes(): number {
    return this.device.memory.allocatedBytes;
  }

  /**
   * Give the device's memory back for the next machine to reuse (engine/page-arenas): this machine
   * must not be used after. What a run does once it has read what it needs, so a sweep's peak is
   * its largest size, not the sum.
   */
  release(): void {
    this.device.memory.release();
    this.events.length = 0;
  }

  private vring(leg: Leg): Vring {
    return this.rings.get(legQueue(this.profile, this.plan.lnc, leg.rank, leg.queue));
  }

  /**
   * Post every packet of a leg; a full ring first drains what is posted. A leg's packets differ
   * only in their addresses (and the last in its size): each shape's first packet is posted from
   * its runtime request, the rest from that request's template re-pointed (no request, bigint or
   * descriptor object a packet). SB2SB legs post their staged calls.
   */
  post(leg: Leg): void {
    if (!isSb2sb(leg)) {
      const vring = this.vring(leg);
      this.poster.post(leg, vring, this.shapesOf(vring));
      return;
    }
    const calls = legCalls(this.profile, leg, this.plan.dtype, this.plan.op, this.addr);
    postLegCalls(
      this.vring(leg),
      calls,
      leg.id,
      () => this.run(),
      this.opts.keepEvents === false ? undefined : () => this.pending.push(leg.id),
    );
  }

  /** The templates posted on a vring, by {@link shapeKey}. */
  private shapesOf(vring: Vring): Map<number, PacketTemplate> {
    let shapes = this.shapes.get(vring);
    if (shapes === undefined) {
      shapes = new Map();
      this.shapes.set(vring, shapes);
    }
    return shapes;
  }

  /** Run the device until every posted packet has executed. @throws DeviceFault on a fault or stall. */
  run(): void {
    for (const bell of this.bells) bell.flush();
    this.bells.length = 0;
    if (this.opts.keepEvents === false) {
      this.packets += drainDeviceCount(this.device, "device");
      return;
    }
    const report = drainDevice(this.device, "device");
    this.packets += report.events.length;
    // Queues run round-robin, so events come out interleaved; match them to legs by queue order
    // (a queue's legs in posting order, read from a cursor: no shift, no string keys).
    const byQueue = new Map<number, { readonly ids: number[]; next: number }>();
    const key = (engine: number, queue: number) => engine * 0x10000 + queue;
    let last = -1;
    let ids: number[] = [];
    for (const id of this.pending) {
      // A leg's packets are pending one after another: its queue's list is looked up once.
      if (id !== last) {
        const leg = this.plan.legs[id] as Leg;
        const q = legQueue(this.profile, this.plan.lnc, leg.rank, leg.queue);
        const k = key(q.engine, q.queue);
        const list = byQueue.get(k) ?? { ids: [], next: 0 };
        byQueue.set(k, list);
        ids = list.ids;
        last = id;
      }
      ids.push(id);
    }
    this.pending.length = 0;
    for (const event of report.events) {
      const list = byQueue.get(key(event.engine, event.queue));
      const leg = list !== undefined && list.next < list.ids.length ? (list.ids[list.next++] as number) : -1;
      this.events.push({ leg, event });
    }
  }

  /**
   * Execute the whole plan, leg by leg (ordering above); `onBatch` is told the legs done at the end
   * of each batch of mutually independent legs (plan order, a batch ends at the first leg that
   * depends on one in it): a ring step.
   */
  execute(onBatch?: (legsDone: number) => void): void {
    for (const [first, end] of batches(this.plan)) {
      this.runLegs(first, end);
      onBatch?.(end);
    }
  }

  /** Post and run legs [from, to) of the plan in order (those `mine` keeps, when given). */
  runLegs(from: number, to: number, mine?: (leg: Leg) => boolean): void {
    const legs = this.plan.legs;
    for (let i = from; i < to; i++) {
      const leg = legs[i] as Leg;
      if (mine !== undefined && !mine(leg)) continue;
      this.post(leg);
      this.run();
    }
  }

  /** Read a rank's buffer back. */
  read(rank: number, buffer: "input" | "output" | "scratch"): Uint8Array {
    const s = this.layout.buffer(rank, buffer);
    return this.device.memory.read(s.addr, s.bytes);
  }
}
