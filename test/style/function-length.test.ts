/**
 * Functions that fit on a screen (HELPERS "functions that fit on a screen"): no function, method or
 * arrow function in src is longer than MAX_LINES; a longer one is split into named steps.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");
const MAX_LINES = 80;

function longFunctions(file: string): string[] {
  const text = readFileSync(join(SRC, file), "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && "body" in n && n.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      const name =
        n.name?.getText(sf) ??
        (ts.isVariableDeclaration(n.parent) ? n.parent.name.getText(sf) : "<anonymous>");
      const id = `${file.replaceAll("\\", "/")} ${name}`;
      if (last - first + 1 > MAX_LINES) out.push(`${id} (${last - first + 1} lines, line ${first + 1})`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe(`functions in src fit in ${MAX_LINES} lines`, () => {
  const files = readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"));
  it("every file", () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
