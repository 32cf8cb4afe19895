// Reliability D1: functional collectives too large for the host are refused up front (exit 2, the
// estimate, the budget, what to do), never grown until the machine gives out or a raw V8 message.
// One case per command of the report; every one would otherwise build gigabytes or run for minutes.
// The refusal is for an explicit --check; without one, the sizes too large run timing-only (issue 22).
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join(""), err: err.join("") };
}

const REFUSED =
  /needs ≈ [\d.]+ GiB of host memory .*the budget is [\d.]+ [GMK]iB \(.*\): use --timing-only, fewer ranks/;

describe("D1: oversized functional runs are refused before they start", () => {
  it("allr -r 64 -e 1gb --check (default budget): exit 2 with the estimate, before any size runs", async () => {
    // 64 ranks × 3 × 1 GiB ≈ 192 GiB of buffers, plus the plan's legs and packets (the one admission
    // counts the chosen algorithm's): over any fair share of this machine, and over the 96 GiB HBM.
    const r = await cli("allr", "-r", "64", "-e", "1gb", "--check");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /needs ≈ 2\d\d GiB of host memory \(device buffers 192 GiB\)|the buffers need \d+ GiB of HBM/,
    );
    expect(r.err).toMatch(/--timing-only/);
    expect(r.out).toBe(""); // not even the 8-byte size ran
  });
  it("allr -b 1gb -e 1gb (8 ranks, ≈ 24 GiB)", async () => {
    const r = await cli("allr", "-b", "1gb", "-e", "1gb", "--max-memory", "16gb", "-c");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(REFUSED);
    expect(r.err).toMatch(/the budget is 16\.0 GiB \(--max-memory\)/);
  });
  it("allr -r 64 -b 1gb -e 1gb --check", async () => {
    const r = await cli("allr", "-r", "64", "-b", "1gb", "-e", "1gb", "--check", "--max-memory", "64gb");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(REFUSED);
  });
  it("allr -r 2 -b 512mb -e 512mb -c (1 GiB of data, ≈ 3 GiB of device buffers)", async () => {
    const r = await cli("allr", "-r", "2", "-b", "512mb", "-e", "512mb", "-c", "--max-memory", "2gb");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/needs ≈ 3\.\d+ GiB of host memory/);
  });
  it("allr -b 2gb, -b 8gb; allg -b 1gb; sendrecv -r 2 -b 4gb", async () => {
    for (const args of [
      ["allr", "-b", "2gb", "-e", "2gb"],
      ["allr", "-b", "8gb", "-e", "8gb"],
      ["allg", "-b", "1gb", "-e", "1gb"],
      ["sendrecv", "-r", "2", "-b", "4gb", "-e", "4gb"],
    ]) {
      const r = await cli(...args, "--max-memory", "4gb", "--check");
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(REFUSED);
    }
  });
  it("allr -b 100gb: a message naming the estimate, never 'Invalid typed array length'", async () => {
    const r = await cli("allr", "-b", "100gb", "-e", "100gb", "--check");
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/Invalid typed array length/);
    expect(r.err).toMatch(/needs ≈ \d+ GiB of host memory/);
    // With the host budget lifted, the device's 96 GiB HBM refuses it, still before any input.
    const big = await cli("allr", "-b", "100gb", "-e", "100gb", "--max-memory", "100000gb", "--check");
    expect(big.code).toBe(2);
    expect(big.err).toMatch(/the buffers need 2400 GiB of HBM; trn2 has 96\.0 GiB/);
  });
  it("the scalar reference's whole buffers are refused past a typed array's 4 GiB", async () => {
    const r = await cli(
      "sendrecv",
      "-r",
      "2",
      "-b",
      "8gb",
      "-e",
      "8gb",
      "--check-mode",
      "reference",
      "--max-memory",
      "100000gb",
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the scalar reference holds whole buffers, at most 4\.00 GiB/);
  });
  it("--max-memory is a size like -b / -e", async () => {
    const r = await cli("allr", "-b", "8", "-e", "8", "--max-memory", "lots");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--max-memory "lots": expected bytes/);
  });
});

describe("without an explicit --check, the sizes too large to hold run timing-only, named in a note", () => {
  const rowsOf = (out: string) => out.split("\n").filter((l) => /^\s+\d/.test(l));
  it("allr -r 2 -b 1mb -e 64mb -f 64: 1 MiB checked, 64 MiB timing-only with #wrong N/A", async () => {
    const r = await cli("allr", "-r", "2", "-b", "1mb", "-e", "64mb", "-f", "64", "--max-memory", "200mb");
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toMatch(
      /^# 1 size, 67108864 B, runs timing-only, #wrong N\/A \(an explicit --check refuses instead\): a functional allr of 2 ranks × 33554432 bf16 elements needs ≈ [\d.]+ MiB of host memory .*the budget is 200 MiB \(--max-memory\)/m,
    );
    const rows = rowsOf(r.out);
    expect(rows.map((l) => l.trim().split(/\s+/).at(-1))).toEqual(["0", "N/A"]);
    // The fallback size's time is the timing-only time of the same size.
    const alone = await cli("allr", "-r", "2", "-b", "64mb", "-e", "64mb", "--timing-only");
    expect(rowsOf(alone.out)[0]).toBe(rows[1]);
  });
  it("--no-check and nccl-tests' -c 0 fall back too (nothing was to be checked); -c 1 refuses", async () => {
    for (const off of ["--no-check", "-c 0"]) {
      const r = await cli(
        "allr",
        "-r",
        "2",
        "-b",
        "64mb",
        "-e",
        "64mb",
        ...off.split(" "),
        "--max-memory",
        "200mb",
      );
      expect(r.code, off).toBe(0);
      expect(r.out, off).toMatch(/^# every size runs timing-only, #wrong N\/A/m);
    }
    const c1 = await cli("allr", "-r", "2", "-b", "64mb", "-e", "64mb", "-c", "1", "--max-memory", "200mb");
    expect([c1.code, c1.out]).toEqual([2, ""]);
  });
  it("the JSON report names the note, and the fallback rows are unchecked", async () => {
    const r = await cli(
      "allr",
      "-r",
      "2",
      "-b",
      "1mb",
      "-e",
      "64mb",
      "-f",
      "64",
      "--max-memory",
      "200mb",
      "--json",
    );
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].notes[0]).toMatch(/^1 size, 67108864 B, runs timing-only/);
    expect(lines.slice(1, 3).map((l) => [l.check, l["#wrong"]])).toEqual([
      ["exact", 0],
      ["none", null],
    ]);
  });
});
