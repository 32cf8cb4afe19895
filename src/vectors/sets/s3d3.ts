/**
 * The `s3d3` set: 64-byte S3D3 (0xBF) words → every reason is_valid_sb2sb_collective gives (seed
 * 002 §4.5), and for a valid word the SB2SB legs the POOL decode lowers it to (§4.6) with the
 * semaphore plan of its events; and the opcode predicates of §1 over all 256 opcodes. A group is an
 * arch: `count` random words and `count` random valid shapes per arch.
 */
import { fromHex, jsonSafe, toHex } from "../../bits/index.js";
import { archProfile } from "../../hal/index.js";
import {
  decodeS3d3,
  encodeS3d3,
  isPoolEngineOpcode,
  isPseudoOp,
  isPseudoOpByTopBits,
  isValidSb2sbCollective,
  lowerS3d3Word,
  patternFields,
  type S3d3Word,
  type Tensor3d,
} from "../../isa/index.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";

const ARCHES = ["trn1", "trn2", "trn3"] as const;

function tensor(start: number, step: readonly number[], num: readonly number[]): Partial<Tensor3d> {
  const t: Record<string, number> = { "start_addr.addr_immediate": start };
  step.forEach((s, d) => {
    t[`step_elem.${d}`] = s;
  });
  num.forEach((n, d) => {
    t[`num_elem.${d}`] = n;
  });
  return t as Partial<Tensor3d>;
}

/** A valid word: 16 × 4 × 2 = 128 bf16 elements from SBUF 0x1000 to 0x40200 over 8 channels, LNC2. */
function validWord(
  src = tensor(0x1000, [1, 16, 64], [16, 4, 2]),
  dst = tensor(0x40200, [-1, -16, 64], [16, 4, 2]),
  channels = 8,
): Uint8Array {
  return encodeS3d3({
    "header.opcode": 0xbf,
    "header.inst_word_len": 16,
    "events.wait_mode": 5,
    "events.wait_idx": 3,
    "events.update_mode": 3,
    "events.update_idx": 4,
    "events.semaphore_value": 1,
    in_dtype: 6,
    out_dtype: 6,
    ...patternFields("src_mem_pattern", src),
    lnc_size_fmt: 1,
    num_active_channels: channels,
    ...patternFields("dst_mem_pattern", dst),
  } as Partial<S3d3Word>);
}

/** One byte-level change per rule: [name, byte offset, new bytes] (offsets: seed 002 §2). */
const BREAKS: readonly [string, number, readonly number[]][] = [
  ["header-opcode", 0, [0xc7]],
  ["header-inst-word-len", 1, [15]],
  ["header-debug-cmd", 2, [0xff]],
  ["events-wait-mode", 4, [0xff]],
  ["events-update-mode", 6, [0xff]],
  ["dtype-invalid", 12, [0, 0]],
  ["dtype-invalid-16", 12, [16, 16]],
  ["dtype-mismatch", 13, [10]],
  ["lnc-size-fmt-invalid", 32, [9]],
  ["lnc-size-fmt-unsupported-lnc4", 32, [2]],
  ["lnc-size-fmt-unsupported-lnc8", 32, [3]],
  ["active-channels-range-0", 33, [0]],
  ["active-channels-range-129", 33, [129]],
  ["tensor-num-elem-zero", 26, [0, 0]],
  ["tensor-addr-psum", 19, [0x02]],
  ["src-too-many-elements", 30, [8, 0]],
  ["element-count-guard", 26, [0xff, 0xff]],
  ["reserved0-nonzero", 14, [1]],
  ["reserved1-nonzero", 47, [0x80]],
];

/** The ledger row of the validator's calls, the 0xffff element-count guard among them (§4.5). */
const GUARD_PIN = "dbg_is_valid_sb2sb_collective calls";
/** The enum row whose LNC_SIZE_FMT codes (LNC2 1 valid, LNC4 2 / LNC8 3 refused) the lnc cases show. */
const LNC_PIN = "LNC_SIZE_FMT LNC1..LNC8 = 0..3";

function broken(offset: number, bytes: readonly number[]): string {
  const w = validWord();
  w.set(bytes, offset);
  return toHex(w);
}

function randomValid(rng: VectorRng): string {
  const num = [1 + rng.below(16), 1 + rng.below(4), 1 + rng.below(4)];
  const step = [1, num[0] as number, (num[0] as number) * (num[1] as number)];
  const channels = 1 + rng.below(16);
  return toHex(
    validWord(
      tensor(rng.below(0x10000), step, num),
      tensor(0x40000 + rng.below(0x10000), step, num),
      channels,
    ),
  );
}

function* inputs(count: number, rng: VectorRng): Iterable<CaseInput> {
  yield {
    id: "opcodes/all",
    pins: [
      "SB2SB_COLLECTIVE = 0xBF",
      "Pseudo opcodes = upper three bits",
      "0xBF is in the POOL branch",
      "`is_pseudo_op()` is an explicit list",
    ],
    input: { kind: "opcodes" },
  };
  for (const arch of ARCHES) {
    yield {
      id: `${arch}/valid`,
      pins: ["0xBF runs on the POOL engine"],
      input: { kind: "word", arch, word: toHex(validWord()) },
    };
    yield {
      id: `${arch}/valid/reduce-add`,
      input: { kind: "word", arch, word: toHex(validWord()), reduce: "add" },
    };
    for (const [name, offset, bytes] of BREAKS) {
      const word = broken(offset, bytes);
      const pins = name === "element-count-guard" ? [GUARD_PIN] : name.startsWith("lnc-") ? [LNC_PIN] : [];
      yield { id: `${arch}/${name}`, pins, input: { kind: "word", arch, word } };
    }
    for (let i = 0; i < count; i++)
      yield { id: `${arch}/random/${i}`, input: { kind: "word", arch, word: toHex(rng.bytes(64)) } };
    for (let i = 0; i < count; i++)
      yield { id: `${arch}/random-valid/${i}`, input: { kind: "word", arch, word: randomValid(rng) } };
  }
}

const REDUCE = { add: 0, fma: 1, max: 2, min: 3 } as const;

function runWord(arch: string, hex: string, reduce: keyof typeof REDUCE | undefined): Json {
  const bytes = fromHex(hex);
  const profile = archProfile(arch);
  const verdict = isValidSb2sbCollective(bytes, { arch: profile });
  const reasons = verdict.reasons.map((r) => ({ code: r.code, field: r.field }));
  if (!verdict.valid) return { valid: false, reasons };
  const word = decodeS3d3(bytes);
  const lowered = lowerS3d3Word(
    word,
    { arch: profile, nodes: 1, place: { self: 0, ringSize: 2, lnc: 2 } },
    reduce === undefined ? undefined : REDUCE[reduce],
  );
  return { valid: true, reasons, lowering: jsonSafe(lowered) as Json };
}

function runOpcodes(): Json {
  const all = Array.from({ length: 256 }, (_, op) => op);
  return {
    pseudoOp: all.filter(isPseudoOp),
    pseudoOpByTopBits: all.filter(isPseudoOpByTopBits),
    poolEngine: all.filter(isPoolEngineOpcode),
  };
}

const inputSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["kind", "arch", "word"],
      properties: {
        kind: { const: "word" },
        arch: {
          enum: [...ARCHES],
          description: "SB2SB needs NC ≥ V3: trn1 refuses every word (arch-no-sb2sb).",
        },
        word: {
          type: "string",
          pattern: "^[0-9a-f]{128}$",
          description:
            "The 64-byte NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT in memory order (seed 002 §2: header 0, events 4, in_dtype 12, out_dtype 13, reserved0 14, src TENSOR3D 16, lnc_size_fmt 32, num_active_channels 33, reserved1 34..47, dst TENSOR3D 48; little-endian fields). The `s3d3` layout of layouts.declarations.json.",
        },
        reduce: {
          enum: Object.keys(REDUCE),
          description:
            "Lower as reduce-copy legs with this CCE op (the runtime's choice, §8); absent: copy legs.",
        },
      },
    },
    {
      type: "object",
      required: ["kind"],
      properties: { kind: { const: "opcodes", description: "The §1 predicates over every opcode 0..255." } },
    },
  ],
};

const expectSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["valid", "reasons"],
      properties: {
        valid: { type: "boolean" },
        reasons: {
          type: "array",
          description:
            "Every rule the word breaks, in the validator's order: a stable code (S3D3_RULES) and the field.",
          items: {
            type: "object",
            required: ["code", "field"],
            properties: { code: { type: "string" }, field: { type: "string" } },
          },
        },
        lowering: {
          type: "object",
          description:
            "Valid words: the semaphore plan of the events (wait, update) and the per-channel legs (kind, channel, srcCore, dstCore, partition, dtype, op, bytes, segments of {src, dst, bytes} in device addresses as `0x…`) for core 0 of a 2-core LNC2 ring.",
        },
      },
    },
    {
      type: "object",
      required: ["pseudoOp", "pseudoOpByTopBits", "poolEngine"],
      properties: {
        pseudoOp: {
          type: "array",
          items: { type: "integer" },
          description: "is_pseudo_op(): the explicit list.",
        },
        pseudoOpByTopBits: {
          type: "array",
          items: { type: "integer" },
          description: "Upper three bits 0b110 (common.h:263).",
        },
        poolEngine: {
          type: "array",
          items: { type: "integer" },
          description: "The POOL branch of neuron_isa_check_opcode_on_engine.",
        },
      },
    },
  ],
};

export const S3D3_SET: VectorSet = {
  name: "s3d3",
  doc: "The S3D3 collective word (seed 002): a valid word and one break per validator rule on each arch, with the SB2SB legs of the valid ones (copy and reduce-copy), the §1 opcode predicates; then per arch (the group) `count` random words and `count` random valid shapes.",
  inputSchema,
  expectSchema,
  *inputs({ count }, rng) {
    yield* inputs(count, rng);
  },
  run(input) {
    const i = input as { kind: string; arch: string; word: string; reduce?: keyof typeof REDUCE };
    return i.kind === "opcodes" ? runOpcodes() : runWord(i.arch, i.word, i.reduce);
  },
};
