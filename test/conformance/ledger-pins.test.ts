// Which seed facts with a byte-exact value the vectors pin. What is counted, precisely:
// - a seed-fact row: a table row (not the header or the |---| line) under a `###` heading of
//   docs/FIDELITY.md that starts with "Seed" or "Facts";
// - byte-exact: its fact cell (the first) holds a hex literal 0x… that is not a code address
//   (`@0x…`), a source line (`file.c:0x…`) or a host-struct offset (`name+0x…`, no space) — values
//   a vector cannot hold;
// - pinned: some case of the committed vectors/ lists, in `pins`, a phrase found in that row; or,
//   for a value no vector can hold (a host table offset), a test titled through
//   `ledgerRow(<the start of its fact cell>, …)` (test/helpers/ledger-row.ts) whose file writes every
//   hex value of the fact cell as a literal.
// Every pin must name a seed-fact row (no pin points nowhere), and every byte-exact row is pinned:
// there is no list of exceptions, so a new byte-exact row without a vector or a test fails here.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LEDGER = readFileSync(`${ROOT}docs/FIDELITY.md`, "utf8").split("\n");

/** The seed-fact rows of the ledger: the whole line and its fact cell. */
function seedFactRows(): { line: string; fact: string }[] {
  const rows: { line: string; fact: string }[] = [];
  let inFacts = false;
  for (const line of LEDGER) {
    if (line.startsWith("#")) inFacts = /^### (Seed|Facts)/.test(line);
    else if (inFacts && line.startsWith("|") && !line.startsWith("|---")) {
      const fact = line.split("|")[1]?.trim() ?? "";
      if (!/^fact\b/i.test(fact)) rows.push({ line, fact });
    }
  }
  return rows;
}

const NOT_A_VALUE = /@0x[0-9a-f]+|\.c:0x[0-9a-f]+|[\w\]]\+0x[0-9a-f]+/gi;
const byteExact = (fact: string): boolean => /0x[0-9a-f]+/i.test(fact.replace(NOT_A_VALUE, ""));

function pins(): Set<string> {
  const all = new Set<string>();
  for (const f of readdirSync(`${ROOT}vectors`).filter((n) => n.endsWith(".jsonl"))) {
    for (const l of readFileSync(`${ROOT}vectors/${f}`, "utf8").split("\n")) {
      if (l !== "") for (const p of (JSON.parse(l) as { pins: string[] }).pins) all.add(p);
    }
  }
  return all;
}

const hexValues = (text: string): Set<bigint> =>
  new Set([...text.matchAll(/0x[0-9a-f][0-9a-f_]*/gi)].map((m) => BigInt(m[0].replaceAll("_", ""))));

/** Every ledgerRow call of a test file under test/: the row it names and the hex literals of its file. */
function testPins(): { row: string; file: string; values: Set<bigint> }[] {
  const out: { row: string; file: string; values: Set<bigint> }[] = [];
  const files = readdirSync(`${ROOT}test`, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".test.ts"));
  for (const file of files) {
    const text = readFileSync(`${ROOT}test/${file}`, "utf8");
    for (const m of text.matchAll(/ledgerRow\(\s*"([^"]+)"/g)) {
      out.push({ row: m[1] as string, file, values: hexValues(text) });
    }
  }
  return out;
}

describe("the vectors pin the ledger's byte-exact seed facts", () => {
  const rows = seedFactRows();
  const all = pins();
  const exact = rows.filter((r) => byteExact(r.fact));
  const tests = testPins();
  const byTest = (r: { fact: string }) => tests.find((t) => r.fact.startsWith(t.row));

  it("every pin names a seed-fact row", () => {
    expect([...all].filter((p) => !rows.some((r) => r.line.includes(p)))).toEqual([]);
    expect(tests.filter((t) => !rows.some((r) => r.fact.startsWith(t.row))).map((t) => t.row)).toEqual([]);
  });

  it("a row pinned by a test has every hex value of its fact cell written in that test's file", () => {
    const missing = rows.flatMap((r) => {
      const t = byTest(r);
      if (t === undefined) return [];
      return [...hexValues(r.fact)]
        .filter((v) => !t.values.has(v))
        .map((v) => `${t.file}: 0x${v.toString(16)}`);
    });
    expect(missing).toEqual([]);
  });

  it(`all ${exact.length} byte-exact rows are pinned, by a vector or a seed-text test`, () => {
    const unpinned = exact.filter(
      (r) => ![...all].some((p) => r.line.includes(p)) && byTest(r) === undefined,
    );
    expect(unpinned.map((r) => r.fact)).toEqual([]);
  });
});
