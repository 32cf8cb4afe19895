/** Every vector set, in the order `sdmakit vectors` writes them. */
import type { VectorSet } from "../vector-set.js";
import { BUILDERS_SET } from "./builders.js";
import { COLLECTIVES_SET } from "./collectives.js";
import { ENGINE_SET } from "./engine.js";
import { HAL_SET } from "./hal.js";
import { LAYOUTS_SET } from "./layouts.js";
import { NUMERICS_SET } from "./numerics.js";
import { S3D3_SET } from "./s3d3.js";

export const VECTOR_SETS: readonly VectorSet[] = [
  LAYOUTS_SET,
  NUMERICS_SET,
  BUILDERS_SET,
  ENGINE_SET,
  S3D3_SET,
  HAL_SET,
  COLLECTIVES_SET,
];

/** A set by name. */
export function vectorSet(name: string): VectorSet | undefined {
  return VECTOR_SETS.find((s) => s.name === name);
}
