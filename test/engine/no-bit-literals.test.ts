/**
 * The engine reads every descriptor field through a reader compiled from its layout
 * (src/engine/decode/descriptor.ts): no hand-written bit mask may come back into src/engine, where it would
 * drift from src/spec/layouts as nand2tetris's BITS table did.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ENGINE = join(import.meta.dirname, "../../src/engine");

/** Shapes of a hand-written field access: shift-then-mask, a one-bit mask, a word masked or shifted. */
const BIT_LITERALS: readonly RegExp[] = [
  /(>>>?)\s*\d+n?\s*\)\s*&/, // (w >>> 23) & 7
  /&\s*\(?\s*1n?\s*<<\s*\d+/, // w & (1 << 26)
  /\bw[0-3]\b\s*(&|>>>|>>|<<|\|)\s*\d/, // d.w1 & 0x80, d.w0 >>> 24
  /&\s*0x[0-9a-f]+/i, // x & 0x1f
];

describe("src/engine has no descriptor bit-mask literal", () => {
  const files = readdirSync(ENGINE, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"));
  it.each(files)("%s", (file) => {
    const lines = readFileSync(join(ENGINE, file), "utf8").split("\n");
    const hits = lines
      .map((text, i) => ({ line: i + 1, text: text.trim() }))
      .filter(({ text }) => !text.startsWith("*") && !text.startsWith("//"))
      .filter(({ text }) => BIT_LITERALS.some((re) => re.test(text)));
    expect(hits).toEqual([]);
  });

  it("the pattern catches the masks it was written against", () => {
    for (const old of [
      "export const metaOp = (w: number): number => (w >>> 23) & 7;",
      "barrier: tx.some((d) => (d.w1 & (1 << 26)) !== 0)",
      "export const metaLast = (w: number): boolean => (w & 0x80) !== 0;",
      "const elem = first.w1 & 0x1f;",
    ]) {
      expect(BIT_LITERALS.some((re) => re.test(old))).toBe(true);
    }
  });
});
