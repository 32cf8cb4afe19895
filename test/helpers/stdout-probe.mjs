// Preloaded into the CLI by tests (node --import): counts the rows the process tried to write to
// stdout (one write a row) and says so on stderr at exit; with PROBE_SIGNAL=NAME:N it sends itself
// the signal right after its N-th stdout write — a signal mid-sweep with no clock in the test.
import { writeSync } from "node:fs";

let writes = 0;
const [signal, after] = (process.env.PROBE_SIGNAL ?? ":").split(":");
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => {
  writes++;
  if (signal && writes === Number(after)) process.kill(process.pid, signal);
  return write(...args);
};
process.on("exit", () => {
  try {
    writeSync(2, `probe: ${writes} stdout writes\n`);
  } catch {
    // stderr closed on purpose by the test
  }
});
