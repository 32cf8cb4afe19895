import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import { cceCommand } from "../../src/cli/index.js";
import { runInProcess } from "../helpers/cli.js";

const f32 = (...v: number[]) => Buffer.from(new Float32Array(v).buffer).toString("hex");

describe("sdmakit cce", () => {
  it("ADD: three bf16 sources, fp32 accumulation, bf16 out (seed 000 §9.1)", async () => {
    // bf16 1.0 = 3f80, 2.0 = 4000, 0.5 = 3f00 (little-endian bytes: 803f, 0040, 003f)
    const r = await runInProcess(cceCommand, [
      "--arch",
      "trn2",
      "--op",
      "add",
      "--in",
      "bf16",
      "--out",
      "bf16",
      "803f",
      "0040",
      "003f",
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("6040\n"); // 3.5 = 0x4060
  });

  it("FMA: dst = 0.5·s0 + 0.5·s1 in fp32 (seed 000 §9.2)", async () => {
    const r = await runInProcess(cceCommand, [
      "--op",
      "fma",
      "--in",
      "fp32",
      "--scales",
      "0.5,0.5",
      f32(1, 2),
      f32(3, -2),
    ]);
    expect(r.stdout).toBe(`${f32(2, 0)}\n`);
  });

  it("MAX with --const 0 is a ReLU; --json adds descriptors and events", async () => {
    const r = await runInProcess(cceCommand, [
      "--op",
      "max",
      "--in",
      "fp32",
      "--const",
      "0",
      "--json",
      f32(-1, 2),
      f32(-3, 1),
    ]);
    const j = JSON.parse(r.stdout);
    expect(j.destination).toBe(f32(0, 2));
    expect(j.events).toHaveLength(1);
    expect(j.events[0].kind).toBe("cce");
    expect(j.descriptors.length).toBeGreaterThan(2);
  });

  it("--sr --seed: same seed, same bytes", async () => {
    const args = [
      "--op",
      "add",
      "--in",
      "fp32",
      "--out",
      "bf16",
      "--sr",
      "--seed",
      "9",
      f32(1.001, 2.003, 3.007),
      f32(0, 0, 0),
    ];
    const a = await runInProcess(cceCommand, args);
    const b = await runInProcess(cceCommand, args);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^[0-9a-f]{12}\n$/);
  });

  it("bad usage throws typed errors", async () => {
    await expect(runInProcess(cceCommand, ["--op", "add", "--in", "fp32"])).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(runInProcess(cceCommand, ["--op", "nope", "--in", "fp32", "00000000"])).rejects.toThrow(
      /--op/,
    );
    await expect(runInProcess(cceCommand, ["--op", "add", "--in", "fp32", "0000"])).rejects.toThrow(
      /multiple of 4/,
    );
  });
});
