/**
 * A simulated POOL engine executing one 0xBF word (seed 002 §1, §4.6, §6): validate it, lower it to
 * the per-channel legs the host encoder builds, wait on the issuing core's semaphore, post the legs
 * through the runtime on the device's queues, run the engine, then signal the peer's semaphore with a
 * completion write the engine executes.
 */
import { type Einval, FieldError } from "../bits/errors.js";
import { type Device, type EngineEvent, type SemaphoreWindow, semaphoreAddress } from "../engine/index.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import type { QueueId, WrittenDescriptor } from "../runtime/index.js";
import { LncSizeFmt, type SdmaCceType } from "../spec/enums.js";
import type { S3d3Reason } from "./s3d3-reasons.js";
import { decodeS3d3, type S3d3Word } from "./s3d3-word.js";
import type { EventsPlan, SemaphoreWait } from "./sb2sb-events.js";
import { lowerS3d3Word, type S3d3Lowering, type Sb2sbLeg } from "./sb2sb-lowering.js";
import { type PostedLeg, postSb2sbLegs, Sb2sbQueues, sb2sbChannelQueue } from "./sb2sb-queues.js";
import { updateWrite, waitHolds } from "./sb2sb-semaphores.js";
import { isValidSb2sbCollective } from "./sb2sb-validator.js";

export interface ExecuteS3d3Options {
  /** The NeuronCore whose POOL engine executes the word (0 .. cores − 1). */
  readonly core: number;
  /** Nodes the workload spans (default 1); more is refused with -EINVAL (seed 002 §7.1). */
  readonly nodes?: number;
  /**
   * Drive the leg in reduce-copy mode with this SDMA op (ADD, MAX, MIN). The word has no op (§8): as
   * a collective leg the runtime chooses copy or CCE reduce; default copy.
   */
  readonly reduceOp?: SdmaCceType;
  /** Where the rings start in HBM (default HBM_BASE); the completion word sits right after them. */
  readonly ringBase?: bigint;
}

/** The word failed is_valid_sb2sb_collective on the device's generation: nothing was issued. */
export interface S3d3Invalid {
  readonly status: "invalid";
  readonly reasons: readonly S3d3Reason[];
}

/** The wait did not hold once the device had drained: nothing was issued. */
export interface S3d3Waiting {
  readonly status: "waiting";
  readonly wait: SemaphoreWait;
  /** The event block (NeuronCore) whose semaphore was read. */
  readonly block: number;
  readonly observed: number;
}

/** The completion write that carried the update. */
export interface S3d3Signal {
  readonly block: number;
  readonly index: number;
  readonly window: SemaphoreWindow;
  readonly value: number;
  readonly queue: QueueId;
  readonly written: readonly WrittenDescriptor[];
}

/** The word ran: its legs as posted, the engine's events, the semaphore it signalled. */
export interface S3d3Done {
  readonly status: "done";
  readonly events: EventsPlan;
  readonly legs: readonly Sb2sbLeg[];
  readonly posted: readonly PostedLeg[];
  readonly engineEvents: readonly EngineEvent[];
  readonly signal?: S3d3Signal;
}

export type S3d3Execution = S3d3Invalid | S3d3Waiting | S3d3Done | Einval;

/**
 * The legs and events core `options.core`'s POOL engine issues for a word on this generation, without
 * running anything: lowerS3d3Word over the device's ring of NeuronCores, the LNC grouping the word names.
 * @throws FieldError for a core outside the profile; UsageError for an invalid word (as lowerS3d3Word).
 * @example planS3d3(CAYMAN, word, { core: 2 }).legs[0].dstCore // 3 under LNC2
 */
export function planS3d3(
  profile: ArchProfile,
  word: S3d3Word,
  options: ExecuteS3d3Options,
): S3d3Lowering | Einval {
  const { core } = options;
  if (!Number.isInteger(core) || core < 0 || core >= profile.neuronCores)
    throw new FieldError("execute-s3d3", "core", core, `0..${profile.neuronCores - 1} (${profile.name})`);
  const lnc = word.lnc_size_fmt === LncSizeFmt.LNC2 ? 2 : 1;
  return lowerS3d3Word(
    word,
    { arch: profile, nodes: options.nodes ?? 1, place: { self: core, ringSize: profile.neuronCores, lnc } },
    options.reduceOp,
  );
}

/**
 * Execute a 0xBF word on `device` as core `core`'s POOL engine (decode_sb2sb_collective, seed 002
 * §4.6). The wait is checked after the device has drained what was posted before (so an earlier
 * word's completion can satisfy it). MODEL: one completion write per word, after every channel's
 * packets have executed, on channel 0's queue, to the peer's event block (LNC1: self); a `_READ`
 * update mode signals at the same point (a packet's reads and writes complete together here).
 * @throws DecodeError for fewer than 64 bytes; FieldError for a core outside the device or a move
 * that leaves its SBUF partitions; UsageError for an event mode sdmakit does not model or a
 * register-sourced address; DeviceFault when the engine faults or stalls.
 * @example executeS3d3(new Device("trn2"), bytes, { core: 0 }).status // "done"
 */
export function executeS3d3(
  device: Device,
  word: Uint8Array | S3d3Word,
  options: ExecuteS3d3Options,
): S3d3Execution {
  const w = word instanceof Uint8Array ? decodeS3d3(word) : word;
  const profile = device.profile;
  const { core } = options;
  const verdict = isValidSb2sbCollective(w, { arch: profile });
  if (!verdict.valid) return { status: "invalid", reasons: verdict.reasons };
  const lowering = planS3d3(profile, w, options);
  if ("status" in lowering) return lowering;
  const { events, legs } = lowering;
  const queues = new Sb2sbQueues(device, options.ringBase);
  if (events.wait !== undefined) {
    queues.drain();
    const observed = device.memory.readU32(semaphoreAddress(profile, core, "read", events.wait.index));
    if (!waitHolds(events.wait, observed))
      return { status: "waiting", wait: events.wait, block: core, observed };
  }
  const firstEvent = device.events.length;
  const posted = postSb2sbLegs(queues, legs);
  if ("status" in posted) return posted;
  queues.drain();
  let signal: S3d3Signal | undefined;
  if (events.update !== undefined) {
    const { window, value } = updateWrite(events.update);
    const block = (legs[0] as Sb2sbLeg).dstCore;
    const queue = sb2sbChannelQueue(profile, core, 0);
    // The host-prepared word the completion copy reads: right after the ring area in HBM.
    device.memory.writeU32(queues.end, value);
    const dst = semaphoreAddress(profile, block, window, events.update.index);
    const written = queues.post(queue, { kind: "copy", copy: { src: queues.end, dst, size: 4 } });
    if ("status" in written) return written;
    queues.drain();
    signal = { block, index: events.update.index, window, value, queue, written };
  }
  return {
    status: "done",
    events,
    legs,
    posted,
    engineEvents: device.events.slice(firstEvent),
    ...(signal && { signal }),
  };
}
