/**
 * The JSON Schema of one line of a set's file: the envelope every set shares (`id`, `pins`) around
 * the set's own `input` and `expect` schemas.
 */
import type { JsonSchema, VectorSet } from "./vector-set.js";

/** The schema URI prefix of the set schemas (versioned with the format, not the tool). */
export const SCHEMA_BASE = "https://sdmakit.dev/vectors/1";

/** The schema of a set's cases, as written to `<set>.schema.json`. */
export function setSchema(set: VectorSet): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `${SCHEMA_BASE}/${set.name}.schema.json`,
    title: `sdmakit vectors: ${set.name}`,
    description: `One line of ${set.name}.jsonl (JSON Lines, one case a line). ${set.doc}`,
    type: "object",
    required: ["id", "pins", "input", "expect"],
    additionalProperties: false,
    properties: {
      id: {
        type: "string",
        description:
          "The case's name, unique in the set and stable for the same seed and count; `--check` reports differences by it.",
      },
      pins: {
        type: "array",
        items: { type: "string" },
        description:
          "The seed facts this case is a subject of: each is a phrase of a seed-fact row of docs/FIDELITY.md (which cites the seed note and §).",
      },
      input: set.inputSchema,
      expect: {
        ...set.expectSchema,
        description: "What this build computes from `input`: `sdmakit vectors --check` recomputes it.",
      },
    },
  };
}
