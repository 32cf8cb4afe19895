/**
 * A layout by object or name: the one lookup the API's encode / decode and the layout commands
 * share. Its own module, not api.ts: api.ts re-exports the collectives, and `sdmakit describe`
 * importing it loaded ≈ 200 modules (the engine, the WASM kernels) to look a name up.
 */
import { didYouMean } from "./bits/did-you-mean.js";
import type { Layout } from "./bits/index.js";
import { UsageError } from "./bits/index.js";
import { LAYOUTS, layoutByName } from "./spec/index.js";

/** A layout given as itself or by name. @throws UsageError naming the closest name when unknown. */
export function layoutOf(layout: Layout | string): Layout {
  if (typeof layout !== "string") return layout;
  const found = layoutByName(layout);
  if (!found)
    throw new UsageError(
      `unknown layout ${JSON.stringify(layout)}${didYouMean(
        layout,
        LAYOUTS.map((l) => l.name),
      )}; known: ${LAYOUTS.map((l) => l.name).join(", ")}`,
    );
  return found;
}
