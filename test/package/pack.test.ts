// The package as a user gets it: a clean tree of the committed HEAD, packed, the tarball installed
// offline into an empty project, then `npx sdmakit allr` runs. The clean tree gets the dist/ that
// `npm run build` made (npm test builds it first, as for every test of the built CLI) and is packed
// with --ignore-scripts: prepack would run that same build again, a full tsc of ≈ 15 s of CPU, two
// thirds of this file's. That prepack builds is checked on package.json instead.
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  scripts: Record<string, string>;
};

function sh(cwd: string, cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("npm pack from a clean clone", () => {
  it("builds before it packs: prepack is the build, which starts from an empty dist/", () => {
    expect(PACKAGE.scripts.prepack).toBe("npm run build");
    expect(PACKAGE.scripts.build).toMatch(/rmSync\('dist'.*&& tsc -p tsconfig\.build\.json$/);
  });

  it("installs into an empty project and `npx sdmakit allr` works", { timeout: 300_000 }, () => {
    const work = mkdtempSync(join(tmpdir(), "sdmakit-pack-"));
    const clone = join(work, "clone");
    mkdirSync(clone);
    // The committed tree only: what a clean clone holds (no local edits), and the build.
    execFileSync("sh", ["-c", `git -C "${ROOT}" archive HEAD | tar -x -C "${clone}"`]);
    if (!existsSync(join(ROOT, "dist/cli/main.js")))
      throw new Error("the package is not built: run `npm run build` (npm test does it)");
    cpSync(join(ROOT, "dist"), join(clone, "dist"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"), "dir");
    const packed = JSON.parse(sh(clone, "npm", ["pack", "--json", "--silent", "--ignore-scripts"])) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain("dist/cli/main.js");
    expect(files).toContain("LICENSE");
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), '{ "name": "app", "version": "1.0.0", "private": true }\n');
    sh(app, "npm", ["install", "--offline", "--no-audit", "--no-fund", join(clone, packed[0]!.filename)]);
    const r = spawnSync("npx", ["--offline", "sdmakit", "allr", "-b", "1k", "-e", "2k"], {
      cwd: app,
      encoding: "utf8",
    });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/^# allr ranks=8 /);
    expect(r.stdout).toMatch(/\n\s+2048\s+1024\s+bf16\s.*\s0\n/);
    const v = spawnSync("npx", ["--offline", "sdmakit", "--version"], { cwd: app, encoding: "utf8" });
    expect(v.stdout).toBe(`${PACKAGE.version}\n`);
  });
});
