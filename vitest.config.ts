import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // vitest's default is one worker fewer than the cores: one worker on the 2-core machines we
    // develop and test on, so every file ran in turn. The main process only collects results, so
    // a worker per core runs the two slowest files (large.test.ts, large-fp8.test.ts) side by side.
    maxWorkers: availableParallelism(),
  },
});
