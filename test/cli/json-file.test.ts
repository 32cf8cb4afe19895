// readJsonFile (cli/json-file.ts), the one reader of the JSON files options name: a regular file over
// the size bound refused from its size, a FIFO read only up to the bound, deep JSON refused by depth,
// each error naming the option, the path, the limit and what was found. Then end to end through the
// CLI, and the JSON texts commands take as arguments (hal, encode, build).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonLimitError } from "../../src/bits/index.js";
import { encodeCommand, halCommand, readJsonFile } from "../../src/cli/index.js";
import { parseBuildRequest } from "../../src/runtime/index.js";
import { runInProcess, sdmakit } from "../helpers/cli.js";
import { thrown } from "../helpers/thrown.js";

const dir = mkdtempSync(join(tmpdir(), "sdmakit-json-file-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

describe("readJsonFile", () => {
  it("reads a JSON file", () => {
    expect(readJsonFile("--custom-replica-groups", file("g.json", "[[0, 1], [2, 3]]"))).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it("refuses a regular file over the size bound from its size", () => {
    const path = file("big.json", `[${"0,".repeat(600)}0]`);
    const e = thrown(() => readJsonFile("--streams-json", path, { maxBytes: 1000, maxDepth: 8 }));
    expect(e).toBeInstanceOf(JsonLimitError);
    expect(e).toMatchObject({ source: `--streams-json ${path}`, limit: "bytes", max: 1000, found: 1203 });
    expect((e as Error).message).toBe(`--streams-json ${path}: 1203 bytes; at most 1000 bytes of JSON`);
  });

  it("refuses a file nested too deep, naming the depth found", () => {
    const path = file("deep.json", deep(100_000));
    expect((thrown(() => readJsonFile("--custom-replica-groups", path)) as Error).message).toBe(
      `--custom-replica-groups ${path}: JSON nested 100000 deep; at most 64 levels`,
    );
  });

  it("reads a FIFO only up to the bound plus one byte", async () => {
    const fifo = join(dir, "endless.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // An endless writer (our own FIFO, never a system device); it stops on EPIPE once we close.
    const writer = spawn("sh", ["-c", `yes 1 > "${fifo}"`], { stdio: "ignore" });
    const done = new Promise((resolve) => writer.on("exit", resolve));
    const e = thrown(() => readJsonFile("--streams-json", fifo, { maxBytes: 4096, maxDepth: 8 }));
    expect(e).toMatchObject({ limit: "bytes", max: 4096, found: 4097 });
    expect((e as Error).message).toBe(
      `--streams-json ${fifo}: more than 4096 bytes; at most 4096 bytes of JSON`,
    );
    await done;
  });

  it("names the option and path of a missing file, a directory, text that is not JSON", () => {
    expect(() => readJsonFile("--streams-json", join(dir, "none.json"))).toThrow(
      /^--streams-json .*none\.json: cannot read it/,
    );
    expect(() => readJsonFile("--streams-json", dir)).toThrow(`--streams-json ${dir}: a directory`);
    expect(() => readJsonFile("--streams-json", file("bad.json", "{"))).toThrow(
      /^--streams-json .*bad\.json: not JSON \(/,
    );
  });
});

describe("the CLI's JSON inputs are bounded", () => {
  it("--streams-json and --custom-replica-groups: exit 2, the option, path, limit and depth", () => {
    const path = file("deep-groups.json", deep(5000));
    for (const option of ["--streams-json", "--custom-replica-groups"]) {
      const r = sdmakit("allr", "-r", "4", "--timing-only", option, path);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`${option} ${path}: JSON nested 5000 deep; at most 64 levels`);
    }
  });

  it("hal arguments, encode fields and build requests: the depth, not a stack overflow", async () => {
    await expect(runInProcess(halCommand, ["--arch", "trn2", "x", deep(100_000)])).rejects.toThrow(
      "arguments: JSON nested 100000 deep; at most 64 levels",
    );
    await expect(
      runInProcess(encodeCommand, ["fma-desc", `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`]),
    ).rejects.toThrow("fields: JSON nested 50000 deep; at most 64 levels");
    expect(() => parseBuildRequest(`${'{"op":'.repeat(50_000)}1${"}".repeat(50_000)}`)).toThrow(
      "build request: JSON nested 50000 deep; at most 64 levels",
    );
  });
});
