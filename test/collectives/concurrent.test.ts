/**
 * Concurrent collectives (replica groups, streams) share the run's resources in the one scheduler:
 * a model test, no clock.
 */
import { describe, expect, it } from "vitest";
import {
  buildTopology,
  groupTopology,
  type PlanRequest,
  scheduleCollective,
  scheduleConcurrent,
  type Topology,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { Dtype } from "../../src/spec/index.js";

const sr = { sr: false };

function allr(
  t: Topology,
  ranks: number[],
  count: number,
  dtype: Dtype = Dtype.BFLOAT16,
): { req: PlanRequest; ranks: number[] } {
  const req: PlanRequest = {
    topology: groupTopology(t, ranks),
    collective: "allr",
    algorithm: "ring",
    dtype,
    op: "sum",
    count,
  };
  return { req, ranks };
}

describe("concurrent collectives", () => {
  it("one member alone is the collective timed on its own (the same scheduler, bit for bit)", () => {
    const t = buildTopology(archProfile("trn2"), 4);
    const a = allr(t, [0, 1], 1 << 22);
    const alone = scheduleConcurrent(t, [a], sr).totalNs[0];
    const own = scheduleCollective({ ...a.req, topology: buildTopology(archProfile("trn2"), 2) }, sr).totalNs;
    expect(alone).toBe(own);
  });

  it("two all-reduces over disjoint groups sharing HBM stacks take longer than either alone", () => {
    // trn2 at LNC 1: cores 0, 1 share stack 0 and cores 2, 3 stack 1, so groups {0, 2} and {1, 3}
    // meet in both stacks (each rank's engines are its own).
    const t = buildTopology(archProfile("trn2"), 4, 1, { lnc: 1 });
    const a = allr(t, [0, 2], 1 << 24);
    const b = allr(t, [1, 3], 1 << 24);
    const aAlone = scheduleConcurrent(t, [a], sr).totalNs[0] as number;
    const bAlone = scheduleConcurrent(t, [b], sr).totalNs[0] as number;
    const both = scheduleConcurrent(t, [a, b], sr).totalNs;
    expect(both[0]).toBeGreaterThan(aAlone);
    expect(both[1]).toBeGreaterThan(bAlone);
  });

  it("on different chips (no link between them used) the groups do not slow each other", () => {
    const t = buildTopology(archProfile("trn2"), 8);
    const a = allr(t, [0, 1, 2, 3], 1 << 22);
    const b = allr(t, [4, 5, 6, 7], 1 << 22);
    const both = scheduleConcurrent(t, [a, b], sr).totalNs;
    expect(both[0]).toBe(scheduleConcurrent(t, [a], sr).totalNs[0]);
    expect(both[1]).toBe(scheduleConcurrent(t, [b], sr).totalNs[0]);
  });

  it("two streams on the same ranks share them; each keeps its own dtype", () => {
    const t = buildTopology(archProfile("trn2"), 4);
    const a = allr(t, [0, 1, 2, 3], 1 << 22);
    const b = allr(t, [0, 1, 2, 3], 1 << 21, Dtype.FP32);
    const aAlone = scheduleConcurrent(t, [a], sr).totalNs[0] as number;
    const bAlone = scheduleConcurrent(t, [b], sr).totalNs[0] as number;
    const both = scheduleConcurrent(t, [a, b], sr);
    expect(both.totalNs[0]).toBeGreaterThan(aAlone);
    expect(both.totalNs[1]).toBeGreaterThan(bAlone);
    // Same bytes (bf16 × 2^22 = fp32 × 2^21), same legs: only the element size differs.
    expect(both.legKinds[0]).toEqual(both.legKinds[1]);
  });
});
