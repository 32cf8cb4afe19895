/**
 * A public call reads at its call site: no function a layer index exports (nor a public method or
 * constructor of a class it exports) takes more than MAX_PARAMS positional parameters — more go in
 * one named object, as numerics' reduceInto(op, sources, out, options) does. READABLE_REFERENCE
 * lists the exceptions, each with why; keep it short.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");
const MAX_PARAMS = 4;
/** The layers held to it so far (bits, spec, hal and collectives still export 15 wider calls). */
const LAYERS = ["numerics", "engine"] as const;

/** Exports allowed more positional parameters, and why. */
const READABLE_REFERENCE: Readonly<Record<string, string>> = {
  "numerics decodeToF32": "the codec reference: TypedArray-style (array, offset, count) on both sides",
  "numerics encodeFromF32": "the codec reference: TypedArray-style spans plus rounding and overflow",
  "numerics encodeNarrowFloat": "the scalar narrow-float encoder every kernel is checked against",
};

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
}

/** The value names an index re-exports, with the file each comes from. */
function reExports(index: string): [string, string][] {
  const out: [string, string][] = [];
  for (const st of parse(index).statements) {
    if (!ts.isExportDeclaration(st) || st.isTypeOnly || !st.moduleSpecifier) continue;
    if (!st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
    const from = join(dirname(index), (st.moduleSpecifier as ts.StringLiteral).text.replace(/\.js$/, ".ts"));
    for (const e of st.exportClause.elements) {
      if (!e.isTypeOnly) out.push([(e.propertyName ?? e.name).text, from]);
    }
  }
  return out;
}

/** `name` in `file`'s declarations with more than MAX_PARAMS positional parameters. */
function wide(name: string, file: string): string[] {
  const out: string[] = [];
  const isPublic = (m: ts.ClassElement) =>
    !(
      ts.getCombinedModifierFlags(m as ts.Declaration) &
      (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
    );
  for (const st of parse(file).statements) {
    if (ts.isFunctionDeclaration(st) && st.name?.text === name && st.parameters.length > MAX_PARAMS)
      out.push(`${name} (${st.parameters.length})`);
    if (!ts.isClassDeclaration(st) || st.name?.text !== name) continue;
    for (const m of st.members) {
      if (!(ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m)) || !isPublic(m)) continue;
      if (m.parameters.length > MAX_PARAMS) {
        const member = ts.isConstructorDeclaration(m) ? "constructor" : m.name.getText();
        out.push(`${name}.${member} (${m.parameters.length})`);
      }
    }
  }
  return out;
}

describe(`exported calls take at most ${MAX_PARAMS} positional parameters`, () => {
  it.each(LAYERS)("src/%s/index.ts", (layer) => {
    const offenders = reExports(join(SRC, layer, "index.ts"))
      .filter(([name]) => READABLE_REFERENCE[`${layer} ${name}`] === undefined)
      .flatMap(([name, file]) => wide(name, file));
    expect(offenders).toEqual([]);
  });
});

describe("the engine's executor reaches numerics through reduceInto", () => {
  const file = join(SRC, "engine/execute/execute.ts");
  it("imports reduceInto and types only from numerics", () => {
    const values: string[] = [];
    for (const st of parse(file).statements) {
      if (!ts.isImportDeclaration(st) || !(st.moduleSpecifier as ts.StringLiteral).text.includes("numerics"))
        continue;
      const clause = st.importClause;
      if (clause === undefined || clause.isTypeOnly) continue;
      const named = clause.namedBindings;
      if (clause.name || !named || !ts.isNamedImports(named)) values.push("(default or namespace)");
      else for (const e of named.elements) if (!e.isTypeOnly) values.push(e.name.text);
    }
    expect(values.filter((n) => n !== "reduceInto")).toEqual([]);
  });
  it("is at most 400 lines", () => {
    expect(readFileSync(file, "utf8").split("\n").length).toBeLessThanOrEqual(400);
  });
});
