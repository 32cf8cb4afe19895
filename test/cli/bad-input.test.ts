// Bad input through the one top-level catch (main): exit 2, one message naming what is wrong, a
// pointer to the command's -h once, never a stack trace. In-process through main; the EPIPE case runs the built CLI.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import { runInProcess } from "../helpers/cli.js";

/** The whole CLI in-process: main has a command's run(args, io) shape. */
const cli = (...args: string[]) => runInProcess({ run: main }, args);

/** A valid ADD request that each bad case changes in one key. */
const ADD = { arch: "trn2", op: "add", sources: [0, 64], dests: [4096], size: 64, inDtype: "bf16" };
const missingDir = join(tmpdir(), "sdmakit-no-such-dir", "sub", "trace.json");

describe("sdmakit: bad input exits 2 with one message and the help pointer once", () => {
  it.each([
    [["allr", "zzz"], /unexpected zzz/],
    [["allr", "-e", "64", "--trace", missingDir], /--trace ".*trace\.json": cannot write \(ENOENT\)/],
    [["build"], /expected one '<json request>' argument; got 0/],
    [["build", "{}", "--frob"], /unknown option --frob/],
    // reliability D10 / D3 / D13: empty strings, zero sizes, unbounded sweeps, stray arguments.
    [["allr", "--seed", ""], /--seed "": expected an integer 0\.\.4294967295/],
    [["allr", "-w", ""], /-w "": expected an integer/],
    [["allr", "-b", "0", "-e", "0"], /-b "0": expected at least one element \(2 bytes of bf16\)/],
    [
      ["allr", "-d", "fp32", "-b", "2", "-e", "8"],
      /-b "2": expected at least one element \(4 bytes of fp32\)/,
    ],
    [["allr", "-r", "4e0"], /-r "4e0": expected an integer 1\.\.16384/],
    [["allr", "-f", "2x"], /-f "2x": expected a factor > 1/],
    [
      ["allr", "--timing-only", "-i", "1", "-b", "8", "-e", "1gb"],
      /more than 1000 sizes; use a larger -f or -i/,
    ],
    [["allr", "--timing-only", "-f", "1.000001", "-e", "4mb"], /more than 1000 sizes/],
    [["allr", "-b", "64gb", "-e", "1tb"], /-e "1tb": expected bytes like/],
    [["allr", "--json=1"], /--json takes no value; got "--json=1"/],
    [["allr", "-r"], /--nworkers needs a value/],
    [
      ["allr", "--trace", "-t.json"],
      /--trace "-t\.json": a value starting with "-" must be attached: --trace=-t\.json/,
    ],
    [["allr", "-d", "-x"], /--datatype "-x": a value starting with "-" must be attached: --datatype=-x/],
    [["allr", "--check", "sometimes"], /unexpected sometimes/],
    [["allr", "--check", "--no-check"], /--check and --no-check exclude each other/],
    [["demo", "junk"], /unexpected argument "junk"/],
    [
      ["allr", "-d", "double"],
      /-d "double" \(the CCE has no fp64\): expected bf16, .* or half, float, fp8, /,
    ],
    [
      ["cast", "fp32", "bf16", "--rounding", "sr", "--seed", "", "3f800001"],
      /--seed "": expected an integer/,
    ],
    [["validate", "s3d3", "00", "--arch=trn2"], /s3d3 is 64 bytes; got 1/],
    [["hal", "aws_mariana_sdma_write_seed", "--arch", "trn3", "--bogus"], /unknown option --bogus/],
    [["cce"], /missing --op \(add \| fma \| min \| max\)/],
    // Request keys that the op would drop silently, or a wrong-typed arch that fell back to trn2.
    [
      ["build", JSON.stringify({ ...ADD, arch: true })],
      /build-request\(arch\): true is out of range trn1 \| trn2 \| trn3/,
    ],
    [["build", JSON.stringify({ ...ADD, constant: 3 })], /constant applies to min \/ max only/],
    [["build", JSON.stringify({ ...ADD, scales: [1, 2] })], /scales applies to fma only/],
    [["build", JSON.stringify({ ...ADD, op: "copy", sources: [0] })], /inDtype applies to CCE ops only/],
    [
      ["build", JSON.stringify({ ...ADD, op: "max", constantDtype: "int32" })],
      /constantDtype needs constant/,
    ],
    [["cast", "bf16"], /missing <toDtype>/],
    [["cast", "bf16", "fp32"], /no codes given/],
    [["cce", "--op", "add", "--in", "bf16"], /no sources given/],
    [["hal"], /missing <libnrt symbol>/],
    [["hal", "al_hal_tpb_get_arch_type"], /--arch is required/],
    [
      ["hal", "aws_mariana_sdma_write_seed", "--arch", "trn3", "[-1, 5, 3, 1]"],
      /argument 0 \(csr\): -1 is out of range 0\.\.2\^64-1/,
    ],
    [
      ["hal", "aws_mariana_sdma_write_seed", "--arch", "trn3", '["0x10000000000000000", 5, 3, 1]'],
      /argument 0 \(csr\): 0x10000000000000000 is out of range 0\.\.2\^64-1/,
    ],
    [["run", "s3d3"], /run takes `s3d3` and one hex word/],
  ])("%j", async (args, message) => {
    const r = await cli(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split(" -h` for usage)").length - 1).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(2);
    expect(r.stderr.split(`sdmakit ${args[0]}: ${args[0]}:`).length - 1).toBe(0);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("run s3d3 --nodes 0 is out of range 1..65535 (exit 2), before the word is looked at", async () => {
    const r = await cli("run", "s3d3", "--nodes", "0", "bf".repeat(64));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--nodes\): "0" is out of range 1\.\.65535/);
  });
});

describe("arch spellings", () => {
  it("--arch 3 (a hal_target typed as text) is trn2; a wrong one lists names, codenames and targets", async () => {
    const ok = await cli("allr", "--arch", "3", "-b", "8", "-e", "8", "--timing-only");
    expect([ok.status, ok.stdout]).toEqual([0, expect.stringMatching(/arch=trn2/)]);
    const bad = await cli("allr", "--arch", "7");
    expect(bad.stderr).toMatch(
      /unknown arch "7": expected trn1 \| trn2 \| trn3, a codename \(sunda \| cayman \| mariana\) or a hal_target \(2 \| 3 \| 4\)/,
    );
  });
});

describe("output that cannot be written (reliability D5)", () => {
  it.skipIf(!existsSync("/dev/full"))("> /dev/full is one line and exit 2, not a stack trace", () => {
    const bin = fileURLToPath(new URL("../../bin/sdmakit.js", import.meta.url));
    for (const args of ["layouts", "allr -b 8 -e 64 --json"]) {
      const r = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" ${args} > /dev/full`], {
        encoding: "utf8",
      });
      expect([r.status, r.stderr]).toEqual([2, "sdmakit: cannot write output (ENOSPC)\n"]);
    }
  });
});

describe("sdmakit | head: a reader that stops early", () => {
  it("ends the output quietly, without an EPIPE stack trace", () => {
    // The built CLI (npm test builds it), piped through a reader that closes after one byte.
    const bin = fileURLToPath(new URL("../../bin/sdmakit.js", import.meta.url));
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" demo | head -c 1 >/dev/null`], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
  });
});
