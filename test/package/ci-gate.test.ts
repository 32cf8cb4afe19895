// .ci/run gates the tests on types and lint: it builds, runs `npm run typecheck` (the @ts-expect-error
// type tests and web/ included) and `npm run lint` (web/ included, warnings are errors), each ending
// the run with "0 passed, 1 failed" on failure, all before `npm test`. Read from the files, not run.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const CI = readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
const SCRIPTS = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

describe(".ci/run", () => {
  it("builds, typechecks and lints before the tests, failing with the plain count line", () => {
    const gate = CI.match(/^for step in ([\w ]+); do\n(.*)\ndone$/m);
    expect(gate, "the build / typecheck / lint loop").not.toBeNull();
    expect(gate![1]!.split(" ")).toEqual(["build", "typecheck", "lint"]);
    expect(gate![2]).toMatch(/npm run "\$step" \|\| \{.*echo "0 passed, 1 failed"; exit 1; \}/);
    const at = (s: string) => CI.indexOf(s);
    expect(at("npm ci ")).toBeGreaterThan(-1);
    expect(at("npm ci ")).toBeLessThan(at("for step in"));
    expect(at("for step in")).toBeLessThan(at("npm test"));
  });

  it("typechecks src, tests and web/, and lints web/ with warnings as errors", () => {
    expect(SCRIPTS.typecheck).toContain("tsc -p tsconfig.json --noEmit");
    expect(SCRIPTS.typecheck).toContain("tsc -p web/tsconfig.json");
    const lint = SCRIPTS.lint!.split(/\s+/);
    expect(lint.slice(0, 2)).toEqual(["biome", "check"]);
    expect(lint).toContain("--error-on-warnings");
    for (const dir of ["src", "test", "bench", "tools", "web"]) expect(lint).toContain(dir);
  });
});
