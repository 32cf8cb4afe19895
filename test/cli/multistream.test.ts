/**
 * nccom-test's replica groups and multistream on the command line: the guide's multistream example
 * (a 4 × 16-rank all-reduce sweep beside a 64-rank 1 KiB all-gather), checked, a table per stream,
 * run by the built CLI as written (its stderr, a pipe here, stays empty: progress in log mode);
 * replica-group files and typed errors naming the file's field through the CLI's entry (main) in
 * process — a process of the built CLI starts cold, about 0.4 s of CPU loading the library.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sdmakit, sdmakitHere } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "sdmakit-streams-"));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};
const groups16 = Array.from({ length: 4 }, (_, g) => Array.from({ length: 16 }, (_, i) => 16 * g + i));
const example = file("streams_example.json", {
  streams: [
    {
      operation: "all_reduce",
      datatype: "bf16",
      minbytes: "1kb",
      maxbytes: "1mb",
      stepfactor: 2,
      replica_groups: groups16,
    },
    { operation: "allg", datatype: "fp32", minbytes: "1kb", maxbytes: "1kb" },
  ],
});

/** The table rows of each `# stream` block: [size, #wrong] per row. */
function blocks(stdout: string): string[][][] {
  return stdout
    .split(/^# stream \d+:.*$/m)
    .slice(1)
    .map((b) =>
      b
        .split("\n")
        .filter((l) => /^\s+\d+\s/.test(l))
        .map((l) => {
          const cols = l.trim().split(/\s+/);
          return [cols[0] as string, cols[cols.length - 1] as string];
        }),
    );
}

describe("multistream and replica groups on the command line", () => {
  it("the guide's multistream line runs checked: a table per stream, 0 wrong", () => {
    const r = sdmakit("allg", "-r", "64", "-c", "--streams-json", example);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const [s0, s1] = blocks(r.stdout);
    expect(s0?.map((row) => row[0])).toEqual(Array.from({ length: 11 }, (_, i) => String(1024 << i)));
    expect(s1?.map((row) => row[0])).toEqual(Array.from({ length: 11 }, () => "1024"));
    expect([...(s0 ?? []), ...(s1 ?? [])].every((row) => row[1] === "0")).toBe(true);
    expect(r.stdout.match(/^Avg bus bandwidth:/gm)).toHaveLength(2);
  });

  it("--custom-replica-groups and --data-parallel-dimension: one table, 0 wrong", async () => {
    const groups = file("groups.json", {
      replica_groups: [
        [0, 1],
        [2, 3],
      ],
    });
    for (const opt of [
      ["--custom-replica-groups", groups],
      ["--data-parallel-dimension", "2"],
    ]) {
      const r = await sdmakitHere("allr", "-r", "4", "-b", "1k", "-e", "4k", ...opt);
      expect(r.status).toBe(0);
      expect(blocks(r.stdout)[0]?.map((row) => row[1])).toEqual(["0", "0", "0"]);
    }
  });

  it("a bad file is a usage error naming the field (exit 2)", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["--streams-json", file("s1.json", { streams: [{ operation: "allr", colour: 1 }] })],
        /streams\[0\]\.colour: unknown key/,
      ],
      [
        ["--streams-json", file("s2.json", { streams: [{ operation: "allreduce" }] })],
        /streams\[0\]\.operation "allreduce": expected one of/,
      ],
      [
        ["--streams-json", file("s3.json", { streams: [{ operation: "allr", minbytes: "1zb" }] })],
        /streams\[0\]\.minbytes "1zb"/,
      ],
      [
        [
          "--custom-replica-groups",
          file("g.json", [
            [0, 1],
            [1, 2],
          ]),
        ],
        /replicaGroups\[1\]: rank 1 is in group 0/,
      ],
      [
        ["--custom-replica-groups", join(dir, "missing.json")],
        /--custom-replica-groups .*missing\.json: cannot read it/,
      ],
      [
        ["--data-parallel-dimension", "2", "--custom-replica-groups", join(dir, "g.json")],
        /exclude each other/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await sdmakitHere("allr", "-r", "4", "--timing-only", ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
