/**
 * The JSON request of `sdmakit build` (issue 4): parse it into a copy or CCE request, run it on a
 * fresh vring (device memory + register file + the profile's arch), and return what was written.
 */
import { type Einval, FieldError, UsageError } from "../../bits/errors.js";
import { f32ToBits, lookupOwn } from "../../bits/index.js";
import { parseJsonText } from "../../bits/json.js";
import { DeviceMemory } from "../../engine/memory/memory.js";
import { type ArchProfile, archProfile } from "../../hal/arch-profile.js";
import { RegisterFile } from "../../hal/register-file.js";
import { Dtype, dtypeBytes, dtypeFromName } from "../../spec/dtype.js";
import { KBIN_OP_BY_NAME, KbinDmaDescOp } from "../../spec/enums.js";
import { type CceInfo, fmaInfo, minMaxConstant } from "../descriptors/cce-info.js";
import { encdGetCceReducePacketSize } from "../descriptors/gates.js";
import { kbinDtypeToSdmaDtype } from "../descriptors/remaps.js";
import { Vring, type WrittenDescriptor } from "../rings/vring.js";
import { addDmaPacketCce, type CceRequest } from "./cce-packet.js";
import { addDmaPacket, type CopyRequest } from "./copy-packet.js";

/** Where `build` puts its rings (MODEL: any mapped place works; `build`'s memory maps only this region). */
export const BUILD_RING_REGION = { base: 0x1_0000_0000n, bytes: 0x10000n } as const;
/** Slots per ring for `build`: room for the largest packet. */
export const BUILD_RING_SLOTS = 256;

const KEYS = [
  "arch",
  "op",
  "sources",
  "dests",
  "size",
  "inDtype",
  "accumDtype",
  "outDtype",
  "scales",
  "scaleDtype",
  "constant",
  "constantDtype",
  "sr",
  "seed",
  "priorityClass",
  "dmb",
  "wrbar",
] as const;

/** A parsed request: the profile, the ring settings and the copy or CCE request. */
export interface BuildRequest {
  readonly profile: ArchProfile;
  readonly stochasticRounding: boolean;
  readonly srSeed: number;
  readonly priorityClass?: number;
  readonly request:
    | { readonly kind: "copy"; readonly copy: CopyRequest }
    | { readonly kind: "cce"; readonly cce: CceRequest };
}

/** What a request wrote, or the -EINVAL it returned. */
export interface BuildResult {
  readonly written: WrittenDescriptor[];
  /** encd_get_cce_reduce_packet_size for the request's priority class, when it gave one. */
  readonly reducePacketBytes?: number;
  readonly vring: Vring;
  readonly registers: RegisterFile;
}

/**
 * Parse the JSON text of a build request.
 * @throws UsageError for JSON that is not an object, an unknown key or name; FieldError for a value
 * of the wrong type or range.
 * @example parseBuildRequest('{"arch":"trn2","op":"add","sources":[4096,8192],"dests":["0x3000"],"size":64,"inDtype":"bf16"}')
 */
export function parseBuildRequest(text: string): BuildRequest {
  const raw = parseJsonText("build request", text);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new UsageError("build request must be a JSON object");
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(KEYS as readonly string[]).includes(k))
      throw new UsageError(`unknown key ${JSON.stringify(k)} (known: ${KEYS.join(", ")})`);
  }
  if (o.arch !== undefined && typeof o.arch !== "string" && typeof o.arch !== "number")
    throw new FieldError("build-request", "arch", o.arch, "trn1 | trn2 | trn3");
  const profile = archProfile(o.arch ?? "trn2");
  const op = opOf(o.op);
  refuseKeysNotFor(o, op);
  const sources = addresses("sources", o.sources);
  const dests = addresses("dests", o.dests);
  const size = integer("size", o.size, 0, Number.MAX_SAFE_INTEGER);
  const dmb = flag("dmb", o.dmb);
  const wrbar = flag("wrbar", o.wrbar);
  const ring = {
    profile,
    stochasticRounding: flag("sr", o.sr),
    srSeed: o.seed === undefined ? 0 : integer("seed", o.seed, 0, 0xffffffff),
    ...(o.priorityClass === undefined
      ? {}
      : { priorityClass: integer("priorityClass", o.priorityClass, 0, 0xff) }),
  };
  if (op === KbinDmaDescOp.COPY) {
    if (sources.length !== 1 || dests.length !== 1)
      throw new FieldError(
        "build-request",
        "sources/dests",
        `${sources.length}/${dests.length}`,
        "1/1 for a copy",
      );
    if (ring.priorityClass !== undefined) throw new UsageError("priorityClass applies to CCE ops, not copy");
    return {
      ...ring,
      request: {
        kind: "copy",
        copy: { src: sources[0] as bigint, dst: dests[0] as bigint, size, dmb, wrbar },
      },
    };
  }
  const inDtype = dtype("inDtype", o.inDtype);
  const cce: CceRequest = {
    op,
    sources,
    dests,
    size,
    inDtype,
    ...(o.accumDtype === undefined ? {} : { accumDtype: dtype("accumDtype", o.accumDtype) }),
    ...(o.outDtype === undefined ? {} : { outDtype: dtype("outDtype", o.outDtype) }),
    dmb,
    wrbar,
    cceInfo: cceInfoOf(o, op, sources.length, dests.length),
  };
  return { ...ring, request: { kind: "cce", cce } };
}

/**
 * Run a parsed request on a fresh vring (engine 0, queue 0).
 * @throws SdmaAssertError for a libnrt assert; FieldError for a malformed request.
 * @returns what was written, or the -EINVAL the path returned.
 */
export function runBuildRequest(req: BuildRequest): BuildResult | Einval {
  const memory = new DeviceMemory();
  memory.map({ name: "rings", kind: "host", base: BUILD_RING_REGION.base, bytes: BUILD_RING_REGION.bytes });
  const registers = new RegisterFile();
  const vring = new Vring({
    profile: req.profile,
    memory,
    registers,
    engine: 0,
    queue: 0,
    txBase: BUILD_RING_REGION.base,
    rxBase: BUILD_RING_REGION.base + BigInt(BUILD_RING_SLOTS * 16),
    slots: BUILD_RING_SLOTS,
    stochasticRounding: req.stochasticRounding,
    srSeed: req.srSeed,
  });
  if (req.request.kind === "copy")
    return { written: addDmaPacket(vring, req.request.copy), vring, registers };
  const cce = req.request.cce;
  let reducePacketBytes: number | undefined;
  if (req.priorityClass !== undefined) {
    // The collective asks for the packet size before it builds (encd → add_dma_packet_cce).
    const inDt = kbinDtypeToSdmaDtype(cce.inDtype);
    const elemCount = Math.floor(cce.size / Math.max(1, dtypeBytes(inDt)));
    reducePacketBytes = encdGetCceReducePacketSize({ priorityClass: req.priorityClass, elemCount }, inDt);
  }
  const written = addDmaPacketCce(vring, cce);
  if ("status" in written) return written;
  return { written, vring, registers, ...(reducePacketBytes === undefined ? {} : { reducePacketBytes }) };
}

/**
 * The keys that mean something only for some ops: given for another op they would be dropped
 * silently. A raw op code other than copy counts as a CCE op (so its helper.c assert stays reachable).
 */
const isCce = (op: number) => op !== KbinDmaDescOp.COPY;
const isFma = (op: number) => op === KbinDmaDescOp.FMA;
const isMinMax = (op: number) => op === KbinDmaDescOp.MIN || op === KbinDmaDescOp.MAX;
const KEYS_FOR_OPS: readonly (readonly [key: string, applies: (op: number) => boolean, ops: string])[] = [
  ["inDtype", isCce, "CCE ops"],
  ["accumDtype", isCce, "CCE ops"],
  ["outDtype", isCce, "CCE ops"],
  ["scales", isFma, "fma"],
  ["scaleDtype", isFma, "fma"],
  ["constant", isMinMax, "min / max"],
  ["constantDtype", isMinMax, "min / max"],
];

/** @throws UsageError for a key the request's op does not use (no silently ignored input). */
function refuseKeysNotFor(o: Record<string, unknown>, op: number): void {
  for (const [key, applies, ops] of KEYS_FOR_OPS) {
    if (o[key] !== undefined && !applies(op)) throw new UsageError(`${key} applies to ${ops} only`);
  }
  if (o.scaleDtype !== undefined && o.scales === undefined) throw new UsageError("scaleDtype needs scales");
  if (o.constantDtype !== undefined && o.constant === undefined)
    throw new UsageError("constantDtype needs constant");
}

function opOf(v: unknown): number {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  const op = typeof v === "string" ? lookupOwn<number>(KBIN_OP_BY_NAME, v.toLowerCase()) : undefined;
  if (op === undefined)
    throw new UsageError(`op ${JSON.stringify(v)}: expected copy | add | fma | min | max`);
  return op;
}

/** Addresses as numbers or hex / decimal strings, 0 .. 2^64 − 1. */
function addresses(key: string, v: unknown): bigint[] {
  if (!Array.isArray(v)) throw new FieldError("build-request", key, v, "an array of addresses");
  return v.map((a, i) => {
    let big: bigint | undefined;
    if (typeof a === "number" && Number.isSafeInteger(a)) big = BigInt(a);
    else if (typeof a === "string" && /^(0x[0-9a-f]+|\d+)$/i.test(a.trim())) big = BigInt(a.trim());
    if (big === undefined || big < 0n || big >= 2n ** 64n)
      throw new FieldError("build-request", `${key}.${i}`, a, "an address 0..2^64-1 (number or hex string)");
    return big;
  });
}

function integer(key: string, v: unknown, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    throw new FieldError("build-request", key, v, `${min}..${max}`);
  return v;
}

function flag(key: string, v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw new FieldError("build-request", key, v, "true | false");
  return v;
}

/** A dtype by name (`bf16`), or a raw kbin code (so the helper.c asserts stay reachable). */
function dtype(key: string, v: unknown): number {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  const dt = typeof v === "string" ? dtypeFromName(v) : undefined;
  if (dt === undefined)
    throw new UsageError(`${key} ${JSON.stringify(v)} is not a dtype name (bf16, fp32, fp8_e4, ...)`);
  return dt;
}

/**
 * cce_info from the request: FMA with `scales` → fma_info, without → null (the assert case);
 * MIN/MAX with `constant` → min_max_info with use_constant, without → null; ADD → null.
 */
function cceInfoOf(
  o: Record<string, unknown>,
  op: number,
  numSources: number,
  numDests: number,
): CceInfo | null {
  if (op === KbinDmaDescOp.FMA && o.scales !== undefined) {
    if (!Array.isArray(o.scales) || o.scales.some((x) => typeof x !== "number")) {
      throw new FieldError("build-request", "scales", o.scales, "an array of numbers");
    }
    const scaleDtype = o.scaleDtype === undefined ? Dtype.FP32 : dtype("scaleDtype", o.scaleDtype);
    return { num_sources: numSources, num_dests: numDests, ...fmaInfo(o.scales as number[], scaleDtype) };
  }
  if ((op === KbinDmaDescOp.MIN || op === KbinDmaDescOp.MAX) && o.constant !== undefined) {
    const constantDtype =
      o.constantDtype === undefined ? Dtype.FP32 : dtype("constantDtype", o.constantDtype);
    return {
      num_sources: numSources,
      num_dests: numDests,
      ...minMaxConstant(constantBits(o.constant, constantDtype), constantDtype),
    };
  }
  return null;
}

/** The constant's raw 32 bits: fp32 → binary32 bits, int32 → two's complement, else an unsigned word. */
function constantBits(v: unknown, dt: number): number {
  if (typeof v !== "number") throw new FieldError("build-request", "constant", v, "a number");
  if (dt === Dtype.FP32) return f32ToBits(v);
  if (Number.isInteger(v) && v >= -(2 ** 31) && v <= 0xffffffff) return v >>> 0;
  throw new FieldError("build-request", "constant", v, "-2^31..2^32-1 for an integer constant");
}
