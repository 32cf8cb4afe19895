/**
 * One declaration per fact: an exported type or interface name stands once in src/. Two
 * declarations of one shape drift (a run's input spec was declared twice, with `kind` in one and
 * `data` in the other, and every caller built it twice or copied it field by field).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

/** Names declared in more than one file, each with why it may stay: different things, one word. */
const KNOWN: Readonly<Record<string, string>> = {
  Span: "numerics: elements of a dtype in bytes; device buffer layout: an address range",
};

/** Exported type and interface names in src/, each with the files declaring it. */
function exportedTypes(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of readdirSync(SRC, { recursive: true }).map(String)) {
    if (!file.endsWith(".ts")) continue;
    const text = readFileSync(join(SRC, file), "utf8");
    for (const m of text.matchAll(/^export (?:interface|type) ([A-Za-z0-9_]+)/gm)) {
      const name = m[1] as string;
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
  }
  return byName;
}

describe("an exported type is declared once", () => {
  it("no exported type or interface name stands in two files of src/ (but the known ones)", () => {
    const types = exportedTypes();
    expect(types.size).toBeGreaterThan(100);
    const twice = [...types].filter(([name, files]) => files.length > 1 && !(name in KNOWN));
    expect(twice).toEqual([]);
  });

  it("every known name is still declared twice (drop it from the list once merged)", () => {
    const types = exportedTypes();
    const merged = Object.keys(KNOWN).filter((name) => (types.get(name) ?? []).length < 2);
    expect(merged).toEqual([]);
  });
});
