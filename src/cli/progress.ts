/**
 * A progress line on stderr for long runs, weighted by work, with the elapsed time and an estimate
 * of what is left — from the pace since the first step ended (`settled`), so one-time costs (module
 * loading, WebAssembly compiling, first-touch of pages) do not stretch the estimate of the rest; no
 * estimate before then. It appears once a run has lasted a second. On a terminal it redraws one line and
 * erases itself when done; elsewhere (a log file, CI) it writes a whole line at most every
 * LOG_INTERVAL_MS. The clock is injected so tests never read the real one.
 */
import type { Io } from "./command.js";

export interface Progress {
  /** Report progress in 0..1 with a label. */
  update(fraction: number, label: string): void;
  /** Erase the line (if shown on a terminal). */
  done(): void;
  /** The warm-up is over at `fraction`: estimate from the pace after it. */
  settled(fraction: number): void;
}

/** Show after this many ms. */
export const PROGRESS_DELAY_MS = 1000;
/** Off a terminal, one line at most this often. */
export const LOG_INTERVAL_MS = 5000;
const WIDTH = 30;

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/**
 * @param mode off, a redrawn terminal line, or whole lines for a log
 * @param now the clock in ms
 */
export function createProgress(io: Io, mode: "off" | "tty" | "log", now: () => number): Progress {
  const began = now();
  let shown = false;
  let lastLog = began;
  let since: { t: number; f: number } | undefined;
  return {
    update(fraction, label) {
      const t = now();
      if (mode === "off" || t - began < PROGRESS_DELAY_MS) return;
      if (mode === "log" && t - lastLog < LOG_INTERVAL_MS) return;
      lastLog = t;
      const f = Math.min(1, Math.max(0, fraction));
      const elapsed = t - began;
      const pace = since === undefined || f <= since.f ? undefined : (t - since.t) / (f - since.f);
      const eta = pace === undefined ? "" : ` ~${clock(pace * (1 - f))} left`;
      const text = `${(f * 100).toFixed(0).padStart(3)}% ${clock(elapsed)}${eta} ${label}`;
      if (mode === "log") {
        io.err(`progress: ${text}\n`);
        return;
      }
      const full = Math.round(f * WIDTH);
      io.err(`\r[${"#".repeat(full)}${"-".repeat(WIDTH - full)}] ${text}\x1b[K`);
      shown = true;
    },
    done() {
      if (shown) io.err("\r\x1b[K");
      shown = false;
    },
    settled(fraction) {
      since ??= { t: now(), f: fraction };
    },
  };
}
