// The package's type declarations stay small: no `.d.ts` that `npm pack` would ship is over 50 KB
// (an embedded wasm binary typed by its literal value once made one 510 KB). Reads the dist/ the
// pretest built, through `npm pack --dry-run` so the list is exactly what the tarball would hold.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MAX_DECLARATION_BYTES = 50 * 1024;

interface PackedFile {
  path: string;
  size: number;
}

function packedFiles(): PackedFile[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--silent"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return (JSON.parse(out) as { files: PackedFile[] }[])[0]!.files;
}

describe("the packed declarations", () => {
  it("ship no .d.ts over 50 KB", { timeout: 20_000 }, () => {
    const declarations = packedFiles().filter((f) => f.path.endsWith(".d.ts"));
    expect(declarations.length).toBeGreaterThan(0);
    expect(declarations.map((f) => f.path)).toContain("dist/index.d.ts");
    const big = declarations.filter((f) => f.size > MAX_DECLARATION_BYTES).map((f) => `${f.path} ${f.size}`);
    expect(big).toEqual([]);
  });
});
