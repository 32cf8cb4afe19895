/**
 * A conformance vector set: one kind of behaviour (layouts, numerics, builders, …) as cases of
 * `input → expect`, generated edge cases first and then seeded random ones. `run` is the one
 * function that gives a case's `expect` from its `input`: the generator and `--check` both call it,
 * so a set made by one sdmakit can be re-run by another.
 */
import { SrStream } from "../numerics/sr-stream.js";

/** A JSON value as the vector files hold it (no undefined, no bigint, no NaN: bits go as hex strings). */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** One case: a line of the set's JSON Lines file. */
export interface VectorCase {
  /** Unique in its set, stable across runs of the same seed and count (`fma-meta/encode/max/in_dt`). */
  readonly id: string;
  /**
   * The ledger facts the case is a subject of: each is a phrase of a docs/FIDELITY.md seed-fact row
   * (`CSWTCH.21`). Empty when the case pins no single fact.
   */
  readonly pins: readonly string[];
  readonly input: Json;
  readonly expect: Json;
}

/** What a set is generated from. */
export interface GenerateOptions {
  /** Seed of the random cases (any 32-bit unsigned integer). */
  readonly seed: number;
  /** Random cases per group after the edge cases; a set's doc says what its group is. */
  readonly count: number;
}

/** A case before its `expect` is computed: the generator states the input, `run` answers it. */
export interface CaseInput {
  readonly id: string;
  readonly pins?: readonly string[];
  readonly input: Json;
}

/** A JSON Schema object (draft 2020-12), kept as plain data. */
export type JsonSchema = { readonly [key: string]: Json };

export interface VectorSet {
  readonly name: string;
  /** One paragraph: what the set covers, what a group is, which seed sections. */
  readonly doc: string;
  /** The JSON Schemas of a case's `input` and `expect` (the envelope is common to every set). */
  readonly inputSchema: JsonSchema;
  readonly expectSchema: JsonSchema;
  /** The cases' inputs, edge cases first. */
  inputs(options: GenerateOptions, rng: VectorRng): Iterable<CaseInput>;
  /**
   * The expected output of one input, by this build.
   * @throws only for an input that is not the set's (the check reports it as the case's error).
   */
  run(input: Json): Json;
  /** Files the set ships beside its cases (the layouts' declarations), by file name. */
  readonly attachments?: () => Readonly<Record<string, Json>>;
}

/** The seeded random source of the generators (xoshiro128**, the SR stream's: no second PRNG). */
export class VectorRng {
  private readonly stream: SrStream;
  constructor(seed: number) {
    this.stream = new SrStream(seed);
  }
  /** 32 random bits. */
  u32(): number {
    return this.stream.nextU32();
  }
  /** An integer in 0..n−1 (n ≤ 2^32). */
  below(n: number): number {
    return Math.floor((this.u32() / 2 ** 32) * n);
  }
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

/** The case of an input: its expect computed by the set. */
export function caseOf(set: VectorSet, c: CaseInput): VectorCase {
  return { id: c.id, pins: c.pins ?? [], input: c.input, expect: set.run(c.input) };
}
