// `sdmakit vectors --check` on the golden set passes, and one flipped byte in any set's case is
// reported with the set, the case id and the field. Each set is checked alone (a copy of its
// files and a manifest naming only it), in-process through the CLI's main.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import type { Manifest } from "../../src/vectors/index.js";
import { runInProcess } from "../helpers/cli.js";

const GOLDEN = fileURLToPath(new URL("../../vectors/", import.meta.url));
const manifest = JSON.parse(readFileSync(join(GOLDEN, "manifest.json"), "utf8")) as Manifest;
const cli = (...args: string[]) => runInProcess({ run: main }, args);

/** A directory holding one set of the golden set, with its manifest entry alone. */
function oneSet(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sdmakit-vectors-${name}-`));
  const entry = manifest.sets.find((s) => s.name === name);
  if (!entry) throw new Error(`no set ${name}`);
  for (const f of entry.files) copyFileSync(join(GOLDEN, f.file), join(dir, f.file));
  writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...manifest, sets: [entry] }));
  return dir;
}

/** Where a hex digit of `part` is on a case's line (the first quoted hex string of it), or −1. */
function digitIn(text: string, part: "input" | "expect"): number {
  const from = text.indexOf(`"${part}":`);
  const to = part === "input" ? text.indexOf(`"expect":`) : text.length;
  const at = text.slice(from, to).search(/"[0-9a-f]{2,}/);
  return at < 0 ? -1 : from + at + 1;
}

/**
 * Flip one hex digit inside the `part` of a case at or after line `from`; returns the case id and
 * its line.
 */
function flip(
  dir: string,
  set: string,
  from: number,
  part: "input" | "expect",
): { id: string; line: number } {
  const path = join(dir, `${set}.jsonl`);
  const lines = readFileSync(path, "utf8").split("\n");
  const line = lines.findIndex((l, i) => i >= from && digitIn(l, part) >= 0);
  const text = lines[line] as string;
  const digit = digitIn(text, part);
  lines[line] = `${text.slice(0, digit)}${text[digit] === "0" ? "1" : "0"}${text.slice(digit + 1)}`;
  writeFileSync(path, lines.join("\n"));
  return { id: (JSON.parse(text) as { id: string }).id, line };
}

describe("sdmakit vectors --check", () => {
  // The golden set passes whole: test/docs/readme.test.ts runs the README's `vectors --check
  // vectors` (exit 0, nothing on stderr). Each set alone passes but for its two flipped cases below
  // (nothing else differs), so no set is replayed a third time to see it pass alone.

  // A flipped expect in one case and a flipped input in the next: each named on its own (cases are
  // replayed one by one), in one check of the set rather than two; nothing else differs.
  it.each(manifest.sets.map((s) => s.name))(
    "names the set, case and field of one flipped byte in a %s case's expect, and in another's input",
    async (name) => {
      const dir = oneSet(name);
      const middle = Math.floor(manifest.sets.find((s) => s.name === name)!.cases / 2);
      const expectFlip = flip(dir, name, middle, "expect");
      const inputFlip = flip(dir, name, expectFlip.line + 1, "input");
      const r = await cli("vectors", "--check", dir, "--json");
      expect(r.status).toBe(1);
      const { differences } = JSON.parse(r.stdout) as {
        differences: { set: string; id: string; field: string }[];
      };
      expect(differences).toContainEqual(
        expect.objectContaining({ set: name, id: `${name}.jsonl`, field: "sha256" }),
      );
      const flipped = [`${name}.jsonl`, expectFlip.id, inputFlip.id];
      expect(differences.filter((d) => d.set !== name || !flipped.includes(d.id))).toEqual([]);
      for (const [{ id }, part] of [
        [expectFlip, "expect"],
        [inputFlip, "input"],
      ] as const) {
        const named = differences.filter((d) => d.set === name && d.id === id);
        expect(named.length, `${part} flip in ${id}`).toBeGreaterThan(0);
        expect(named.map((d) => d.field).filter((f) => f.startsWith(`${part}.`)).length, id).toBeGreaterThan(
          0,
        );
      }
    },
  );

  it("refuses a directory without a manifest, naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-vectors-empty-"));
    const r = await cli("vectors", "--check", dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read manifest\.json \(ENOENT\)/);
  });
});
