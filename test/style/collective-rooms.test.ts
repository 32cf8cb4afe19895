/**
 * The rooms of src/collectives import downward only: topology (ranks on chips, links, routes) at
 * the bottom, then plan (legs, and how a leg becomes runtime calls), timing (the scheduler), report
 * (table, trace, byte formatting), device (the simulated device), check (inputs, reference, verify),
 * threads (those stages on worker threads);
 * the files at the top (run-collective, sweep, index) tie them together. An import from a room to
 * one above it — the plan → timing → device → plan cycle this replaced — fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../src/collectives");
/** Bottom first: a room may import the rooms before it. */
const ROOMS = ["topology", "plan", "timing", "report", "device", "check", "threads"];

/** The room of a path under src/collectives (undefined: a top-level file). */
function roomOf(path: string): string | undefined {
  const parts = relative(ROOT, path).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

describe("collectives rooms", () => {
  it("every room is listed, and each imports only rooms below it", () => {
    const dirs = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(dirs.map((d) => d.name).sort()).toEqual([...ROOMS].sort());
    const upward: string[] = [];
    for (const file of readdirSync(ROOT, { recursive: true }).map(String)) {
      if (!file.endsWith(".ts")) continue;
      const path = join(ROOT, file);
      const from = roomOf(path);
      if (from === undefined) continue;
      const text = readFileSync(path, "utf8");
      for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms)) {
        const target = normalize(join(dirname(path), m[1] as string));
        if (!target.startsWith(ROOT)) continue;
        const to = roomOf(target);
        if (to === undefined || to === from) {
          if (to === undefined) upward.push(`${file} → ${relative(ROOT, target)} (the top level)`);
          continue;
        }
        if (ROOMS.indexOf(to) > ROOMS.indexOf(from)) upward.push(`${file} → ${relative(ROOT, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
