/**
 * The `builders` set: a copy or CCE request (the JSON of `sdmakit build`) → the TX and RX descriptor
 * bytes libnrt's builders write on a fresh ring, in ring order, or the refusal the seeds give: an
 * assert (file:line, function, assertion) or an -EINVAL with its message. Seed 000 §2–§7, §9; seed
 * 003 §3 (the plain copy). A group is one op; `count` random requests per op.
 */
import { FieldError, isEinval, SdmaAssertError, toHex, UsageError } from "../../bits/index.js";
import { parseBuildRequest, runBuildRequest } from "../../runtime/index.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";

const ARCHES = ["trn1", "trn2", "trn3"] as const;
const S = (n: number) => Array.from({ length: n }, (_, i) => `0x${((i + 1) * 0x1000).toString(16)}`);
const DST = ["0x100000"];
/** §9.1: three bf16 sources, fp32 accumulate, bf16 out, 64 bytes each. */
const ADD_91 = {
  arch: "trn2",
  op: "add",
  sources: S(3),
  dests: DST,
  size: 64,
  inDtype: "bf16",
  accumDtype: "fp32",
  outDtype: "bf16",
};
/** §9.2: the weighted average 0.5·s0 + 0.5·s1 in fp32. */
const FMA_92 = {
  arch: "trn2",
  op: "fma",
  sources: S(2),
  dests: DST,
  size: 64,
  inDtype: "fp32",
  scales: [0.5, 0.5],
};

type Request = Record<string, Json>;

/** A second destination: the EXT combo's replication descriptor (meta 0x4a00000 | mode << 29) on
 * arch > 2, the v1/v2 refusal on trn1. */
const REPLICATION_PINS = [
  "replication meta 0x4a00000",
  "Replication meta `0x4a00000",
  "Replication / EXT combo only on arch > 2",
];

type Edge = [string, Request, readonly string[]];

/** Each op's plain cases on one arch: copies at the length bounds, SR, MIN / MAX constants. */
function opEdges(arch: string): Edge[] {
  return [
    [
      `copy/${arch}/1`,
      { arch, op: "copy", sources: S(1), dests: DST, size: 1 },
      ["Plain copy: meta 0x01080003"],
    ],
    [
      `copy/${arch}/65536`,
      { arch, op: "copy", sources: S(1), dests: DST, size: 65536 },
      ["Plain copy: meta 0x01080003"],
    ],
    [
      `copy/${arch}/65537`,
      { arch, op: "copy", sources: S(1), dests: DST, size: 65537, dmb: true, wrbar: true },
      [],
    ],
    [`add/${arch}/sr`, { ...ADD_91, arch, sr: true, seed: 0xdeadbeef }, ["seed-init W1 0x6000000"]],
    [
      `min/${arch}/const-fp32`,
      { arch, op: "min", sources: S(2), dests: DST, size: 64, inDtype: "fp32", constant: 1.5 },
      ["MIN/MAX descriptor"],
    ],
    [
      `max/${arch}/const-int32`,
      {
        arch,
        op: "max",
        sources: S(2),
        dests: DST,
        size: 64,
        inDtype: "int32",
        constant: -7,
        constantDtype: "int32",
      },
      ["MIN/MAX descriptor"],
    ],
    [
      `max/${arch}/const-uint32`,
      {
        arch,
        op: "max",
        sources: S(2),
        dests: DST,
        size: 64,
        inDtype: "uint32",
        constant: 7,
        constantDtype: "uint32",
      },
      ["MIN/MAX descriptor"],
    ],
    [
      `max/${arch}/const-bf16`,
      {
        arch,
        op: "max",
        sources: S(2),
        dests: DST,
        size: 64,
        inDtype: "bf16",
        constant: 1,
        constantDtype: "bf16",
      },
      [],
    ],
    [`max/${arch}/no-const`, { arch, op: "max", sources: S(2), dests: DST, size: 64, inDtype: "bf16" }, []],
  ];
}

/** The refusals and bounds on one arch: the FMA asserts, replication, sources, elements, dtypes. */
function boundEdges(arch: string): Edge[] {
  return [
    [
      `fma/${arch}/no-cce-info`,
      { arch, op: "fma", sources: S(2), dests: DST, size: 64, inDtype: "fp32" },
      ["FMA asserts `cce_info != NULL` vring.c:0x3B8"],
    ],
    [
      `fma/${arch}/bf16-scales`,
      { ...FMA_92, arch, scaleDtype: "bf16" },
      ["FMA asserts `cce_info != NULL` vring.c:0x3B8"],
    ],
    [
      `add/${arch}/two-dests`,
      { ...ADD_91, arch, dests: ["0x100000", "0x200000"] },
      ["Combo / EXT", ...REPLICATION_PINS],
    ],
    [`add/${arch}/32-sources`, { ...ADD_91, arch, sources: S(32) }, []],
    [`add/${arch}/33-sources`, { ...ADD_91, arch, sources: S(33) }, []],
    [
      `add/${arch}/max-elements`,
      { ...ADD_91, arch, size: 2 * (arch === "trn1" ? 1024 : 2048) },
      ["aws_hal_get_sdma_max_cce_elements"],
    ],
    [
      `add/${arch}/max-elements-plus-1`,
      { ...ADD_91, arch, size: 2 * (arch === "trn1" ? 1024 : 2048) + 2 },
      ["aws_hal_get_sdma_max_cce_elements"],
    ],
    [
      `add/${arch}/u8-u16`,
      { ...ADD_91, arch, inDtype: "uint8", accumDtype: "uint16", outDtype: "uint16" },
      [],
    ],
    [
      `add/${arch}/in-fp32-out-fp8`,
      { ...ADD_91, arch, inDtype: "fp32", outDtype: "fp8_e4" },
      ["has_valid_dma_cce_inout_dtype_nc_v1"],
    ],
  ];
}

/** The edge requests, each with the ledger facts it is the subject of. */
const EDGES: readonly Edge[] = [
  ["add/seed-9.1", ADD_91, ["§9.1 three-source ADD"]],
  ["fma/seed-9.2", FMA_92, ["§9.1 three-source ADD"]],
  ...ARCHES.flatMap(opEdges),
  ...ARCHES.flatMap(boundEdges),
  ["op/raw-6", { ...ADD_91, op: 6 }, ["kbin_cce_op_to_sdma_cce_op"]],
  ["op/raw-5", { ...ADD_91, op: 5 }, ["kbin_cce_op_to_sdma_cce_op"]],
  ["dtype/raw-0", { ...ADD_91, inDtype: 0 }, ["kbin_dtype_to_sdma_dtype"]],
  ["dtype/raw-16", { ...ADD_91, outDtype: 16 }, ["kbin_dtype_to_sdma_dtype"]],
  ["priority/class-4", { ...ADD_91, priorityClass: 4 }, ["encd_get_cce_reduce_packet_size"]],
  ["priority/class-5", { ...ADD_91, priorityClass: 5 }, ["encd_get_cce_reduce_packet_size"]],
  ["priority/fp32r", { ...ADD_91, inDtype: "fp32r", priorityClass: 0 }, ["fp32r has SDMA size 0"]],
  [
    "add/combo-overflow",
    {
      ...ADD_91,
      arch: "trn3",
      sources: S(32),
      dests: Array.from({ length: 40 }, (_, i) => `0x${(0x200000 + i * 0x1000).toString(16)}`),
    },
    ["Combo / EXT"],
  ],
];

const OPS = ["copy", "add", "fma", "min", "max"] as const;
const DTYPES = [
  "bf16",
  "fp16",
  "fp32",
  "fp8_e4",
  "fp8_e5",
  "fp8_e3",
  "int8",
  "uint8",
  "int16",
  "int32",
  "uint32",
];

function randomRequest(op: (typeof OPS)[number], rng: VectorRng): Request {
  const arch = rng.pick(ARCHES);
  const n = op === "copy" ? 1 : 1 + rng.below(4);
  const sources = Array.from({ length: n }, () => `0x${((rng.u32() & ~0x3f) >>> 0).toString(16)}`);
  const dests = [`0x${((rng.u32() & ~0x3f) >>> 0).toString(16)}`];
  if (op === "copy") return { arch, op, sources, dests, size: 1 + rng.below(0x20000) };
  const inDtype = rng.pick(DTYPES);
  const size = 64 * (1 + rng.below(16));
  const base = {
    arch,
    op,
    sources,
    dests,
    size,
    inDtype,
    outDtype: rng.pick(DTYPES),
    sr: rng.below(2) === 1,
    seed: rng.u32(),
  };
  if (op === "fma") return { ...base, scales: sources.map(() => (rng.below(64) - 32) / 8) };
  if ((op === "min" || op === "max") && rng.below(2) === 1)
    return { ...base, constant: (rng.below(64) - 32) / 4 };
  return base;
}

function run(input: Json): Json {
  try {
    const result = runBuildRequest(parseBuildRequest(JSON.stringify(input)));
    if (isEinval(result)) return { refused: { kind: "einval", message: result.message } };
    const descriptors = result.written.map((w) => ({ ring: w.ring, slot: w.slot, hex: toHex(w.bytes) }));
    return {
      descriptors,
      ...(result.reducePacketBytes === undefined ? {} : { reducePacketBytes: result.reducePacketBytes }),
    };
  } catch (e) {
    if (e instanceof SdmaAssertError)
      return {
        refused: {
          kind: "assert",
          file: e.file,
          line: `0x${e.line.toString(16).toUpperCase()}`,
          func: e.func,
          assertion: e.assertion,
        },
      };
    if (e instanceof FieldError || e instanceof UsageError)
      return { invalid: { code: e.code, message: e.message } };
    throw e;
  }
}

const inputSchema: JsonSchema = {
  type: "object",
  description:
    "The request of `sdmakit build` (add_dma_packet_cce / add_dma_packet on engine 0, queue 0 of a fresh ring at 0x100000000, 256 slots).",
  required: ["op", "sources", "dests", "size"],
  properties: {
    arch: { enum: [...ARCHES], description: "Default trn2." },
    op: {
      description:
        "copy | add | fma | min | max, or a raw kbin_dma_desc_op code (seed 000 §1.1) to reach the remap's assert.",
      oneOf: [{ enum: [...OPS] }, { type: "integer" }],
    },
    sources: { type: "array", items: { type: "string" }, description: "Source addresses (hex strings)." },
    dests: { type: "array", items: { type: "string" }, description: "Destination addresses." },
    size: { type: "integer", minimum: 0, description: "Bytes of each source." },
    inDtype: { description: "A dtype name or a raw kbin dtype code (seed 000 §1.2)." },
    accumDtype: { description: "Default fp32." },
    outDtype: { description: "Default: inDtype." },
    scales: {
      type: "array",
      items: { type: "number" },
      description: "FMA: one scale per source (cce_info.fma_info); absent: cce_info is NULL.",
    },
    scaleDtype: { description: "FMA: the scales' dtype (fp32 unless given)." },
    constant: {
      type: "number",
      description: "MIN / MAX: the clamp constant (cce_info.min_max_info, use_constant).",
    },
    constantDtype: { description: "fp32 | int32 | uint32 (others are the -EINVAL)." },
    sr: {
      type: "boolean",
      description:
        "vring->stochastic_rounding_en: a seed-init descriptor opens the packet (seed 000 §2.5, §3.4).",
    },
    seed: { type: "integer", description: "The 32-bit SR seed the seed-init descriptor loads." },
    priorityClass: {
      type: "integer",
      description: "Ask encd_get_cce_reduce_packet_size first (seed 000 §7.1).",
    },
    dmb: { type: "boolean" },
    wrbar: { type: "boolean" },
  },
};

const expectSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["descriptors"],
      properties: {
        descriptors: {
          type: "array",
          description: "What was written, in order: RX descriptors then TX as the builders post them.",
          items: {
            type: "object",
            required: ["ring", "slot", "hex"],
            properties: {
              ring: {
                enum: ["tx", "rx"],
                description: "TX = M2S (the sources), RX = S2M (the destination).",
              },
              slot: { type: "integer", description: "The ring slot (16 bytes each)." },
              hex: {
                type: "string",
                pattern: "^[0-9a-f]{32}$",
                description: "The 16 descriptor bytes in memory order (four little-endian words W0..W3).",
              },
            },
          },
        },
        reducePacketBytes: {
          type: "integer",
          description: "encd_get_cce_reduce_packet_size for the priority class.",
        },
      },
    },
    {
      type: "object",
      required: ["refused"],
      properties: {
        refused: {
          type: "object",
          description:
            "libnrt refused: `assert` (__assert_fail with file, line in hex, function, assertion text) or `einval` (the -EINVAL message it logs). Nothing was posted.",
          required: ["kind"],
          properties: {
            kind: { enum: ["assert", "einval"] },
            file: { type: "string" },
            line: { type: "string" },
            func: { type: "string" },
            assertion: { type: "string" },
            message: { type: "string" },
          },
        },
      },
    },
    {
      type: "object",
      required: ["invalid"],
      description: "sdmakit refused the request before libnrt's code (a value no C caller could pass).",
      properties: { invalid: { type: "object", required: ["code", "message"] } },
    },
  ],
};

export const BUILDERS_SET: VectorSet = {
  name: "builders",
  doc: "libnrt's descriptor builders (seed 000 §2–§7, §9; seed 003 §3): the seed's worked examples (§9.1 three-source ADD, §9.2 FMA), every op on each arch with SR, constants of each dtype, the NULL cce_info and scale-dtype asserts, replication / combo, the source, element, dtype, op and priority-class bounds; then per op (the group) `count` random requests.",
  inputSchema,
  expectSchema,
  *inputs({ count }, rng): Iterable<CaseInput> {
    for (const [id, input, pins] of EDGES) yield { id, pins, input };
    for (const op of OPS)
      for (let i = 0; i < count; i++) yield { id: `${op}/random/${i}`, input: randomRequest(op, rng) };
  },
  run,
};
