// `sdmakit cast`, run in-process with a capturing io.
import { describe, expect, it } from "vitest";
import { FieldError, UsageError } from "../../src/bits/index.js";
import { castCommand } from "../../src/cli/index.js";
import { runInProcess } from "../helpers/cli.js";

const cast = (...args: string[]) => runInProcess(castCommand, args);

describe("sdmakit cast", () => {
  it("fp32 → e4m3: 240 is max (0x77), 248 overflows to inf (0x78), NaN keeps its sign", async () => {
    const r = await cast("fp32", "e4m3", "43700000", "0x43780000", "3f800000", "ffc00000");
    expect(r).toEqual({ status: 0, stdout: "77\n78\n38\nfc\n", stderr: "" });
  });

  it("bf16 → fp32 pads to 8 lowercase hex digits; --json prints an array", async () => {
    expect((await cast("bf16", "fp32", "3F80", "1")).stdout).toBe("3f800000\n00010000\n");
    expect((await cast("bfloat16", "float32", "--json", "c000")).stdout).toBe('["c0000000"]\n');
  });

  it("64-bit integers round once: 2^60 + 2^36 + 1 → 2^60 + 2^37", async () => {
    expect((await cast("int64", "fp32", "1000001000000001")).stdout).toBe("5d800001\n");
    expect((await cast("fp32", "uint64", "5f800000", "bf800000")).stdout).toBe(
      "ffffffffffffffff\n0000000000000000\n",
    );
  });

  it("--overflow satfinite and nan", async () => {
    expect((await cast("fp32", "e5m2", "--overflow", "satfinite", "7f800000")).stdout).toBe("7b\n");
    expect((await cast("fp32", "e5m2", "--overflow=nan", "47800000")).stdout).toBe("7e\n");
  });

  it("--rounding sr --seed N is reproducible and rounds to a neighbour", async () => {
    const codes = Array.from({ length: 64 }, () => "3f808000"); // halfway between bf16 3f80 and 3f81
    const a = await cast("fp32", "bf16", "--rounding", "sr", "--seed", "5", ...codes);
    const b = await cast("fp32", "bf16", "--rounding", "sr", "--seed", "5", ...codes);
    expect(a.stdout).toBe(b.stdout);
    const lines = a.stdout.trim().split("\n");
    expect(new Set(lines)).toEqual(new Set(["3f80", "3f81"]));
  });

  it.each([
    [["fp32"], UsageError],
    [["fp32", "bf16"], UsageError],
    [["fp33", "bf16", "0"], FieldError],
    [["invalid", "bf16", "0"], FieldError],
    [["bf16", "fp32", "10000"], FieldError],
    [["bf16", "fp32", "xyz"], FieldError],
    [["fp32", "bf16", "--rounding", "rtz", "0"], FieldError],
    [["fp32", "bf16", "--seed", "3", "0"], UsageError],
    [["fp32", "bf16", "--rounding", "sr", "--seed", "-1", "0"], UsageError],
    [["fp32", "bf16", "--overflow", "clamp", "0"], FieldError],
    [["fp32", "bf16", "--bogus", "0"], UsageError],
  ])("bad usage %j throws %o (exit 2 at the top level)", async (args, error) => {
    await expect(cast(...(args as string[]))).rejects.toBeInstanceOf(error);
  });

  it("names the argument and the allowed range", async () => {
    await expect(cast("bf16", "fp32", "10000")).rejects.toThrow(
      `cast(code): "10000" is out of range 0..ffff in hex`,
    );
  });
});
