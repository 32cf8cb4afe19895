/**
 * Descriptor and control-word fields are read and written through readers compiled from their
 * layouts (src/spec/layouts): no hand-written bit mask may come back into src/engine, src/runtime or
 * src/hal, where it would drift from the declaration as nand2tetris's BITS table did. A mask by
 * name (`w & LEN_CTRL_FIRST`) is a hand mask too. What is left is listed below with why it is not a
 * field of a declared layout; a new hit, or a listed one that no longer occurs, fails.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");
const DIRS = ["engine", "runtime", "hal"];

/** Shapes of a hand-written field access: shift-then-mask, a one-bit mask, a word masked, a named mask. */
const BIT_LITERALS: readonly RegExp[] = [
  /(>>>?)\s*\d+n?\s*\)\s*&/, // (w >>> 23) & 7
  /&\s*\(?\s*1n?\s*<<\s*\d+/, // w & (1 << 26)
  /\bw[0-3]\b\s*(&|>>>|>>|<<|\|)\s*\d/, // d.w1 & 0x80, d.w0 >>> 24
  /&\s*0x[0-9a-f]+/i, // x & 0x1f
  /(?<!&)&(?!&)\s*~?\s*\(?\s*[A-Z][A-Z0-9_]{2,}\b/, // w & LEN_CTRL_FIRST, v & ~QUEUE_CFG_ENABLE
];

/** Masks that are not fields of a declared layout: file, the line's text, and why. */
const NOT_FIELDS: readonly (readonly [string, string, string])[] = [
  ["runtime/descriptors/descriptor.ts", "(w & 0xff)", "a word's bytes in little-endian order"],
  ["runtime/descriptors/descriptor.ts", "((w >>> 8) & 0xff)", "a word's bytes in little-endian order"],
  ["runtime/descriptors/descriptor.ts", "((w >>> 16) & 0xff)", "a word's bytes in little-endian order"],
  ["runtime/descriptors/gates.ts", "((inDt - 8) & 0xff) <= 3", "the seed's unsigned-byte range test"],
  ["runtime/descriptors/gates.ts", "((outDt - 8) & 0xff) <= 3", "the seed's unsigned-byte range test"],
  [
    "runtime/rings/queue-registers.ts",
    "RLIMIT_MASK_RESET & ~RLIMIT_MASK_INTERNAL_PAUSE_DMB",
    "UDMA queue register bits (udma-regs.ts), no layout yet",
  ],
  [
    "runtime/rings/queue-registers.ts",
    "QUEUE_CFG_RESET & ~QUEUE_CFG_ENABLE",
    "UDMA queue register bits (udma-regs.ts), no layout yet",
  ],
  ["runtime/rings/queue-registers.ts", "base & 0xffffffffn", "a 64-bit address's low word"],
  [
    "hal/cayman-transpose.ts",
    "(p >> 26n) & 0xffn",
    "the seed's packed to-address arithmetic (v52, with carries)",
  ],
  [
    "hal/cayman-transpose.ts",
    "(p >> 26n) & ~0xffn",
    "the seed's packed to-address arithmetic (v52, with carries)",
  ],
  [
    "hal/cayman-transpose.ts",
    "(p >> 8n) & 0x3ffffn",
    "the seed's packed to-address arithmetic (v52, with carries)",
  ],
  [
    "hal/cayman-transpose.ts",
    "hit.rel & 0x3ffffn",
    "the seed's packed to-address arithmetic (v52, with carries)",
  ],
  [
    "hal/cayman-transpose.ts",
    "(v52 & ~0xffn)",
    "the seed's packed to-address arithmetic (v52, with carries)",
  ],
  ["hal/cayman-transpose.ts", "(req.a2 >> 48n) & 0xffn", "the seed's pbase byte of the a2 argument"],
  ["hal/embedded-sem.ts", "addr & 0xffff_ffffn", "a 64-bit address's low word"],
  ["hal/embedded-sem.ts", "addr & ~AXI_REBASE_PREFIX", "an address rebase, not a field"],
  ["hal/embedded-sem.ts", "w1 >>> 0", "a word stored whole"],
  ["engine/device.ts", "(v & QUEUE_CFG_ENABLE)", "UDMA queue register bits (udma-regs.ts), no layout yet"],
  ["engine/device.ts", "(v & Q_SW_CTRL_RST_Q)", "UDMA queue register bits (udma-regs.ts), no layout yet"],
  ["engine/qos.ts", "(value & UDMA_QOS_ENABLE)", "the MARIANA QoS register (udma-regs.ts), no layout yet"],
  ["engine/decode/transpose-plan.ts", "addr & ~WINDOW_ALIGN_MASK", "an address's SBUF window, not a field"],
  ["engine/decode/transpose-plan.ts", "addr & WINDOW_ALIGN_MASK", "an address's SBUF window, not a field"],
  ["engine/memory/memory.ts", "addr & PAGE_MASK", "an address's page offset, not a field"],
];

function hitsOf(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const f of readdirSync(join(SRC, dir), { recursive: true }).map(String)) {
    if (!f.endsWith(".ts")) continue;
    for (const line of readFileSync(join(SRC, dir, f), "utf8").split("\n")) {
      const text = line.trim();
      if (text.startsWith("*") || text.startsWith("//") || text.startsWith("/*")) continue;
      if (BIT_LITERALS.some((re) => re.test(text))) out.push({ file: `${dir}/${f}`, text });
    }
  }
  return out;
}

describe("no descriptor bit-mask literal in src/engine, src/runtime, src/hal", () => {
  const hits = DIRS.flatMap(hitsOf);
  const listed = (h: { file: string; text: string }) =>
    NOT_FIELDS.some(([file, part]) => h.file === file && h.text.includes(part));

  it("every mask left is listed with why it is not a layout field", () => {
    expect(hits.filter((h) => !listed(h)).map((h) => `${h.file}: ${h.text}`)).toEqual([]);
  });

  it("every listed mask still occurs", () => {
    const stale = NOT_FIELDS.filter(
      ([file, part]) => !hits.some((h) => h.file === file && h.text.includes(part)),
    );
    expect(stale).toEqual([]);
  });

  it("the patterns catch the masks they were written against", () => {
    for (const old of [
      "export const metaOp = (w: number): number => (w >>> 23) & 7;",
      "barrier: tx.some((d) => (d.w1 & (1 << 26)) !== 0)",
      "export const metaLast = (w: number): boolean => (w & 0x80) !== 0;",
      "const elem = first.w1 & 0x1f;",
      "const first = (lenCtrl & LEN_CTRL_FIRST) !== 0;",
      "((phase & META_IDX_RING_ID_MASK) | (d.first ? META_IDX_FIRST : 0))",
    ]) {
      expect(BIT_LITERALS.some((re) => re.test(old))).toBe(true);
    }
    expect(BIT_LITERALS.some((re) => re.test("if (a && SDMA_DATA_TYPE_SIZE[t] === 1)"))).toBe(false);
  });
});
