/**
 * The libnrt symbols of seed 003 that can be run by name (the `sdmakit hal` command): each with its
 * arity and a runner that takes JSON arguments positionally, in the seed's order. A HAL-context
 * argument is given as the SDMA CSR base it carries (or, for csr_index, its own aperture base).
 */
import { UsageError } from "../bits/errors.js";
import { fromHex, toHex } from "../bits/hex.js";
import {
  awsHalArchEngToXt,
  awsHalCaymanTpbDgeConfigureDma,
  awsHalCaymanTpbDgeGetRegisterOffsets,
  awsHalCaymanTpbXtConfigureFeatureFlag,
} from "./cayman-dge.js";
import {
  buildCaymanTransposeFlushPacket,
  buildCaymanTransposePacket,
  type CaymanTransposeRequest,
  type DmaBuffer,
} from "./cayman-transpose.js";
import { CSR_ACCESSORS, csrRead, csrWrite } from "./csr-accessors.js";
import {
  marianaEmbeddedSemCsrIndex,
  marianaEmbeddedSemWrAddress,
  marianaInitEmbeddedSem,
  s2mSetEmbeddedSemFields,
} from "./embedded-sem.js";
import { type HalDevice, halTpbGetArchType } from "./hal-device.js";
import { khalCall } from "./khal-dispatch.js";
import type { EmbeddedSemFields } from "./khal-slots.js";
import {
  actSequencerForceRspcombEightDeep,
  marianaEnableB0Features,
  marianaReadSeed,
  marianaSetFp8Defaults,
  marianaSetUdmaQos,
  marianaWriteSeed,
  sdmaCceUserOffset,
  sdmaCceUserOffsetMariana,
} from "./mariana-csr.js";
import { q7UcodeEngInitMariana } from "./q7-ucode.js";
import {
  buildTransposeDescriptor,
  buildTransposeMetaCtrl,
  type TransposeDims,
  verifyTransposeDimensions,
} from "./transpose-descriptor.js";

export interface HalSymbol {
  readonly arity: number;
  /** Argument names, for usage text. */
  readonly params: readonly string[];
  /** Runs the symbol; returns its libnrt result (number, bigint, bytes, Einval, a packet, or nothing). */
  readonly run: (dev: HalDevice, args: readonly unknown[]) => unknown;
}

const U64_MAX = (1n << 64n) - 1n;

/**
 * Argument readers: JSON numbers or "0x…" / decimal strings; a typed UsageError names the argument.
 * An unsigned argument is 0..2^64-1: a negative base or a 65-bit value would otherwise reach the
 * register file as a misaligned or truncated address.
 */
function big(args: readonly unknown[], i: number, name: string): bigint {
  const v = args[i];
  let b: bigint | undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) b = BigInt(v);
  else if (typeof v === "string" && /^(0x[0-9a-f]+|\d+)$/i.test(v)) b = BigInt(v);
  else {
    throw new UsageError(
      `argument ${i} (${name}): expected an integer or "0x…" string, got ${JSON.stringify(v)}`,
    );
  }
  if (b < 0n || b > U64_MAX) throw new UsageError(`argument ${i} (${name}): ${v} is out of range 0..2^64-1`);
  return b;
}
function num(args: readonly unknown[], i: number, name: string): number {
  const v = big(args, i, name);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new UsageError(`argument ${i} (${name}): ${v} is too large`);
  return Number(v);
}
function signedNum(args: readonly unknown[], i: number, name: string): number {
  const v = args[i];
  return typeof v === "number" && Number.isInteger(v) ? v : num(args, i, name);
}
function bytes(args: readonly unknown[], i: number, name: string): Uint8Array {
  const v = args[i];
  if (typeof v !== "string") throw new UsageError(`argument ${i} (${name}): expected a hex string`);
  return fromHex(v);
}
function obj(args: readonly unknown[], i: number, name: string): Record<string, unknown> {
  const v = args[i];
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new UsageError(`argument ${i} (${name}): expected a JSON object`);
  return v as Record<string, unknown>;
}
const fieldsOf = (o: Record<string, unknown>, keys: readonly string[], name: string) =>
  Object.fromEntries(keys.map((k) => [k, o[k] === undefined ? undefined : num([o[k]], 0, `${name}.${k}`)]));

function dims(args: readonly unknown[], i: number): TransposeDims {
  return fieldsOf(obj(args, i, "dims"), ["w", "x", "y", "z"], "dims") as unknown as TransposeDims;
}

function buffers(v: unknown, name: string): DmaBuffer[] {
  if (!Array.isArray(v)) throw new UsageError(`${name}: expected an array of {addr, len}`);
  return v.map((b, k) => {
    const o = obj([b], 0, `${name}[${k}]`);
    return { addr: big([o.addr], 0, `${name}[${k}].addr`), len: num([o.len], 0, `${name}[${k}].len`) };
  });
}

function transposeRequest(o: Record<string, unknown>): CaymanTransposeRequest {
  const n = (k: string, dflt?: number) =>
    o[k] === undefined && dflt !== undefined ? dflt : num([o[k]], 0, k);
  return {
    dtype: n("dtype"),
    cols: n("cols"),
    dir: n("dir", 0),
    ctrl: n("ctrl", 0),
    a2: o.a2 === undefined ? 0n : big([o.a2], 0, "a2"),
    op: n("op", 0),
    wDim: n("w_dim", 1),
    zDim: n("z_dim", 1),
    from: buffers(o.from, "from"),
    to: buffers(o.to, "to"),
  };
}

const packet = (p: ReturnType<typeof buildCaymanTransposeFlushPacket>) => ({
  tx: toHex(p.tx),
  rx: toHex(p.rx),
});

function csrSymbols(): [string, HalSymbol][] {
  return [...CSR_ACCESSORS.values()].map((acc) => {
    const indexed = acc.family.count > 1;
    const params = ["base", ...(indexed ? ["index"] : []), ...(acc.op === "write" ? ["value"] : [])];
    const run = (dev: HalDevice, a: readonly unknown[]): unknown => {
      const index = indexed ? signedNum(a, 1, "index") : 0;
      const base = big(a, 0, "base");
      if (acc.op === "read") return csrRead(dev, acc, { base, index });
      csrWrite(dev, acc, { base, index }, num(a, indexed ? 2 : 1, "value"));
      return undefined;
    };
    return [acc.symbol, { arity: params.length, params, run }];
  });
}

/** The seed register's queue and converter, arguments 1 and 2 of the seed symbols. */
const seedSlot = (a: readonly unknown[]) => ({
  queue: signedNum(a, 1, "queue"),
  dataConverter: signedNum(a, 2, "data_converter"),
});

const sym = (params: readonly string[], run: HalSymbol["run"]): HalSymbol => ({
  arity: params.length,
  params,
  run,
});

const LEAVES: [string, HalSymbol][] = [
  ["al_hal_tpb_get_arch_type", sym([], (dev) => halTpbGetArchType(dev))],
  ["aws_hal_arch_eng_to_xt", sym(["engine"], (_dev, a) => awsHalArchEngToXt(signedNum(a, 0, "engine")))],
  ["aws_hal_cayman_tpb_dge_get_register_offsets", sym([], () => awsHalCaymanTpbDgeGetRegisterOffsets())],
  [
    "aws_hal_cayman_tpb_dge_configure_dma",
    sym(["xt_local_base", "memcopy_dmas", "memcopy_queues", "memcopy_all_queues"], (dev, a) =>
      awsHalCaymanTpbDgeConfigureDma(dev, big(a, 0, "xt_local_base"), {
        memcopy_dmas: num(a, 1, "memcopy_dmas"),
        memcopy_queues: num(a, 2, "memcopy_queues"),
        memcopy_all_queues: num(a, 3, "memcopy_all_queues"),
      }),
    ),
  ],
  [
    "aws_hal_cayman_tpb_xt_configure_feature_flag",
    sym(["xt_local_base", "engine", "flags"], (dev, a) =>
      awsHalCaymanTpbXtConfigureFeatureFlag(
        dev,
        big(a, 0, "xt_local_base"),
        signedNum(a, 1, "engine"),
        num(a, 2, "flags"),
      ),
    ),
  ],
  [
    "aws_hal_sdma_init_embedded_sem",
    sym(["csr"], (dev, a) => khalCall(dev, "init_embedded_sem", big(a, 0, "csr"))),
  ],
  [
    "aws_hal_sdma_embedded_sem_wr_address",
    sym(["csr", "index", "addr"], (dev, a) =>
      khalCall(dev, "embedded_sem_wr_address", big(a, 0, "csr"), signedNum(a, 1, "index"), big(a, 2, "addr")),
    ),
  ],
  [
    "aws_hal_mariana_sdma_init_embedded_sem",
    sym(["csr"], (dev, a) => marianaInitEmbeddedSem(dev, big(a, 0, "csr"))),
  ],
  [
    "aws_hal_mariana_sdma_embedded_sem_wr_address",
    sym(["csr", "index", "addr"], (dev, a) =>
      marianaEmbeddedSemWrAddress(dev, big(a, 0, "csr"), signedNum(a, 1, "index"), big(a, 2, "addr")),
    ),
  ],
  [
    "aws_hal_mariana_sdma_embedded_sem_csr_index",
    sym(["local_base"], (dev, a) => marianaEmbeddedSemCsrIndex(dev, big(a, 0, "local_base"))),
  ],
  [
    "s2m_set_embedded_sem_fields",
    sym(["desc_hex", "sem"], (dev, a) => {
      const desc = bytes(a, 0, "desc_hex");
      const sem = obj(a, 1, "sem");
      const fields = fieldsOf(sem, ["wr_mode", "wr_val", "reg_sel", "intra_reg_offset"], "sem");
      s2mSetEmbeddedSemFields(dev, desc, { ...fields, sow: sem.sow === true } as EmbeddedSemFields);
      return desc;
    }),
  ],
  [
    "aws_mariana_sdma_write_seed",
    sym(["csr", "queue", "data_converter", "seed"], (dev, a) =>
      marianaWriteSeed(dev, big(a, 0, "csr"), seedSlot(a), num(a, 3, "seed")),
    ),
  ],
  [
    "aws_mariana_sdma_read_seed",
    sym(["csr", "queue", "data_converter"], (dev, a) => marianaReadSeed(dev, big(a, 0, "csr"), seedSlot(a))),
  ],
  ["aws_hal_get_sdma_cce_user_offset", sym([], (dev) => sdmaCceUserOffset(dev))],
  ["aws_hal_get_sdma_cce_user_offset_mariana", sym([], () => sdmaCceUserOffsetMariana())],
  [
    "aws_hal_mariana_sdma_set_fp8_defaults",
    sym(["csr"], (dev, a) => marianaSetFp8Defaults(dev, big(a, 0, "csr"))),
  ],
  [
    "aws_hal_mariana_sdma_set_udma_qos",
    sym(["csr", "queue", "qos"], (dev, a) =>
      marianaSetUdmaQos(dev, big(a, 0, "csr"), signedNum(a, 1, "queue"), num(a, 2, "qos")),
    ),
  ],
  [
    "aws_hal_mariana_sdma_enable_b0_features",
    sym(["csr"], (dev, a) => marianaEnableB0Features(dev, big(a, 0, "csr"))),
  ],
  [
    "act_sequencer_force_rspcomb_eight_deep_cayman_neff",
    sym(["base", "enable"], (dev, a) =>
      actSequencerForceRspcombEightDeep(dev, big(a, 0, "base"), num(a, 1, "enable") !== 0),
    ),
  ],
  ["aws_hal_mariana_rdm_init", sym([], (dev) => khalCall(dev, "rdm_init"))],
  ["aws_hal_mariana_rdm_queue_init", sym([], (dev) => khalCall(dev, "rdm_queue_init"))],
  ["aws_hal_mariana_rdm_queue_start", sym([], (dev) => khalCall(dev, "rdm_queue_start"))],
  [
    "aws_hal_q7_ucode_eng_init_mariana",
    sym(["csr", "owner", "iram_hex", "dram_hex"], (dev, a) =>
      q7UcodeEngInitMariana(
        dev,
        big(a, 0, "csr"),
        signedNum(a, 1, "owner"),
        bytes(a, 2, "iram_hex"),
        bytes(a, 3, "dram_hex"),
      ),
    ),
  ],
  [
    "aws_cayman_sdma_m2m_build_transpose_packet",
    sym(["request"], (_dev, a) => {
      const r = buildCaymanTransposePacket(transposeRequest(obj(a, 0, "request")));
      return "status" in r ? r : packet(r);
    }),
  ],
  [
    "aws_cayman_sdma_m2m_build_transpose_flush_packet",
    sym(["eng"], (_dev, a) => packet(buildCaymanTransposeFlushPacket(signedNum(a, 0, "eng")))),
  ],
  [
    "al_sdma_m2s_build_transpose_descriptor",
    sym(["a2", "dtype", "dims", "shape_idx"], (_dev, a) => {
      const slot = new Uint8Array(16);
      const shape = { dims: dims(a, 2), shapeIdx: num(a, 3, "shape_idx") };
      const r = buildTransposeDescriptor(slot, num(a, 0, "a2"), num(a, 1, "dtype"), shape);
      return r === 0 ? slot : r;
    }),
  ],
  [
    "al_sdma_m2s_build_transpose_meta_ctrl",
    sym(["elem", "dtype", "shape_idx"], (_dev, a) =>
      buildTransposeMetaCtrl(num(a, 0, "elem"), num(a, 1, "dtype"), num(a, 2, "shape_idx")),
    ),
  ],
  [
    "verify_transpose_dimensions",
    sym(["elem", "dims", "shape_idx"], (_dev, a) =>
      verifyTransposeDimensions(num(a, 0, "elem"), dims(a, 1), num(a, 2, "shape_idx")),
    ),
  ],
];

/** Every runnable symbol, by libnrt name. */
export const HAL_SYMBOLS: ReadonlyMap<string, HalSymbol> = new Map([...csrSymbols(), ...LEAVES]);
