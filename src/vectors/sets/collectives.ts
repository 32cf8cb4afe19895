/**
 * The `collectives` set: small configurations (2–8 ranks on one trn2 node) of every collective and
 * every algorithm each takes → each rank's input and output bytes, run through the planner, the
 * runtime's descriptor builders and the engine (the same path as `sdmakit collectives`). Reductions
 * take exact data (small integers: the result is the same in any order), except the rounding cases
 * (avg over 3 ranks, avg of integers), which state the tolerance a recomputation must meet.
 * Exchanges take random bytes and are compared as bytes. A group is `count` random configurations.
 */
import { UsageError } from "../../bits/errors.js";
import { fromHex, toHex } from "../../bits/index.js";
import {
  buildPlan,
  buildTopology,
  candidateAlgorithms,
  DeviceMachine,
  EXCHANGES,
  type ExchangeName,
  type ExchangeSpec,
  exactApplies,
  generateInputs,
  isExchange,
  type PlanRequest,
} from "../../collectives/index.js";
import {
  ALGORITHMS,
  type AlgorithmName,
  type CollectiveName,
  REDUCE_OPS,
  type ReduceOp,
} from "../../collectives/plan/plan.js";
import { archProfile } from "../../hal/index.js";
import { decodeToF32 } from "../../numerics/index.js";
import { type Dtype, dtypeBytes, dtypeFromName, isFloatDtype } from "../../spec/dtype.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";

const ARCH = "trn2";
/** The dtypes of the set: those a consumer decodes with its language's standard library. */
const DTYPE_NAMES = ["fp32", "bf16", "fp16", "int8", "uint8", "int16", "uint16", "int32", "uint32"];
const REDUCTIONS = ["allr", "redsct", "allg"] as const;

interface CollectiveInput {
  readonly collective: CollectiveName;
  readonly algorithm: AlgorithmName;
  readonly ranks: number;
  readonly dtype: string;
  readonly op: ReduceOp;
  /** nccom-test's count: elements of the collective (plan/plan-request.ts bufferSizes). */
  readonly count: number;
  readonly exchange?: ExchangeSpec;
  /** Each rank's input, little-endian elements as hex. */
  readonly inputs: readonly string[];
}

/** Mantissa bits of the float dtypes (the unit roundoff of a tolerance). */
const MANTISSA: Readonly<Record<string, number>> = { fp32: 23, bf16: 7, fp16: 10 };

function dtypeOf(name: string): Dtype {
  const dt = dtypeFromName(name);
  if (dt === undefined || !DTYPE_NAMES.includes(name))
    throw new TypeError(`dtype ${JSON.stringify(name)}: expected one of ${DTYPE_NAMES.join(", ")}`);
  return dt;
}

function requestOf(i: CollectiveInput): PlanRequest {
  const topology = buildTopology(archProfile(ARCH), i.ranks, 1, { lnc: 2 });
  return {
    topology,
    collective: i.collective,
    algorithm: i.algorithm,
    dtype: dtypeOf(i.dtype),
    op: i.op,
    count: i.count,
    sb2sb: false,
    ...(i.exchange === undefined ? {} : { exchange: i.exchange }),
  };
}

/**
 * How a recomputation compares: bits (`exact`) where the data makes the result order-independent
 * or nothing is reduced; else within `absTol` of the exact (real-number) result.
 */
function compareOf(i: CollectiveInput, inputs: readonly Uint8Array[]): Json {
  const dt = dtypeOf(i.dtype);
  if (isExchange(i.collective) || exactApplies(i.op, dt, i.ranks)) return { mode: "exact" };
  if (!isFloatDtype(dt)) return { mode: "absTol", absTol: 1 };
  // Each of the ranks + 2 roundings (the 1/n scale, the ranks − 1 partial sums, the output) is
  // at most half an ulp of a value ≤ Σ|x|, the largest partial sum.
  const eb = dtypeBytes(dt);
  let sumAbs = 0;
  const elems = (inputs[0]?.length ?? 0) / eb;
  const values = new Float32Array(elems);
  for (const b of inputs) {
    decodeToF32(dt, b, 0, elems, values);
    sumAbs += values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  }
  const ulp = 2 ** (Math.ceil(Math.log2(Math.max(sumAbs, 1))) - (MANTISSA[i.dtype] ?? 0));
  return { mode: "absTol", absTol: ((i.ranks + 2) * ulp) / 2 };
}

/** The outputs of a configuration as this build's device computes them, or its refusal. */
function runCollectiveCase(input: Json): Json {
  const i = input as unknown as CollectiveInput;
  let req: PlanRequest;
  let plan: ReturnType<typeof buildPlan>;
  try {
    req = requestOf(i);
    plan = buildPlan(req);
  } catch (e) {
    if (e instanceof UsageError) return { error: e.message };
    throw e;
  }
  const bytes = i.inputs.map(fromHex);
  const want = plan.sizes.input * dtypeBytes(req.dtype);
  bytes.forEach((b, r) => {
    if (b.length !== want) throw new TypeError(`inputs[${r}]: ${b.length} bytes, expected ${want}`);
  });
  if (bytes.length !== i.ranks) throw new TypeError(`inputs: ${bytes.length} ranks, expected ${i.ranks}`);
  const machine = new DeviceMachine(plan, archProfile(ARCH), { overflow: "nan" });
  try {
    machine.prefill();
    bytes.forEach((b, r) => {
      machine.writeInput(r, 0, b);
    });
    machine.execute();
    const outputs = Array.from({ length: i.ranks }, (_, r) => toHex(machine.read(r, "output")));
    return { outputs, compare: compareOf(i, bytes) };
  } finally {
    machine.release();
  }
}

/** A configuration's case, its inputs drawn (exact data for reductions, random for exchanges). */
function caseOf(
  id: string,
  c: Omit<CollectiveInput, "inputs" | "op"> & { op?: ReduceOp },
  seed: number,
): CaseInput {
  const op = c.op ?? "sum";
  const dt = dtypeOf(c.dtype);
  let inputElems = 0;
  try {
    inputElems = buildPlan(requestOf({ ...c, op, inputs: [] })).sizes.input;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
  }
  const inputs = Array.from({ length: c.ranks }, () => new Uint8Array(inputElems * dtypeBytes(dt)));
  const kind = isExchange(c.collective) ? "random" : "exact";
  generateInputs({ kind, dtype: dt, ranks: c.ranks, count: inputElems, seed }, (r, from, b) => {
    inputs[r]?.set(b, from * dtypeBytes(dt));
  });
  return { id, input: { ...c, op, inputs: inputs.map(toHex) } as unknown as Json };
}

/** [id, exchange, ranks, count, pairs / metadata]. */
const EXCHANGE_SPECS: readonly [string, ExchangeName, number, number, ExchangeSpec | undefined][] = [
  ["alltoall", "alltoall", 4, 8, undefined],
  ["alltoallv/uniform", "alltoallv", 4, 8, undefined],
  [
    "alltoallv/metadata",
    "alltoallv",
    2,
    6,
    {
      metadata: [
        { send_counts: [1, 2], send_displs: [0, 1], recv_counts: [1, 2], recv_displs: [0, 1] },
        { send_counts: [2, 1], send_displs: [2, 0], recv_counts: [2, 1], recv_displs: [3, 0] },
      ],
    },
  ],
  ["allgv/uniform", "allgv", 4, 4, undefined],
  [
    "allgv/metadata",
    "allgv",
    2,
    4,
    {
      metadata: [
        { send_counts: [1, 1], send_displs: [1, 1], recv_counts: [1, 2], recv_displs: [3, 0] },
        { send_counts: [2, 2], send_displs: [0, 0], recv_counts: [1, 2], recv_displs: [3, 0] },
      ],
    },
  ],
  ["permute/ring", "permute", 3, 4, undefined],
  [
    "permute/pairs",
    "permute",
    4,
    4,
    {
      pairs: [
        [0, 2],
        [2, 0],
        [1, 1],
      ],
    },
  ],
];

function* edgeCases(): Iterable<CaseInput> {
  let seed = 1;
  for (const collective of REDUCTIONS) {
    for (const algorithm of candidateAlgorithms(collective)) {
      for (const ranks of [2, 8])
        yield caseOf(
          `${collective}/${algorithm}/r${ranks}`,
          { collective, algorithm, ranks, dtype: "fp32", count: 2 * ranks },
          seed++,
        );
    }
  }
  for (const op of REDUCE_OPS)
    yield caseOf(
      `allr/ring/op-${op}`,
      { collective: "allr", algorithm: "ring", ranks: 4, dtype: "bf16", op, count: 8 },
      seed++,
    );
  for (const dtype of DTYPE_NAMES)
    yield caseOf(
      `allr/ring/dtype-${dtype}`,
      { collective: "allr", algorithm: "ring", ranks: 2, dtype, count: 4 },
      seed++,
    );
  yield caseOf(
    "allr/ring/avg-r3-fp32",
    { collective: "allr", algorithm: "ring", ranks: 3, dtype: "fp32", op: "avg", count: 6 },
    seed++,
  );
  yield caseOf(
    "allr/ring/avg-r3-bf16",
    { collective: "allr", algorithm: "ring", ranks: 3, dtype: "bf16", op: "avg", count: 6 },
    seed++,
  );
  yield caseOf(
    "allr/ring/avg-int32",
    { collective: "allr", algorithm: "ring", ranks: 2, dtype: "int32", op: "avg", count: 4 },
    seed++,
  );
  for (const ranks of [2, 3])
    yield caseOf(
      `sendrecv/ring/r${ranks}`,
      { collective: "sendrecv", algorithm: "ring", ranks, dtype: "fp16", count: 4 },
      seed++,
    );
  for (const [name, collective, ranks, count, exchange] of EXCHANGE_SPECS) {
    const algorithm = candidateAlgorithms(collective)[0] as AlgorithmName;
    const spec = exchange === undefined ? {} : { exchange };
    yield caseOf(name, { collective, algorithm, ranks, dtype: "bf16", count, ...spec }, seed++);
  }
}

function* randomCases(count: number, rng: VectorRng): Iterable<CaseInput> {
  const collectives: readonly CollectiveName[] = [
    ...REDUCTIONS,
    "sendrecv",
    "alltoall",
    "allgv",
    "alltoallv",
    "permute",
  ];
  for (let k = 0; k < count; k++) {
    const collective = rng.pick(collectives);
    const algorithm = rng.pick(candidateAlgorithms(collective));
    const ranks = 2 + rng.below(7);
    const unit = collective === "allr" || collective === "sendrecv" || collective === "permute" ? 1 : ranks;
    const c = {
      collective,
      algorithm,
      ranks,
      dtype: rng.pick(DTYPE_NAMES),
      op: isExchange(collective) ? "sum" : rng.pick(REDUCE_OPS),
      count: unit * (1 + rng.below(3)),
    } as const;
    yield caseOf(`random/${k}`, c, rng.u32());
  }
}

const inputSchema: JsonSchema = {
  type: "object",
  required: ["collective", "algorithm", "ranks", "dtype", "op", "count", "inputs"],
  properties: {
    collective: {
      enum: [...REDUCTIONS, "sendrecv", ...EXCHANGES],
      description:
        "allr: every output = reduce(inputs); redsct: rank r's output = reduce(inputs)[r·count/n …]; allg: outputs = concat of inputs in rank order; sendrecv: rank r's output = rank r−1's input; exchanges: plan/exchange.ts (alltoall blocks, alltoallv / allgv metadata, permute pairs; a rank no block reaches keeps its output fill 0xa5).",
    },
    algorithm: {
      enum: [...ALGORITHMS],
      description: "The planner (every one each collective takes).",
    },
    ranks: {
      type: "integer",
      minimum: 2,
      maximum: 8,
      description: "Logical NeuronCores on one trn2 node, LNC2.",
    },
    dtype: { enum: DTYPE_NAMES, description: "Element type of inputs and outputs." },
    op: {
      enum: [...REDUCE_OPS],
      description: "The reduction; avg pre-multiplies each input by fp32(1/n). Exchanges ignore it.",
    },
    count: {
      type: "integer",
      minimum: 1,
      description: "nccom-test's element count of the collective (allg: of its output).",
    },
    exchange: {
      type: "object",
      description:
        "permute's `pairs` [[source, target], …]; alltoallv / allgv's `metadata` (one entry per rank: send_counts, send_displs, recv_counts, recv_displs, in elements).",
    },
    inputs: {
      type: "array",
      items: { type: "string", pattern: "^([0-9a-f]{2})*$" },
      description: "Each rank's input buffer: its elements little-endian, as hex, in memory order.",
    },
  },
};

const expectSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["outputs", "compare"],
      properties: {
        outputs: {
          type: "array",
          items: { type: "string", pattern: "^([0-9a-f]{2})*$" },
          description:
            "Each rank's output buffer after the collective (little-endian elements, hex); filled with 0xa5 before.",
        },
        compare: {
          type: "object",
          required: ["mode"],
          description:
            "How a recomputation compares: `exact` — as bits (exact data, or nothing reduced); `absTol` — each element within absTol of the real-number result (rounding matters: the order of the partial sums is the algorithm's).",
          properties: { mode: { enum: ["exact", "absTol"] }, absTol: { type: "number" } },
        },
      },
    },
    {
      type: "object",
      required: ["error"],
      properties: {
        error: { type: "string", description: "The refusal of a configuration the planner cannot take." },
      },
    },
  ],
};

export const COLLECTIVES_SET: VectorSet = {
  name: "collectives",
  doc: "Collectives on the simulated device (trn2, one node, LNC2): every reduction with every algorithm it takes at 2 and 8 ranks, every op, every dtype, avg where rounding matters, sendrecv, and each exchange with and without its pairs / metadata; then `count` random configurations (the group) of 2–8 ranks.",
  inputSchema,
  expectSchema,
  *inputs({ count }, rng) {
    yield* edgeCases();
    yield* randomCases(count, rng);
  },
  run: runCollectiveCase,
};
