import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sdmakitHere } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "sdmakit-exchange-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, json: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(json));
  return path;
};

describe("the exchange commands' options", () => {
  it("alltoall runs checked, every row 0 wrong, busbw = algbw × (n − 1)/n", async () => {
    const r = await sdmakitHere("alltoall", "-r", "4", "-b", "1k", "-e", "4k", "--no-progress");
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => /^\s*\d+\s+\d+\s/.test(l));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const cols = row.trim().split(/\s+/);
      expect(cols.at(-1)).toBe("0");
      expect(Number(cols[5])).toBeCloseTo(Number(cols[4]) * 0.75, 1);
    }
  });
  it("refuse an option for another collective, an unreadable file and bad pairs, naming each", async () => {
    const pairs = file("pairs.json", {
      src_target_pairs: [
        [
          [0, 1],
          [2, 1],
        ],
      ],
    });
    const cases: [string[], RegExp][] = [
      [["allr", "--custom-src-target-pairs", pairs], /--custom-src-target-pairs: for permute, not allr/],
      [
        ["permute", "--custom-src-target-pairs", join(dir, "absent.json")],
        /--custom-src-target-pairs .*absent\.json/,
      ],
      [
        ["permute", "-r", "4", "--custom-src-target-pairs", pairs],
        /pairs\[1\] \[2, 1\]: rank 1 already receives \(from 0\)/,
      ],
      [
        ["alltoallv", "--alltoallv-metadata", file("m.json", { other: [] })],
        /expected \{"alltoallv_metadata" \| "allgv_metadata" \| "variable_size_op_metadata": \[ … \]\} or a bare list/,
      ],
      [
        [
          "alltoallv",
          "-r",
          "2",
          "-b",
          "64",
          "-e",
          "64",
          "--alltoallv-metadata",
          file("m2.json", [{ send_counts: [40, 1], send_displs: [0, 40] }]),
        ],
        /^sdmakit alltoallv: metadata\[0\]\.send_counts\[0\]: rank 0 sends elements 0\.\.39, past its input of 32 elements/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await sdmakitHere(...args, "--no-progress");
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
    }
  });
});
