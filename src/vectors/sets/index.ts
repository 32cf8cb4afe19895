/** Every vector set, in the order `sdmakit vectors` writes them. */
import type { VectorSet } from "../vector-set.js";
import { LAYOUTS_SET } from "./layouts.js";
import { NUMERICS_SET } from "./numerics.js";

export const VECTOR_SETS: readonly VectorSet[] = [LAYOUTS_SET, NUMERICS_SET];

/** A set by name. */
export function vectorSet(name: string): VectorSet | undefined {
  return VECTOR_SETS.find((s) => s.name === name);
}
