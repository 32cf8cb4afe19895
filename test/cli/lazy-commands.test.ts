// `sdmakit --version` and `sdmakit help` load few modules: the command table names each command
// and loads its module with import() only when it runs or shows its usage (issue 28: every
// command was imported eagerly, 172 modules before main ran). The static import closure of the
// CLI's entry (what Node loads before main runs) is counted from the sources.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, main } from "../../src/cli/index.js";

const SRC = join(import.meta.dirname, "../../src");

/** Files a module statically imports (import … from / export … from; not import(), not types). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\bfrom\s+"(\.[^"]+)"/gms)) {
    if (m[2] !== undefined) continue;
    // import { type A, type B } from: a type-only list is erased too.
    const names = /^\{([^}]*)\}\s*$/.exec((m[3] as string).trim());
    if (names && names[1]!.split(",").every((n) => n.trim() === "" || /^type\s/.test(n.trim()))) continue;
    out.push(normalize(join(dirname(file), (m[4] as string).replace(/\.js$/, ".ts"))));
  }
  return out;
}

function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...staticImports(f));
  }
  return seen;
}

describe("commands load lazily", () => {
  it("the CLI entry statically loads at most 12 modules, none of a command's", () => {
    const files = [...closure(join(SRC, "cli/main.ts"))].map((f) => relative(SRC, f));
    expect(files.length, files.join("\n")).toBeLessThanOrEqual(12);
    expect(files.filter((f) => f.startsWith("cli/commands/") && !/index|names/.test(f))).toEqual([]);
  });

  it("--version and help answer from the table; every entry loads a command with its usage", async () => {
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    expect(await main(["--version"], io)).toBe(0);
    expect(await main(["help"], io)).toBe(0);
    for (const c of COMMANDS) expect(out.join("")).toContain(`${c.name.padEnd(10)} ${c.summary}`);
    for (const c of COMMANDS) expect((await c.load()).usage).toMatch(/usage/i);
  });

  it("the built CLI loads few of its modules for --version, -h and allr -h, none of a command's (counted at run time)", () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-modules-"));
    // main, its errors and did-you-mean, the collective names, the command table and the version;
    // a collective's -h adds its option table, the defaults and the option machinery (it once
    // loaded 188 modules: the option table imported the collectives layer).
    const runs: [string[], number][] = [
      [["--version"], 8],
      [["-h"], 8],
      [["help"], 8],
      [["allr", "-h"], 14],
      [["help", "allr"], 14],
    ];
    try {
      for (const [args, bound] of runs) {
        const log = join(dir, `${args.join("")}.log`);
        const r = spawnSync(
          process.execPath,
          [
            "--import",
            join(import.meta.dirname, "../helpers/module-log.mjs"),
            join(SRC, "../bin/sdmakit.js"),
            ...args,
          ],
          { encoding: "utf8", env: { ...process.env, SDMAKIT_MODULE_LOG: log } },
        );
        expect(r.status, r.stderr).toBe(0);
        const loaded = readFileSync(log, "utf8")
          .split("\n")
          .filter((u) => u.includes("/dist/"))
          .map((u) => u.slice(u.indexOf("/dist/") + 6));
        expect(loaded.length, loaded.join("\n")).toBeLessThanOrEqual(bound);
        expect(loaded.length).toBeGreaterThan(0);
        expect(
          loaded.filter((f) => f.startsWith("cli/commands/") && !/index|names/.test(f)),
          args.join(" "),
        ).toEqual([]);
        expect(
          loaded.filter((f) => /^(engine|runtime|numerics|hal|isa)\//.test(f)),
          args.join(" "),
        ).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
