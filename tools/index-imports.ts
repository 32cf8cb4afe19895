/**
 * Point test imports at the layer indexes: every `import … from "…/src/<layer>/<file>.js"` in test/
 * becomes an import from the index of the layer that defines each name (a name re-exported by
 * another layer is imported from its own). A name the index does not export yet is listed and its
 * import left alone: export it from the index on purpose, or list the import in
 * test/style/public-api.test.ts INTERNAL_IMPORTS with the reason. Run `npx biome check --write test`
 * after it to sort the imports.
 *
 * Usage: npx tsx tools/index-imports.ts [--dry-run]
 */
import { execSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { writeOutput } from "../src/cli/output-file.js";

const ROOT = join(import.meta.dirname, "..");
const LAYERS = ["bits", "spec", "numerics", "hal", "runtime", "engine", "isa", "collectives", "cli"];
const dryRun = process.argv.includes("--dry-run");

const files = execSync("git ls-files -co --exclude-standard src test", { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
  .map((f) => join(ROOT, f));
const program = ts.createProgram(files, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** The layer a source file belongs to, if any. */
function layerOf(file: string): string | undefined {
  const rel = relative(join(ROOT, "src"), file);
  const layer = rel.split(/[\\/]/)[0] ?? "";
  return !rel.startsWith("..") && LAYERS.includes(layer) ? layer : undefined;
}

const indexPath = (layer: string) => join(ROOT, "src", layer, "index.ts");

/** The names each layer's index exports. */
const indexExports = new Map<string, Set<string>>();
for (const layer of LAYERS) {
  const sf = program.getSourceFile(indexPath(layer));
  const sym = sf && checker.getSymbolAtLocation(sf);
  indexExports.set(layer, new Set(sym ? checker.getExportsOfModule(sym).map((s) => s.name) : []));
}

interface Use {
  readonly spec: string;
  readonly layer: string;
}

const missing: string[] = [];
let rewritten = 0;
for (const sf of program.getSourceFiles()) {
  const file = relative(ROOT, sf.fileName);
  if (!file.startsWith("test/")) continue;
  const edits: { start: number; end: number; uses: Use[] }[] = [];
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || st.importClause === undefined) continue;
    const mod = checker.getSymbolAtLocation(st.moduleSpecifier);
    const target = mod?.valueDeclaration?.getSourceFile().fileName;
    const layer = target && layerOf(target);
    if (!mod || !target || !layer) continue;
    const bindings = st.importClause.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings) || st.importClause.name !== undefined)
      continue;
    const uses: Use[] = [];
    for (const e of bindings.elements) {
      const name = (e.propertyName ?? e.name).getText(sf);
      const sym = checker.getExportsOfModule(mod).find((s) => s.name === name);
      const orig = sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      const owner = layerOf(orig?.declarations?.[0]?.getSourceFile().fileName ?? target) ?? layer;
      if (!indexExports.get(owner)?.has(name)) missing.push(`${owner}: ${name} (${file})`);
      const typeOnly = e.isTypeOnly || st.importClause.isTypeOnly;
      const local = e.propertyName ? `${name} as ${e.name.getText(sf)}` : name;
      uses.push({ spec: typeOnly ? `type ${local}` : local, layer: owner });
    }
    const alreadyIndex = target === indexPath(layer) && uses.every((u) => u.layer === layer);
    if (
      !alreadyIndex &&
      uses.every((u) => indexExports.get(u.layer)?.has(u.spec.replace(/^type /, "").split(" ")[0] ?? ""))
    )
      edits.push({ start: st.getStart(sf), end: st.getEnd(), uses });
  }
  if (edits.length === 0) continue;
  let text = sf.getFullText();
  const byLayer = new Map<string, string[]>();
  for (const edit of [...edits].reverse()) {
    for (const u of edit.uses) byLayer.set(u.layer, [...(byLayer.get(u.layer) ?? []), u.spec]);
    text = text.slice(0, edit.start) + text.slice(edit.end).replace(/^\n/, "");
  }
  const at = edits[0]?.start ?? 0;
  const lines = [...byLayer].map(([layer, specs]) => {
    let path = relative(dirname(sf.fileName), join(ROOT, "src", layer, "index.js")).replaceAll("\\", "/");
    if (!path.startsWith(".")) path = `./${path}`;
    return `import { ${[...new Set(specs)].join(", ")} } from "${path}";\n`;
  });
  text = text.slice(0, at) + lines.join("") + text.slice(at);
  rewritten++;
  if (!dryRun) writeOutput(sf.fileName, text);
}
console.log(`${dryRun ? "would rewrite" : "rewrote"} ${rewritten} test file(s)`);
if (missing.length > 0) {
  console.log("not exported by their index yet (export on purpose, or list the import as an exception):");
  for (const m of [...new Set(missing)].sort()) console.log(`  ${m}`);
}
