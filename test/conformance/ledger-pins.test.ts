// Which seed facts with a byte-exact value the vectors pin. What is counted, precisely:
// - a seed-fact row: a table row (not the header or the |---| line) under a `###` heading of
//   docs/FIDELITY.md that starts with "Seed" or "Facts";
// - byte-exact: its fact cell (the first) holds a hex literal 0x… that is not a code address
//   (`@0x…`), a source line (`file.c:0x…`) or a host-struct offset (`name+0x…`, no space) — values
//   a vector cannot hold;
// - pinned: some case of the committed vectors/ lists, in `pins`, a phrase found in that row.
// Every pin must name a seed-fact row (no pin points nowhere), and the rows not yet pinned are
// exactly NOT_YET_PINNED: pinning one fails this test until it leaves the list, and a new byte-exact
// row without a vector fails it too.
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

/** Byte-exact seed-fact rows no vector pins yet, each by the start of its fact cell. */
const NOT_YET_PINNED = [
  // Host function-table offsets (kaena_khal + 0x528): no set holds the host's tables yet.
  "kaena_khal_register_funcs_v2 @0x468740",
  "Slot offsets: init_embedded_sem kaena_khal+0x528",
  "ADDR4 union; marker top bits",
];

describe("the vectors pin the ledger's byte-exact seed facts", () => {
  const rows = seedFactRows();
  const all = pins();
  const exact = rows.filter((r) => byteExact(r.fact));
  const unpinned = exact.filter((r) => ![...all].some((p) => r.line.includes(p)));

  it("every pin names a seed-fact row", () => {
    expect([...all].filter((p) => !rows.some((r) => r.line.includes(p)))).toEqual([]);
  });

  it(`${exact.length - NOT_YET_PINNED.length} of ${exact.length} byte-exact rows are pinned; the rest are listed`, () => {
    const named = unpinned.map((r) => NOT_YET_PINNED.find((n) => r.fact.startsWith(n)) ?? r.fact);
    expect(named).toEqual(NOT_YET_PINNED);
  });
});
