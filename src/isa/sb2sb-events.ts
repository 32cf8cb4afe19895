/**
 * What the events field of a 0xBF word asks of the engine (seed 002 §6): wait on a semaphore before
 * issue, update one on completion. The mode tables are the MODEL of `header-events-model.ts`.
 */
import { UsageError } from "../bits/errors.js";
import { UPDATE_COMPLETE_OFFSET, UPDATE_MODE_NAMES, WAIT_MODE_NAMES } from "./header-events-model.js";
import type { S3d3Word } from "./s3d3-word.js";

/** A semaphore comparison the instruction waits on: sem[index] <cmp> value. */
export interface SemaphoreWait {
  readonly index: number;
  readonly compare: "eq" | "lt" | "le" | "gt" | "ge";
  readonly value: number;
}

/** A semaphore update on completion (or when the reads are done, for the `_READ` modes). */
export interface SemaphoreUpdate {
  readonly index: number;
  readonly action: "inc" | "dec" | "add" | "sub" | "write";
  readonly value: number;
  readonly when: "read" | "complete";
}

/** The wait and update of one word; undefined = mode NONE. */
export interface EventsPlan {
  readonly wait?: SemaphoreWait;
  readonly update?: SemaphoreUpdate;
}

const WAIT_COMPARE: Readonly<Record<number, SemaphoreWait["compare"]>> = {
  1: "eq",
  2: "lt",
  3: "le",
  4: "gt",
  5: "ge",
};
const UPDATE_ACTION: Readonly<Record<number, SemaphoreUpdate["action"]>> = {
  3: "inc",
  4: "dec",
  5: "add",
  7: "sub",
  9: "write",
};

/**
 * The semaphore wait and update of an events field. Only the immediate semaphore modes are modelled.
 * @throws UsageError for an event-flag or register mode (sdmakit models semaphores, not event flags or registers).
 * @example eventsPlan({ ...word, "events.wait_mode": 5, "events.wait_idx": 3, "events.update_mode": 3, "events.update_idx": 4, "events.semaphore_value": 1 })
 *   // { wait: { index: 3, compare: "ge", value: 1 }, update: { index: 4, action: "inc", value: 1, when: "read" } }
 */
export function eventsPlan(w: Pick<S3d3Word, `events.${string}` & keyof S3d3Word>): EventsPlan {
  const waitMode = w["events.wait_mode"];
  const updateMode = w["events.update_mode"];
  const semaphoreValue = w["events.semaphore_value"];
  let wait: SemaphoreWait | undefined;
  let update: SemaphoreUpdate | undefined;
  if (waitMode !== 0) {
    const compare = WAIT_COMPARE[waitMode];
    if (compare === undefined)
      throw new UsageError(
        `wait_mode ${WAIT_MODE_NAMES[waitMode] ?? waitMode} is not modelled (only NONE and SEM_*_IMM)`,
      );
    wait = { index: w["events.wait_idx"], compare, value: semaphoreValue };
  }
  if (updateMode !== 0) {
    const complete = updateMode > UPDATE_COMPLETE_OFFSET;
    const action = UPDATE_ACTION[complete ? updateMode - UPDATE_COMPLETE_OFFSET : updateMode];
    if (action === undefined)
      throw new UsageError(
        `update_mode ${UPDATE_MODE_NAMES[updateMode] ?? updateMode} is not modelled (only NONE and SEM_*)`,
      );
    // MODEL: INC / DEC move by 1; ADD / SUB / WR use semaphore_value.
    const value = action === "inc" || action === "dec" ? 1 : semaphoreValue;
    update = { index: w["events.update_idx"], action, value, when: complete ? "complete" : "read" };
  }
  return { ...(wait && { wait }), ...(update && { update }) };
}
