// Every command in the README runs as written (against the built CLI, from the repository root),
// the library example runs through the package's own name, and the fresh-machine block keeps its
// two commands.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const README = readFileSync(join(ROOT, "README.md"), "utf8");

function blocks(lang: string): string[] {
  return [...README.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map(
    (m) => m[1] as string,
  );
}

/** The command part of a line (a trailing `# comment` dropped; `#` inside quotes is kept). */
const command = (line: string) => line.replace(/\s+#\s[^'"]*$/, "").trim();

const shellLines = blocks("sh").flatMap((b) => b.split("\n").filter((l) => l.trim() !== ""));
const cliLines = shellLines.filter((l) => l.startsWith("node bin/sdmakit.js")).map(command);

describe("README", () => {
  it("keeps exactly two fresh-machine commands", () => {
    const section = README.split("\n## On a fresh machine\n")[1]?.split("\n## ")[0] ?? "";
    const block = section.match(/```sh\n([\s\S]*?)```/)?.[1] ?? "";
    const lines = block.split("\n").filter((l) => l.trim() !== "");
    expect(lines.map(command)).toEqual(["npm ci && npm start", "npm test"]);
  });
  it.each(cliLines)("%s", (line) => {
    const r = spawnSync("sh", ["-c", line], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("progress:"))).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
  });
  it("the library example runs", () => {
    const [example] = blocks("js");
    const file = join(ROOT, ".readme-example.mjs");
    writeFileSync(file, example as string);
    try {
      const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
      expect([r.status, r.stderr]).toEqual([0, ""]);
      expect(r.stdout.split("\n")[0]).toBe("0.5");
    } finally {
      rmSync(file, { force: true });
    }
  });
});
