// Every temporary file and folder of a test run, the tests' own and those of the processes they start
// (the CLI, npm pack, Chromium), goes into one folder made for the run and removed after it: a file
// left behind by a test that failed half-way, or by a process vitest ended with a signal, does not
// stay in the machine's temp folder run after run (≈ 40 folders and 45 MB a run before).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Set while a run's folder is in use: each vitest project runs this setup, the first one makes it. */
const RUN_DIR = "SDMAKIT_TEST_RUN_DIR";

export function setup(): () => void {
  if (process.env[RUN_DIR] !== undefined) return () => {};
  const saved = process.env.TMPDIR;
  const run = mkdtempSync(join(tmpdir(), "sdmakit-test-run-"));
  // Read by os.tmpdir() in the test workers, which start after this, and in their subprocesses.
  process.env.TMPDIR = run;
  process.env[RUN_DIR] = run;
  return () => {
    delete process.env[RUN_DIR];
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(run, { recursive: true, force: true });
  };
}
