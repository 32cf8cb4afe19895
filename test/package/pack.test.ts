// The package as a user gets it: a clean tree of the committed HEAD (no dist/), `npm pack` (prepack
// builds), the tarball installed offline into an empty project, then `npx sdmakit allr` runs.
// Slow (a full tsc build), so it has its own file.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function sh(cwd: string, cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("npm pack from a clean clone", () => {
  it("installs into an empty project and `npx sdmakit allr` works", { timeout: 300_000 }, () => {
    const work = mkdtempSync(join(tmpdir(), "sdmakit-pack-"));
    const clone = join(work, "clone");
    mkdirSync(clone);
    // The committed tree only: what a clean clone holds (no dist/, no local edits).
    execFileSync("sh", ["-c", `git -C "${ROOT}" archive HEAD | tar -x -C "${clone}"`]);
    symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"), "dir");
    const packed = JSON.parse(sh(clone, "npm", ["pack", "--json", "--silent"])) as {
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
    expect(v.stdout).toBe(
      `${JSON.parse(sh(ROOT, "node", ["-p", "JSON.stringify(require('./package.json').version)"]))}\n`,
    );
  });
});
