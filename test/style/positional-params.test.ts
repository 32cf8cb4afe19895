/**
 * A public call reads at its call site: no function a layer index or the package's front door
 * exports (nor a public method or constructor of a class it exports) takes more than MAX_PARAMS
 * positional parameters — more go in
 * one named object, as numerics' reduceInto(op, sources, out, options) does. READABLE_REFERENCE
 * lists the exceptions, each with why; keep it short.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");
const MAX_PARAMS = 4;
/** Every layer index, plus the package's front door (its own calls live in api.ts). */
const ENTRIES = [
  "bits/index.ts",
  "spec/index.ts",
  "numerics/index.ts",
  "hal/index.ts",
  "engine/index.ts",
  "runtime/index.ts",
  "isa/index.ts",
  "collectives/index.ts",
  "vectors/index.ts",
  "cli/index.ts",
  "index.ts",
] as const;

/** Exports allowed more positional parameters, and why. */
const READABLE_REFERENCE: Readonly<Record<string, string>> = {
  decodeToF32: "the codec reference: TypedArray-style (array, offset, count) on both sides",
  encodeFromF32: "the codec reference: TypedArray-style spans plus rounding and overflow",
  encodeNarrowFloat: "the scalar narrow-float encoder every kernel is checked against",
};

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (sf === undefined) {
    sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    parsed.set(file, sf);
  }
  return sf;
}

/** The value names `file` re-exports by name, each with the file it comes from. */
function reExports(file: string): [string, string][] {
  const out: [string, string][] = [];
  for (const st of parse(file).statements) {
    if (!ts.isExportDeclaration(st) || st.isTypeOnly || !st.moduleSpecifier) continue;
    if (!st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
    const from = join(dirname(file), (st.moduleSpecifier as ts.StringLiteral).text.replace(/\.js$/, ".ts"));
    for (const e of st.exportClause.elements) {
      if (!e.isTypeOnly) out.push([(e.propertyName ?? e.name).text, from]);
    }
  }
  return out;
}

/** Where `name` is declared, following `export { name } from` chains (e.g. spec/layouts/index.ts). */
function declaringFile(name: string, file: string): string {
  const next = reExports(file).find(([n]) => n === name);
  return next === undefined ? file : declaringFile(next[0], next[1]);
}

const isPublic = (m: ts.ClassElement) =>
  !(
    ts.getCombinedModifierFlags(m as ts.Declaration) &
    (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
  );

/** The public methods and constructor of class `st` with more than MAX_PARAMS parameters. */
function wideMembers(name: string, st: ts.ClassDeclaration): string[] {
  const out: string[] = [];
  for (const m of st.members) {
    if (!(ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m)) || !isPublic(m)) continue;
    if (m.parameters.length > MAX_PARAMS) {
      const member = ts.isConstructorDeclaration(m) ? "constructor" : m.name.getText();
      out.push(`${name}.${member} (${m.parameters.length})`);
    }
  }
  return out;
}

/** `name` in `file`'s declarations (function, arrow const, class) with too many parameters. */
function wide(name: string, file: string): string[] {
  const out: string[] = [];
  for (const st of parse(file).statements) {
    if (ts.isFunctionDeclaration(st) && st.name?.text === name && st.parameters.length > MAX_PARAMS)
      out.push(`${name} (${st.parameters.length})`);
    if (ts.isClassDeclaration(st) && st.name?.text === name) out.push(...wideMembers(name, st));
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      if (d.name.getText() !== name || init === undefined) continue;
      if ((ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && init.parameters.length > MAX_PARAMS)
        out.push(`${name} (${init.parameters.length})`);
    }
  }
  return out;
}

describe(`exported calls take at most ${MAX_PARAMS} positional parameters`, () => {
  it.each(ENTRIES)("src/%s", (entry) => {
    const offenders = reExports(join(SRC, entry))
      .filter(([name]) => READABLE_REFERENCE[name] === undefined)
      .flatMap(([name, file]) => wide(name, declaringFile(name, file)));
    expect(offenders).toEqual([]);
  });

  it("finds a wide call however it is declared (a probe)", () => {
    const probe = join(SRC, "numerics/index.ts");
    expect(reExports(probe).length).toBeGreaterThan(0);
    expect(wide("encodeFromF32", declaringFile("encodeFromF32", probe))).not.toEqual([]);
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
