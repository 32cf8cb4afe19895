// The exact-input module (check/input-gen.ts): its committed .wat and binary are what the generator
// and wabt make now, so the three cannot drift (the data itself: inputs.test.ts).
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { compileInputGen, inputGenBinaryText } from "../../tools/wasm/build-input-gen.js";
import { inputGenWat } from "../../tools/wasm/input-gen-wat.js";

const dir = new URL("../../src/collectives/check/", import.meta.url);

it("input-gen.wat is the generator's text", () => {
  expect(readFileSync(new URL("input-gen.wat", dir), "utf8")).toBe(inputGenWat());
});

it("input-gen-binary.ts is input-gen.wat compiled", async () => {
  const committed = readFileSync(new URL("input-gen-binary.ts", dir), "utf8");
  expect(committed).toBe(inputGenBinaryText(await compileInputGen()));
});
