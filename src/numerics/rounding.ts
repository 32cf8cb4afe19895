import type { RandomSource, SrStream } from "./sr-stream.js";

/**
 * How a conversion to a narrower float rounds. `rne`: round to nearest, ties to even (IEEE 754
 * default). `sr`: stochastic rounding driven by `rng`, normally an {@link SrStream} (any
 * {@link RandomSource} will do: tests feed every word in turn); float-encode.ts says where the
 * random bits go. Integer destinations always round RNE (MODEL, int-encode.ts).
 */
export type Rounding = { readonly mode: "rne" } | SrRounding;

/**
 * The stochastic {@link Rounding}; `R`: what its holder needs of the stream (a DMA queue reseeds
 * its {@link SrStream} at each seed-init).
 */
export interface SrRounding<R extends RandomSource = RandomSource> {
  readonly mode: "sr";
  readonly rng: R;
}

/** Round to nearest, ties to even: the default {@link Rounding}. */
export const RNE: Rounding = { mode: "rne" };

/**
 * What a finite value too large for a narrow float becomes. The word "saturate" means three
 * different things in the wild (../shared/GROUND_TRUTH.md), so each policy says exactly what it does:
 * - `ieee` (default): finite overflow → ±inf; inf stays inf. IEEE 754, LLVM APFloat, ml_dtypes.
 * - `nan`: finite overflow → NaN with the value's sign; inf stays inf. The device behaviour the
 *   public Neuron docs describe ("out of range values end as NaN"; exact encodings unpublished).
 * - `satfinite`: finite overflow → ±max finite, and ±inf → ±max finite too (CUDA SATFINITE, OCP).
 * NaN stays NaN under every policy.
 */
export type OverflowPolicy = "ieee" | "nan" | "satfinite";

/** All policies, in the order above; the CLI and tests enumerate these. */
export const OVERFLOW_POLICIES: readonly OverflowPolicy[] = ["ieee", "nan", "satfinite"];
