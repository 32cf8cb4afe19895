/**
 * Which layout a byte string is: the layouts of its length whose constant bits all hold, the one
 * with the most constant bits first (a layout with more fixed bits is the more specific match),
 * then the fewest other issues, then the order of `sdmakit layouts`.
 */
import type { Layout } from "../../src/bits/index.js";
import { LAYOUTS } from "../../src/spec/index.js";

/** The layouts these bytes may be, best first; empty when none has their length or constants. */
export function guessLayouts(bytes: Uint8Array): Layout[] {
  const scored = LAYOUTS.filter((l) => l.bytes === bytes.length).flatMap((layout, order) => {
    const issues = layout.issues(bytes);
    if (issues.some((i) => i.kind === "const")) return [];
    const constBits = layout.leaves.filter((l) => l.kind === "const").reduce((n, l) => n + l.width, 0);
    return [{ layout, constBits, issues: issues.length, order }];
  });
  scored.sort((a, b) => b.constBits - a.constBits || a.issues - b.issues || a.order - b.order);
  return scored.map((s) => s.layout);
}

/** The byte sizes that some layout has, for the message when none fits. */
export function layoutSizes(): number[] {
  return [...new Set(LAYOUTS.map((l) => l.bytes))].sort((a, b) => a - b);
}
