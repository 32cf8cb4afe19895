// Preloaded into the CLI by tests (node --import): counts the rows the process tried to write to
// stdout (one write a row) and says so on stderr at exit; with PROBE_SIGNAL=NAME:N it sends itself
// the signal right after its N-th stdout write — a signal mid-sweep with no clock in the test. With
// PROBE_HOLD=N:FILE it waits after its N-th stdout write until FILE exists (the test makes it once it
// has closed the pipe), so the next write is the one that meets the closed pipe, however loaded the
// machine: the sweep does not run on while the test's end of the pipe is slow to close.
import { existsSync, writeSync } from "node:fs";

let writes = 0;
const [signal, after] = (process.env.PROBE_SIGNAL ?? ":").split(":");
// Split at the first colon only: the file's path may hold more.
const [, holdAfter, holdUntil] = /^([^:]*):(.*)$/.exec(process.env.PROBE_HOLD ?? "") ?? [];
/**
 * Looks for the file a hold waits for, 5 ms apart: at most ≈ 20 s, so a test that never makes it
 * fails on its count, it does not hang.
 */
const HOLD_LOOKS = 4000;

/** Block this thread until `file` exists or it has looked HOLD_LOOKS times (no clock read). */
function holdUntilExists(file) {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let look = 0; look < HOLD_LOOKS && !existsSync(file); look++) Atomics.wait(sleeper, 0, 0, 5);
}

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => {
  writes++;
  if (signal && writes === Number(after)) process.kill(process.pid, signal);
  const written = write(...args);
  if (holdUntil && writes === Number(holdAfter)) holdUntilExists(holdUntil);
  return written;
};
process.on("exit", () => {
  try {
    writeSync(2, `probe: ${writes} stdout writes\n`);
  } catch {
    // stderr closed on purpose by the test
  }
});
