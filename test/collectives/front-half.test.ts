// Issue 28 part 3, "a run that goes down once": for one all-reduce size the plan is emitted at most
// once per candidate algorithm (the pre-pass records its legs, the placement replays them) plus
// once for the chosen one (the plan the device runs), the topology is built once and the host
// admission is checked once — through the library and through the CLI, whose early check of a
// sweep's largest size is that size's own preparation. The planners, buildTopology and admit are
// wrapped to count calls.
import { describe, expect, it, vi } from "vitest";

const calls = { planners: 0, topology: 0, admit: 0 };
const counted =
  <A extends unknown[], R>(key: keyof typeof calls, f: (...a: A) => R) =>
  (...a: A): R => {
    calls[key]++;
    return f(...a);
  };

vi.mock("../../src/collectives/plan/group-ring.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/plan/group-ring.js")>();
  return { ...real, planGroupRing: counted("planners", real.planGroupRing) };
});
vi.mock("../../src/collectives/plan/mesh.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/plan/mesh.js")>();
  return { ...real, planMesh: counted("planners", real.planMesh) };
});
vi.mock("../../src/collectives/topology/topology.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/topology/topology.js")>();
  return { ...real, buildTopology: counted("topology", real.buildTopology) };
});
vi.mock("../../src/collectives/device/host-memory.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/collectives/device/host-memory.js")>();
  return { ...real, admit: counted("admit", real.admit) };
});

const { candidateAlgorithms, collectiveRun, runSize } = await import("../../src/collectives/index.js");
const { allrCommand } = await import("../../src/cli/index.js");

function countsOf(options: Parameters<typeof collectiveRun>[0], size: number) {
  const run = collectiveRun(options);
  calls.planners = calls.topology = calls.admit = 0;
  const r = runSize(run, size);
  expect(r.row.wrong).toBe(0);
  return { ...calls };
}

describe("one allr size goes down the floors once", () => {
  it("auto: the plan emitted ≤ once per candidate + once, topology built once, admitted once", () => {
    const candidates = candidateAlgorithms("allr").length;
    expect(candidates).toBeGreaterThanOrEqual(3);
    const c = countsOf({ collective: "allr", ranks: 8 }, 1 << 20);
    expect(c.planners).toBeLessThanOrEqual(candidates + 1);
    expect(c.topology).toBe(1);
    expect(c.admit).toBe(1);
  });

  it("one algorithm: the plan emitted twice (timed, then run)", () => {
    for (const algorithm of ["ring", "mesh"] as const) {
      const c = countsOf({ collective: "allr", ranks: 4, algorithm }, 4096);
      expect(c).toEqual({ planners: 2, topology: 1, admit: 1 });
    }
  });

  it("the CLI's early check is the run's own preparation: `allr -r 8 -b 1mb -e 1mb` counts the same", async () => {
    calls.planners = calls.topology = calls.admit = 0;
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: () => {} };
    expect(await allrCommand.run(["-r", "8", "-b", "1mb", "-e", "1mb"], io)).toBe(0);
    expect(out.join("")).toMatch(/^\s*1048576\s/m);
    expect(calls.planners).toBeLessThanOrEqual(candidateAlgorithms("allr").length + 1);
    expect(calls.topology).toBe(1);
    expect(calls.admit).toBe(1);
  });
});
