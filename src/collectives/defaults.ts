/**
 * The defaults of a collective run and sweep, and the CLI's: a module of its own, importing
 * nothing, so the CLI's help prints them without loading the collectives layer.
 */
export const COLLECTIVE_DEFAULTS = {
  ranks: 8,
  nodes: 1,
  arch: "trn2",
  algorithm: "auto",
  dtype: "bf16",
  op: "sum",
  check: "exact",
  seed: 0,
  minBytes: 8,
  maxBytes: 4 * 1024 * 1024,
  factor: 2,
} as const;
