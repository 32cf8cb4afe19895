/**
 * Issue 28, "adding an algorithm name is one edit to one list plus its planner": ALGORITHMS,
 * COLLECTIVES and REDUCE_OPS (collectives/plan/plan.ts) are the lists; the CLI's choices and help,
 * the option rules, the web page's selects, the vector schema and `auto`'s candidates read them.
 * No other array literal in src/ or web/src restates them: none names two algorithms (a subset is
 * derived, as candidateAlgorithms does), none lists every collective or every op. The per-algorithm
 * tables (build-plan.ts PLANNERS, leg-estimate.ts) are Records keyed by AlgorithmName, so the
 * compiler asks for a new name's planner rows.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ALGORITHMS, COLLECTIVES, REDUCE_OPS } from "../../src/collectives/index.js";

const ROOT = join(import.meta.dirname, "../..");
const HOME = "src/collectives/plan/plan.ts";

/** Every array literal's string elements in src/ and web/src, with where it is. */
function stringArrays(): { where: string; strings: string[] }[] {
  const out: { where: string; strings: string[] }[] = [];
  for (const dir of ["src", "web/src"]) {
    for (const f of readdirSync(join(ROOT, dir), { recursive: true }).map(String)) {
      const path = join(ROOT, dir, f);
      const file = relative(ROOT, path).replaceAll("\\", "/");
      if (!f.endsWith(".ts") || file === HOME) continue;
      const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (n: ts.Node): void => {
        if (ts.isArrayLiteralExpression(n)) {
          const strings = n.elements.filter(ts.isStringLiteral).map((e) => e.text);
          const line = sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
          if (strings.length > 1) out.push({ where: `${file}:${line}`, strings });
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
  }
  return out;
}

/** The arrays holding at least `atLeast` distinct names of `names`. */
function naming(
  arrays: readonly { where: string; strings: string[] }[],
  names: readonly string[],
  atLeast: number,
) {
  return arrays
    .filter((a) => new Set(a.strings.filter((s) => names.includes(s))).size >= atLeast)
    .map((a) => a.where);
}

describe("the choice lists are declared once", () => {
  const arrays = stringArrays();

  it("no array literal outside plan.ts names two algorithms", () => {
    expect(arrays.length).toBeGreaterThan(10);
    expect(naming(arrays, ALGORITHMS, 2)).toEqual([]);
  });

  it("no array literal outside plan.ts lists every collective or every reduce op", () => {
    expect(naming(arrays, COLLECTIVES, COLLECTIVES.length)).toEqual([]);
    expect(naming(arrays, REDUCE_OPS, REDUCE_OPS.length)).toEqual([]);
  });

  it("would catch the restated lists it replaced (the vector schema's algorithm enum, its ops)", () => {
    const old = [
      { where: "algorithm enum", strings: ["ring", "kangaring", "mesh"] },
      { where: "OPS", strings: ["sum", "max", "min", "avg"] },
      { where: "min / max", strings: ["min", "max"] },
    ];
    expect(naming(old, ALGORITHMS, 2)).toEqual(["algorithm enum"]);
    expect(naming(old, REDUCE_OPS, REDUCE_OPS.length)).toEqual(["OPS"]);
  });
});
