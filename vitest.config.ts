import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Files that need a process of their own: vi.mock replaces a module for the whole worker, the
 * mutation test patches DeviceMemory's prototype, and the two largest runs would leave their arenas
 * (up to 4 GiB, the free list's bound) held by a shared worker for the files after them. Also the
 * two long files that only run subprocesses (npm pack, the README's commands): a shared module
 * graph saves them nothing, and vitest starts this project's files first (projects in name order),
 * so on a fresh clone (no timings cached) no long file starts last and ends the run alone.
 */
const ISOLATED = [
  "test/cli/stream.test.ts",
  "test/collectives/front-half.test.ts",
  "test/collectives/sparse-plans.test.ts",
  "test/fuzz/mutation.test.ts",
  "test/collectives/large.test.ts",
  "test/collectives/large-fp8.test.ts",
  "test/package/pack.test.ts",
  "test/docs/readme.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    globalSetup: ["test/global-setup.ts"],
    // vitest's default is one worker fewer than the cores: one worker on the 2-core machines we
    // develop and test on, so every file ran in turn. The main process only collects results, so
    // a worker per core runs the two slowest files (large.test.ts, large-fp8.test.ts) side by side.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        // One module graph a worker: a fresh one for each of 160 files cost about a second of
        // imports each (the library's modules evaluated again, cold JIT) — more than half the CPU
        // time of the small files.
        test: { name: "shared", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
