/**
 * The events plan of a 0xBF word on the engine's event-block semaphores (seed 002 §6): the wait
 * reads the issuing core's semaphore through its read window before issue; the update is a 4-byte
 * plain copy into a window of the peer's semaphore on completion (src/spec/packet-model.ts
 * "Completion"), so the engine itself changes the semaphore when it executes that write.
 */
import type { SemaphoreWindow } from "../engine/index.js";
import type { SemaphoreUpdate, SemaphoreWait } from "./sb2sb-events.js";

/**
 * Does a wait hold for the semaphore's current value (both u32)?
 * @example waitHolds({ index: 3, compare: "ge", value: 2 }, 2) // true
 */
export function waitHolds(wait: SemaphoreWait, current: number): boolean {
  switch (wait.compare) {
    case "eq":
      return current === wait.value;
    case "lt":
      return current < wait.value;
    case "le":
      return current <= wait.value;
    case "gt":
      return current > wait.value;
    case "ge":
      return current >= wait.value;
  }
}

/**
 * Which semaphore window the completion write goes to, and the word it writes: INC / ADD → the
 * increment window, DEC / SUB → the decrement window, WR → the set window (GROUND_TRUTH windows).
 * @example updateWrite({ index: 4, action: "inc", value: 1, when: "complete" }) // { window: "increment", value: 1 }
 */
export function updateWrite(update: SemaphoreUpdate): { window: SemaphoreWindow; value: number } {
  const window: SemaphoreWindow =
    update.action === "inc" || update.action === "add"
      ? "increment"
      : update.action === "dec" || update.action === "sub"
        ? "decrement"
        : "set";
  return { window, value: update.value >>> 0 };
}
