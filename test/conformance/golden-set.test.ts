// The committed golden set (vectors/) is what this build generates, byte for byte: every behaviour
// change shows up as a reviewed diff of vectors/*.jsonl. Generated in-process from src (no CLI run).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/cli/index.js";
import { DEFAULT_OPTIONS, generateFiles, VECTOR_SETS } from "../../src/vectors/index.js";

const DIR = fileURLToPath(new URL("../../vectors/", import.meta.url));
const HINT = "run `npm run vectors` to regenerate vectors/ and review the diff";

describe("the golden vector set (vectors/)", () => {
  const files = generateFiles(VECTOR_SETS, DEFAULT_OPTIONS, VERSION);

  it("holds exactly the files this build writes", () => {
    expect(readdirSync(DIR).sort(), HINT).toEqual([...files.keys()].sort());
  });

  it.each([...files.keys()])("%s is regenerated identically", (name) => {
    const committed = readFileSync(`${DIR}${name}`, "utf8");
    const here = files.get(name) as string;
    if (committed === here) return;
    const a = committed.split("\n");
    const b = here.split("\n");
    const line = a.findIndex((l, i) => l !== b[i]);
    const id = /"id":"([^"]*)"/.exec(a[line] ?? b[line] ?? "")?.[1] ?? "";
    expect.fail(
      `vectors/${name} differs from this build at line ${line + 1}${id ? ` (case ${id})` : ""}: ${HINT}`,
    );
  });

  it.each([...files.keys()].filter((n) => n.endsWith(".jsonl")))(
    "%s: every case's input field with an enum in the set's schema takes one of its values",
    (name) => {
      const schema = JSON.parse(files.get(name.replace(/\.jsonl$/, ".schema.json")) ?? "{}");
      const props: Record<string, { enum?: unknown[] }> = schema.properties?.input?.properties ?? {};
      const enums = Object.entries(props).filter(([, p]) => Array.isArray(p.enum));
      const off: string[] = [];
      for (const line of (files.get(name) as string).split("\n").filter((l) => l !== "")) {
        const c = JSON.parse(line) as { id: string; input: Record<string, unknown> };
        for (const [key, p] of enums)
          if (key in c.input && !p.enum!.includes(c.input[key])) off.push(`${c.id} ${key}=${c.input[key]}`);
      }
      expect(off).toEqual([]);
    },
  );

  it("stays modest: a few MB at most", () => {
    const bytes = [...files.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
    expect(bytes).toBeLessThan(4 * 2 ** 20);
  });
});
