// `sdmakit --version` and `sdmakit help` load few modules: the command table names each command
// and loads its module with import() only when it runs or shows its usage (issue 28: every
// command was imported eagerly, 172 modules before main ran). The static import closure of the
// CLI's entry (what Node loads before main runs) is counted from the sources.
import { readFileSync } from "node:fs";
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
});
