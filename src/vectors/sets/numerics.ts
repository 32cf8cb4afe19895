/**
 * The `numerics` set: every cast between the 15 dtypes (source → FP32 → destination, GROUND_TRUTH
 * "Numbers and dtypes"; seed 000 §3.3) under RNE with each overflow policy, and under stochastic
 * rounding with the seed and the random words it drew; then every CCE op (ADD / FMA / MIN / MAX,
 * MIN / MAX with and without a constant) × input / accumulator / output dtype, element by element,
 * run on the simulated engine. A group is one (source, destination) pair of a cast, or one
 * (op, dtypes) row of a CCE op.
 */
import { f32ToBits, hex32 } from "../../bits/index.js";
import {
  decodeToF32,
  encodeFromF32,
  narrowFloatFormat,
  OVERFLOW_POLICIES,
  type OverflowPolicy,
  RNE,
  type Rounding,
  SrStream,
} from "../../numerics/index.js";
import { type Dtype, dtypeBytes, dtypeFromName, dtypeName } from "../../spec/index.js";
import { type CceCase, runCce } from "../cce-device.js";
import { bytesToCodes, code, codesToBytes } from "../codes.js";
import { ELEMENT_DTYPES, edgeCodes } from "../edge-codes.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";

interface CastCase {
  readonly kind: "cast";
  readonly from: string;
  readonly to: string;
  readonly overflow: OverflowPolicy;
  readonly srSeed?: number;
  readonly codes: readonly string[];
}

/** Random codes drawn per random case. */
const RANDOM_CODES = 8;

function randomCodes(dt: Dtype, rng: VectorRng, n: number): string[] {
  return Array.from({ length: n }, () => code(dt, BigInt(rng.u32()) | (BigInt(rng.u32()) << 32n)));
}

/** A random source that records the words it hands out. */
function recording(seed: number): { source: { nextU32(): number }; words: number[] } {
  const stream = new SrStream(seed);
  const words: number[] = [];
  return {
    words,
    source: {
      nextU32() {
        const w = stream.nextU32();
        words.push(w);
        return w;
      },
    },
  };
}

function dtypeOf(name: string): Dtype {
  const dt = dtypeFromName(name);
  if (dt === undefined) throw new TypeError(`numerics: unknown dtype ${JSON.stringify(name)}`);
  return dt;
}

function runCast(c: CastCase): Json {
  const from = dtypeOf(c.from);
  const to = dtypeOf(c.to);
  const n = c.codes.length;
  const f32 = new Float32Array(n);
  decodeToF32(from, codesToBytes(from, c.codes), 0, n, f32);
  const out = new Uint8Array(n * dtypeBytes(to));
  const rec = c.srSeed === undefined ? undefined : recording(c.srSeed);
  const rounding: Rounding = rec === undefined ? RNE : { mode: "sr", rng: rec.source };
  encodeFromF32(to, f32, 0, n, out, 0, rounding, c.overflow);
  const fp32 = Array.from(new Uint32Array(f32.buffer), hex32);
  return {
    fp32,
    codes: bytesToCodes(to, out),
    ...(rec === undefined ? {} : { srWords: rec.words.map(hex32) }),
  };
}

function* castInputs(count: number, seed: number, rng: VectorRng): Iterable<CaseInput> {
  for (const from of ELEMENT_DTYPES) {
    for (const to of ELEMENT_DTYPES) {
      const base = { kind: "cast", from: dtypeName(from), to: dtypeName(to) };
      const id = `cast/${base.from}/${base.to}`;
      const narrow = narrowFloatFormat(to) !== undefined;
      const policies = narrow ? OVERFLOW_POLICIES : (["ieee"] as const);
      for (const overflow of policies)
        yield { id: `${id}/rne/${overflow}/edges`, input: { ...base, overflow, codes: edgeCodes(from) } };
      for (let i = 0; i < count; i++)
        yield {
          id: `${id}/rne/ieee/random/${i}`,
          input: { ...base, overflow: "ieee", codes: randomCodes(from, rng, RANDOM_CODES) },
        };
      if (!narrow) continue;
      yield {
        id: `${id}/sr/edges`,
        input: { ...base, overflow: "ieee", srSeed: seed, codes: edgeCodes(from) },
      };
      for (let i = 0; i < count; i++)
        yield {
          id: `${id}/sr/random/${i}`,
          input: {
            ...base,
            overflow: "ieee",
            srSeed: (seed + 1 + i) >>> 0,
            codes: randomCodes(from, rng, RANDOM_CODES),
          },
        };
    }
  }
}

const OPS = ["add", "fma", "min", "max"] as const;
/** Scales of the FMA rows: exact, a rounding one, a negative and −0 (binary32 bits). */
const SCALES = [0x3f000000, 0xc0000000, 0x3eaaaaab, 0x80000000].map(hex32);
/** The MIN / MAX constant of the clamped rows: 1.5. */
const CONSTANT = hex32(f32ToBits(1.5));

/** The (in, accum, out) rows of each op: each dtype as in = out, each out from bf16, the accum dtypes. */
function cceRows(): [string, string, string][] {
  const names = ELEMENT_DTYPES.map(dtypeName);
  const rows: [string, string, string][] = names.map((n) => [n, "fp32", n]);
  for (const out of names) if (out !== "bf16") rows.push(["bf16", "fp32", out]);
  for (const accum of ["bf16", "fp32r", "int32"]) rows.push(["bf16", accum, "bf16"]);
  return rows;
}

function cceInput(
  op: (typeof OPS)[number],
  row: [string, string, string],
  sources: string[][],
  extra: Partial<CceCase>,
): Json {
  const [inDtype, accumDtype, outDtype] = row;
  const scales = op === "fma" ? { scales: sources.map((_, i) => SCALES[i % SCALES.length] as string) } : {};
  return {
    kind: "cce",
    arch: "trn2",
    op,
    inDtype,
    accumDtype,
    outDtype,
    overflow: "nan",
    ...scales,
    ...extra,
    sources,
  } as Json;
}

function* cceInputs(count: number, seed: number, rng: VectorRng): Iterable<CaseInput> {
  for (const op of OPS) {
    for (const row of cceRows()) {
      const inDt = dtypeOf(row[0]);
      const edges = edgeCodes(inDt);
      const sources = [edges, [...edges.slice(3), ...edges.slice(0, 3)]];
      const id = `cce/${op}/${row.join("-")}`;
      yield { id: `${id}/edges`, input: cceInput(op, row, sources, {}) };
      if (op === "min" || op === "max")
        yield { id: `${id}/constant`, input: cceInput(op, row, sources, { constant: CONSTANT }) };
      for (let i = 0; i < count; i++) {
        const random = [0, 1, 2].map(() => randomCodes(inDt, rng, RANDOM_CODES));
        yield { id: `${id}/random/${i}`, input: cceInput(op, row, random, {}) };
      }
    }
  }
  for (const overflow of OVERFLOW_POLICIES) {
    const edges = edgeCodes(dtypeOf("fp32"));
    yield {
      id: `cce/add/fp32-fp32-fp8_e4/${overflow}`,
      input: cceInput("add", ["fp32", "fp32", "fp8_e4"], [edges, edges], { overflow }),
    };
  }
  const bf16 = edgeCodes(dtypeOf("bf16"));
  yield {
    id: "cce/add/fp32-fp32-bf16/sr",
    input: cceInput(
      "add",
      ["fp32", "fp32", "bf16"],
      [edgeCodes(dtypeOf("fp32")), edgeCodes(dtypeOf("fp32"))],
      { srSeed: seed },
    ),
  };
  yield {
    id: "cce/fma/bf16-fp32-bf16/sr",
    input: cceInput("fma", ["bf16", "fp32", "bf16"], [bf16, bf16], { srSeed: seed }),
  };
}

const CODES = {
  type: "array",
  items: { type: "string", pattern: "^[0-9a-f]+$" },
  description:
    "Element codes: each element's bits as big-endian hex, two digits per byte of its dtype (`3f80` is bf16 1.0, `ffffffff` int32 −1). In memory the elements are little-endian, one after another.",
} as const;
const DTYPE = {
  enum: ELEMENT_DTYPES.map(dtypeName),
  description: "A dtype name (seed 002 §5 codes 1..15: uint64 1 … fp8_e5 15).",
} as const;
const OVERFLOW = {
  enum: [...OVERFLOW_POLICIES],
  description:
    "What a finite value too large for a narrow float becomes (MODEL, docs/FIDELITY.md): `ieee` ±inf, `nan` NaN with the sign (inf stays inf), `satfinite` ±max (inf too).",
} as const;
const BITS = { type: "string", pattern: "^0x[0-9a-f]{8}$", description: "binary32 bits, `0x%08x`." } as const;

const inputSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      description: "A cast: each code of `from` → FP32 (exact) → `to`, one rounding.",
      required: ["kind", "from", "to", "overflow", "codes"],
      properties: {
        kind: { const: "cast" },
        from: DTYPE,
        to: DTYPE,
        overflow: OVERFLOW,
        srSeed: {
          type: "integer",
          minimum: 0,
          maximum: 4294967295,
          description:
            "Stochastic rounding from a stream seeded with this (MODEL: splitmix32 → xoshiro128**); absent: round to nearest even. The words drawn are in expect.srWords.",
        },
        codes: { ...CODES, description: `The source elements. ${CODES.description}` },
      },
    },
    {
      type: "object",
      description:
        "A CCE reduce on the simulated trn2 engine (seed 000 §2–§4): every source decoded to FP32, combined by op in an FP32 accumulator (FMA: acc = s0·scale0, then acc = si·scalei + acc, one rounding each), clamped by the constant (MIN / MAX), encoded to outDtype.",
      required: ["kind", "arch", "op", "inDtype", "accumDtype", "outDtype", "overflow", "sources"],
      properties: {
        kind: { const: "cce" },
        arch: { enum: ["trn1", "trn2", "trn3"] },
        op: { enum: [...OPS] },
        inDtype: DTYPE,
        accumDtype: DTYPE,
        outDtype: DTYPE,
        overflow: OVERFLOW,
        srSeed: {
          type: "integer",
          minimum: 0,
          maximum: 4294967295,
          description: "SR on with this seed (a seed-init descriptor opens the packet).",
        },
        scales: { type: "array", items: BITS, description: "FMA: one fp32 scale per source." },
        constant: {
          ...BITS,
          description: "MIN / MAX: the fp32 clamp constant (cce_info.min_max_info, use_constant).",
        },
        sources: { type: "array", items: CODES, description: "Each source's elements, all the same count." },
      },
    },
  ],
};

const expectSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["fp32", "codes"],
      properties: {
        fp32: {
          type: "array",
          items: BITS,
          description: "Each source element as FP32 (the exact widening).",
        },
        codes: { ...CODES, description: "The destination elements." },
        srWords: { type: "array", items: BITS, description: "SR only: the random words drawn, in order." },
      },
    },
    {
      type: "object",
      required: ["destination"],
      properties: { destination: { ...CODES, description: "The destination elements the engine wrote." } },
    },
    {
      type: "object",
      required: ["refused"],
      properties: {
        refused: { type: "string", description: "libnrt's assert or -EINVAL message: nothing was written." },
      },
    },
    {
      type: "object",
      required: ["fault"],
      properties: { fault: { type: "array", items: { type: "string" } } },
    },
  ],
};

export const NUMERICS_SET: VectorSet = {
  name: "numerics",
  doc: "Casts between the 15 dtypes under RNE with every overflow policy and under SR (seed, words drawn), and every CCE op × (in, accum, out) dtype element by element on the engine; edge values first (±0, subnormals, largest finite, ±inf, NaN payloads, rounding ties, overflow thresholds, integer extremes), then per group `count` random cases. The LLVM APFloat vectors of test/vectors stay the oracle these are checked against.",
  inputSchema,
  expectSchema,
  *inputs({ count, seed }, rng) {
    yield* castInputs(count, seed, rng);
    yield* cceInputs(count, seed, rng);
  },
  run(input) {
    const c = input as unknown as CastCase | (CceCase & { kind: "cce" });
    return c.kind === "cast" ? runCast(c) : runCce(c);
  },
};
