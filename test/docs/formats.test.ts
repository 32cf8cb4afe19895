import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { formatsDocument } from "../../src/cli/index.js";

it("docs/FORMATS.md is what the layouts generate (run `npm run docs` when this fails)", () => {
  const onDisk = readFileSync(new URL("../../docs/FORMATS.md", import.meta.url), "utf8");
  expect(onDisk).toBe(formatsDocument());
});
