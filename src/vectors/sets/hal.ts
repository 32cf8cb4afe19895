/**
 * The `hal` set: a per-arch HAL symbol call (seed 003) on a fresh device → the register writes it
 * makes, its result and log, or the abort / assert / -EINVAL it ends in. Every CSR accessor at its
 * first and last index and one past (the abort), every leaf with the arguments of its seed facts,
 * on each arch; then per accessor (the group) `count` random indices and values.
 */
import { FieldError } from "../../bits/index.js";
import { CSR_ACCESSORS, runHalSymbol, topSpBase, tpbBase } from "../../hal/index.js";
import { SBUF_WINDOW_BYTES, SBUF_WINDOWS } from "../../spec/index.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";

const ARCHES = ["trn1", "trn2", "trn3"] as const;
/** The SDMA CSR base the calls are given (any base: the writes are relative to it). */
const CSR = "0x1000";
const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const DESC = "00".repeat(16);
const SEM = { wr_mode: 1, wr_val: 5, reg_sel: 2, intra_reg_offset: 3, sow: true };
const SB = "0x2000000000";
/** One byte past the last SBUF window (seed 003 §5): not SBUF, so refused as a destination. */
const PAST_LAST_WINDOW = (SBUF_WINDOWS[SBUF_WINDOWS.length - 1] as bigint) + BigInt(SBUF_WINDOW_BYTES);

/** Each leaf's argument lists: the seed's examples and its bounds (one past each is the refusal). */
const LEAF_ARGS: Readonly<Record<string, readonly (readonly Json[])[]>> = {
  al_hal_tpb_get_arch_type: [[]],
  aws_hal_arch_eng_to_xt: [[0], [15], [16]],
  aws_hal_cayman_tpb_dge_get_register_offsets: [[]],
  aws_hal_cayman_tpb_dge_configure_dma: [[CSR, 0xff, 0x3, 0xffff]],
  aws_hal_cayman_tpb_xt_configure_feature_flag: [
    [CSR, 0, 1],
    [CSR, 3, 0xff],
  ],
  aws_hal_sdma_init_embedded_sem: [[CSR]],
  aws_hal_sdma_embedded_sem_wr_address: [
    [CSR, 0, "0x123456789"],
    [CSR, 31, "0xfff"],
    [CSR, 32, "0x0"],
  ],
  aws_hal_mariana_sdma_init_embedded_sem: [[CSR]],
  aws_hal_mariana_sdma_embedded_sem_wr_address: [
    [CSR, 0, "0x123456789"],
    [CSR, 31, "0xfff"],
    [CSR, 32, "0x0"],
  ],
  aws_hal_mariana_sdma_embedded_sem_csr_index: [
    [hex(tpbBase(0))],
    [hex(tpbBase(7))],
    [hex(topSpBase(0))],
    [hex(topSpBase(15))],
    ["0x0"],
    [hex(tpbBase(0) + 4n)],
  ],
  s2m_set_embedded_sem_fields: [
    [DESC, SEM],
    ["ff".repeat(16), { ...SEM, sow: false }],
  ],
  aws_mariana_sdma_write_seed: [
    [CSR, 0, 0, 1234],
    [CSR, 0, 15, 1],
    [CSR, 15, 0, 2],
    [CSR, 15, 15, 0xffffffff],
    [CSR, 16, 0, 0],
    [CSR, 0, 16, 0],
    [CSR, -1, 0, 0],
  ],
  aws_mariana_sdma_read_seed: [
    [CSR, 5, 3],
    [CSR, 16, 0],
  ],
  aws_hal_get_sdma_cce_user_offset: [[]],
  aws_hal_get_sdma_cce_user_offset_mariana: [[]],
  aws_hal_mariana_sdma_set_fp8_defaults: [[CSR]],
  aws_hal_mariana_sdma_set_udma_qos: [
    [CSR, 0, 3],
    [CSR, 15, 7],
    [CSR, 16, 0],
  ],
  aws_hal_mariana_sdma_enable_b0_features: [[CSR]],
  act_sequencer_force_rspcomb_eight_deep_cayman_neff: [
    [CSR, 1],
    [CSR, 0],
  ],
  aws_hal_mariana_rdm_init: [[]],
  aws_hal_mariana_rdm_queue_init: [[]],
  aws_hal_mariana_rdm_queue_start: [[]],
  aws_hal_q7_ucode_eng_init_mariana: [
    [CSR, 0, "01020304", "0506"],
    [CSR, 1, "0a0b", "0c0d0e0f"],
    [CSR, 2, "00", "00"],
  ],
  aws_cayman_sdma_m2m_build_transpose_packet: [
    [{ dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: SB, len: 8 }] }],
    [
      {
        dtype: 10,
        cols: 16,
        dir: 1,
        ctrl: 2,
        from: [{ addr: 4096, len: 64 }],
        to: [{ addr: "0x2001ffffc0", len: 64 }],
      },
    ],
    [{ dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: 4096, len: 8 }] }],
    [{ dtype: 0, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: SB, len: 8 }] }],
    [{ dtype: 6, cols: 4, op: 1, from: [{ addr: 4096, len: 8 }], to: [{ addr: SB, len: 8 }] }],
    [{ dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: SB, len: 16 }] }],
    // Each of the eight SBUF windows as a destination, and the byte one past the last window.
    ...SBUF_WINDOWS.map((w) => [
      { dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: hex(w), len: 8 }] },
    ]),
    [{ dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: hex(PAST_LAST_WINDOW), len: 8 }] }],
  ],
  aws_cayman_sdma_m2m_build_transpose_flush_packet: [[0], [1], [15]],
  al_sdma_m2s_build_transpose_descriptor: [
    [0x15, 6, { w: 1, x: 4, y: 8, z: 1 }, 0],
    [0, 0, { w: 1, x: 1, y: 1, z: 1 }, 0],
    [0, 6, { w: 1, x: 0, y: 1, z: 1 }, 0],
  ],
  al_sdma_m2s_build_transpose_meta_ctrl: [
    [4, 10, 1],
    [2, 6, 2],
    [0x1f, 15, 0],
  ],
  verify_transpose_dimensions: [
    [1, { w: 1, x: 128, y: 128, z: 1 }, 1],
    [1, { w: 1, x: 128, y: 129, z: 1 }, 1],
    [4, { w: 1, x: 64, y: 65, z: 1 }, 1],
    [1, { w: 1, x: 512, y: 1, z: 1 }, 0],
    [1, { w: 1, x: 513, y: 1, z: 1 }, 0],
    [1, { w: 1, x: 1, y: 1, z: 1 }, 4],
  ],
};

/**
 * The ledger facts (docs/FIDELITY.md seed-fact rows, by a phrase of the row) a symbol's cases are
 * the subject of, by a part of the symbol's name (test/conformance/ledger-pins.test.ts counts them).
 */
const SYMBOL_PINS: readonly [string, readonly string[]][] = [
  ["notific_cfg_per_queue", ["Per-queue notification: 16 queues"]],
  ["notific_cfg_fabric_trigger", ["Fabric trigger: 2 indices"]],
  ["embedded_sem_csr_index", ["csr_index: `movabs $0x802701800`"]],
  ["sdma_write_seed", ["write_seed: csr + 0x2000"]],
  ["get_sdma_cce_user_offset", ["CCE user offset: 0 SUNDA/CAYMAN"]],
  ["mariana_rdm_", ["RDM on v4: present-but-unsupported"]],
  ["build_transpose_flush_packet", ["Flush: one copy, dst = tpb_base", "Transpose flush: 4-byte copy"]],
  [
    "build_transpose_packet",
    [
      "partition = rel >> 18",
      "v51 = ((cols−1) & 0xF)",
      "CAYMAN transpose (seed 003 §2",
      "SBUF windows (the eight values",
      "Eight 32 MiB SBUF windows",
    ],
  ],
  ["build_transpose_meta_ctrl", ["Transpose meta_ctrl = (elem & 0x1F)"]],
];

const pinsOf = (symbol: string): readonly string[] =>
  SYMBOL_PINS.filter(([part]) => symbol.includes(part)).flatMap(([, pins]) => pins);

function* csrInputs(count: number, rng: VectorRng): Iterable<CaseInput> {
  for (const [symbol, acc] of CSR_ACCESSORS) {
    const indexed = acc.family.count > 1;
    const value = acc.op === "write" ? [0xffffffff] : [];
    const indices = indexed ? [0, acc.family.count - 1, acc.family.count] : [0];
    for (const arch of ARCHES) {
      for (const index of indices)
        yield {
          id: `${symbol}/${arch}/index-${index}`,
          pins: pinsOf(symbol),
          input: { arch, symbol, args: [CSR, ...(indexed ? [index] : []), ...value] },
        };
    }
    for (let i = 0; i < count; i++) {
      const index = indexed ? [rng.below(acc.family.count)] : [];
      const v = acc.op === "write" ? [rng.u32()] : [];
      yield {
        id: `${symbol}/random/${i}`,
        pins: pinsOf(symbol),
        input: { arch: rng.pick(ARCHES), symbol, args: [CSR, ...index, ...v] },
      };
    }
  }
}

function* leafInputs(): Iterable<CaseInput> {
  for (const [symbol, argLists] of Object.entries(LEAF_ARGS)) {
    for (const arch of ARCHES) {
      for (const [k, args] of argLists.entries())
        yield { id: `${symbol}/${arch}/${k}`, pins: pinsOf(symbol), input: { arch, symbol, args } };
    }
  }
}

function run(input: Json): Json {
  const i = input as { arch: string; symbol: string; args: Json[] };
  try {
    return runHalSymbol(i.arch, i.symbol, i.args) as unknown as Json;
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { invalid: { code: e.code, field: e.field, message: e.message } };
  }
}

const HEX64 = { type: "string", pattern: "^0x[0-9a-f]+$" } as const;

const inputSchema: JsonSchema = {
  type: "object",
  required: ["arch", "symbol", "args"],
  properties: {
    arch: {
      enum: [...ARCHES],
      description: "trn1 = SUNDA (2), trn2 = CAYMAN (3), trn3 = MARIANA (4) (seed 003 §1).",
    },
    symbol: {
      type: "string",
      description: "The libnrt symbol (`sdmakit hal list` gives each one's parameters).",
    },
    args: {
      type: "array",
      description:
        "The arguments in the symbol's order: integers as numbers or `0x…` strings (a CSR base or HAL context is the SDMA CSR base address it carries), byte buffers as hex strings, structs as objects of their fields.",
    },
  },
};

const INVALID = {
  type: "object",
  description: "sdmakit refused an argument before the call (a value outside the parameter's range).",
  required: ["invalid"],
  properties: {
    invalid: {
      type: "object",
      required: ["code", "field", "message"],
      properties: { code: { const: "FIELD" }, field: { type: "string" }, message: { type: "string" } },
    },
  },
} as const;

const CALLED = {
  type: "object",
  required: ["writes", "result", "log"],
  properties: {
    writes: {
      type: "array",
      description: "Every 32-bit register write in order (reads are not listed).",
      items: {
        type: "object",
        required: ["addr", "value"],
        properties: {
          addr: { ...HEX64, description: "The byte address written." },
          value: { ...HEX64, description: "The 32-bit value." },
          accessor: { type: "string", description: "The libnrt accessor that wrote it (informative)." },
        },
      },
    },
    result: {
      description:
        "The return value: a number, `0x…` for 64-bit values and addresses, hex for bytes (a descriptor), an object for a packet ({tx, rx}) or an -EINVAL ({status: -22, message}); null for void.",
    },
    log: {
      type: "array",
      items: { type: "string" },
      description: "What the call logged (the RDM stubs' message).",
    },
    error: {
      type: "string",
      description:
        "The call failed: al_abort_program(-1) with its function and check, an assert with file:line, or -EINVAL with its message.",
    },
  },
} as const;

const expectSchema: JsonSchema = { oneOf: [CALLED, INVALID] };

export const HAL_SET: VectorSet = {
  name: "hal",
  doc: "Per-arch HAL calls (seed 003): every CSR accessor at index 0, the last index and one past it (al_abort_program), on trn1 / trn2 / trn3 (a gated family writes nothing on SUNDA), and every leaf with its seed examples and bounds; then per accessor (the group) `count` random indices and values.",
  inputSchema,
  expectSchema,
  *inputs({ count }, rng) {
    yield* csrInputs(count, rng);
    yield* leafInputs();
  },
  run,
};
