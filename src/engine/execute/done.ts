/**
 * A packet's event as the executor makes it: one object literal per shape, or (while nothing keeps
 * the events: Device.runCount) one object of each shape filled in place packet after packet.
 */
import type { AluOp } from "../../numerics/index.js";
import type { EngineEvent, WorkKind } from "./events.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A packet's event: what it did, then where it ran (run()) and when (the device). */
export type Done = Mutable<EngineEvent>;

/**
 * A packet's event with every field in its one literal: fields added to an object after its literal
 * live out of it, in a property array grown (and copied) as they come — three times a packet.
 * Two literals, as a copy's event has no `op` key at all. With `reuse`, that shape's object is
 * filled instead (Executor.reuseWork).
 */
export function doneOf(
  kind: WorkKind,
  op: AluOp | undefined,
  bytesRead: number,
  bytesWritten: number,
  sources: number,
  destinations: number,
  reuse?: Reused,
): Done {
  if (reuse !== undefined) {
    const d = op === undefined ? reuse.plain : reuse.withOp;
    d.kind = kind;
    if (op !== undefined) d.op = op;
    d.bytesRead = bytesRead;
    d.bytesWritten = bytesWritten;
    d.sources = sources;
    d.destinations = destinations;
    return d;
  }
  // Where and when: placeholders, set by run() and the device. Two literals, not one with an
  // optional op: each keeps one object shape (op absent or present) for the engine's hot loop.
  if (op === undefined) {
    return {
      kind,
      bytesRead,
      bytesWritten,
      sources,
      destinations,
      engine: 0,
      queue: 0,
      descriptors: 0,
      txSlot: 0,
      rxSlot: 0,
      barrier: false,
      start: 0,
      end: 0,
    };
  }
  return {
    kind,
    op,
    bytesRead,
    bytesWritten,
    sources,
    destinations,
    engine: 0,
    queue: 0,
    descriptors: 0,
    txSlot: 0,
    rxSlot: 0,
    barrier: false,
    start: 0,
    end: 0,
  };
}

/** An event object of each of doneOf's shapes, filled in place packet after packet. */
export interface Reused {
  readonly plain: Done;
  readonly withOp: Done;
}
