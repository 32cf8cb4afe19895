/**
 * A progress bar on stderr for long runs: it appears only once a run has lasted a second, only
 * when stderr is a terminal (a bar in a log file is noise), and erases itself when done. The clock
 * is injected so tests never read the real one.
 */
import type { Io } from "./command.js";

export interface Progress {
  /** Report progress in 0..1 with a label. */
  update(fraction: number, label: string): void;
  /** Erase the bar (if shown). */
  done(): void;
}

/** Show after this many ms. */
export const PROGRESS_DELAY_MS = 1000;
const WIDTH = 30;

/**
 * @param enabled false for a non-terminal stderr or machine output (--json)
 * @param now the clock in ms
 */
export function createProgress(io: Io, enabled: boolean, now: () => number): Progress {
  const began = now();
  let shown = false;
  return {
    update(fraction, label) {
      if (!enabled || now() - began < PROGRESS_DELAY_MS) return;
      const f = Math.min(1, Math.max(0, fraction));
      const full = Math.round(f * WIDTH);
      io.err(
        `\r[${"#".repeat(full)}${"-".repeat(WIDTH - full)}] ${(f * 100).toFixed(0).padStart(3)}% ${label}`,
      );
      shown = true;
    },
    done() {
      if (shown) io.err(`\r${" ".repeat(WIDTH + 40)}\r`);
      shown = false;
    },
  };
}
