/**
 * A layer's rooms (sub-folders, one sub-domain each) import downward only; the files at a layer's
 * top tie them together and may import any room. An import from a room to one above it, or to the
 * top level, fails here.
 * - src/collectives: topology (ranks on chips, links, routes) at the bottom, then plan (legs, and
 *   how a leg becomes runtime calls), timing (the scheduler), report (table, trace, byte
 *   formatting), device (the simulated device), check (inputs, reference, verify), threads (those
 *   stages on worker threads); run-collective, sweep and index on top. The plan → timing → device → plan cycle this replaced stays gone.
 * - src/engine: memory (pages, arenas, the map, preflight) at the bottom, then decode (fetched
 *   descriptors → packet plans, their faults and cache), execute (a plan run against memory, its
 *   events); the device, its queues and the cost model on top.
 * - src/runtime: descriptors (the words a descriptor is made of: meta-control, remaps, the gates,
 *   CCE info) at the bottom, then rings (vrings, their registers, doorbells, what is written on
 *   them), builders (libnrt's copy / CCE / gradient requests onto the rings); the host queues'
 *   post / drain / retry loop and index on top.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

/** Each layer's rooms, bottom first: a room may import the rooms before it. */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  collectives: ["topology", "plan", "timing", "report", "device", "check", "threads"],
  engine: ["memory", "decode", "execute"],
  runtime: ["descriptors", "rings", "builders"],
};

/** The room of a path under `root` (undefined: a top-level file). */
function roomOf(root: string, path: string): string | undefined {
  const parts = relative(root, path).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Imports from a room to a room above it or to the top level. */
function upwardImports(root: string, rooms: readonly string[]): string[] {
  const upward: string[] = [];
  for (const file of readdirSync(root, { recursive: true }).map(String)) {
    if (!file.endsWith(".ts")) continue;
    const path = join(root, file);
    const from = roomOf(root, path);
    if (from === undefined) continue;
    const text = readFileSync(path, "utf8");
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms)) {
      const target = normalize(join(dirname(path), m[1] as string));
      if (!target.startsWith(root)) continue;
      const to = roomOf(root, target);
      if (to === undefined) upward.push(`${file} → ${relative(root, target)} (the top level)`);
      else if (rooms.indexOf(to) > rooms.indexOf(from)) upward.push(`${file} → ${relative(root, target)}`);
    }
  }
  return upward;
}

describe("rooms", () => {
  it.each(Object.entries(LAYERS))(
    "src/%s: every room is listed, each imports only rooms below it",
    (layer, rooms) => {
      const root = join(import.meta.dirname, "../../src", layer);
      const dirs = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
      expect(dirs.map((d) => d.name).sort()).toEqual([...rooms].sort());
      expect(upwardImports(root, rooms)).toEqual([]);
    },
  );
});
