/**
 * sdmakit vectors: the conformance vector sets (layouts, numerics, builders, engine, s3d3, hal,
 * collectives) as data — each set's cases, its JSON Schema and the one `run` that answers a case —
 * the files `sdmakit vectors` writes (JSON Lines + manifest with SHA-256s) and the `--check` that
 * re-runs a set against this build. docs/VECTORS.md describes the format.
 * @module
 */
export { type CheckReport, checkVectors, type Difference } from "./check.js";
export { setSchema } from "./envelope-schema.js";
export {
  DEFAULT_OPTIONS,
  generateFiles,
  MAX_COUNT,
  type Manifest,
  type ManifestSet,
  SEED_NOTES,
  setLines,
  VECTORS_FORMAT,
} from "./generate.js";
export { VECTOR_SETS, vectorSet } from "./sets/index.js";
export type { GenerateOptions, Json, JsonSchema, VectorCase, VectorSet } from "./vector-set.js";
