import { FieldError } from "../../bits/errors.js";
import { KERNELS_WASM_BASE64 } from "./kernels-binary.js";

/** The ALU ops with a wasm kernel. */
export type WasmAluOp = "add" | "min" | "max";

/*
 * The slice of the WebAssembly JS API used here. tsconfig's lib (ES2023) and @types/node declare no
 * WebAssembly namespace, so it is typed locally; `undefined` where a runtime lacks WebAssembly.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: unknown };
}
const WASM = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** An ALU kernel: out[i] ← op(acc[i], src[i]) as FP32 bits (out may equal acc). */
type AluKernel = (acc: number, src: number, out: number, n: number) => void;
/** A fused ALU + bf16 RNE encode kernel: out[i] ← bf16 code of op(acc[i], src[i]); acc untouched. */
type AluBf16Kernel = (
  acc: number,
  src: number,
  out: number,
  n: number,
  overflow: number,
  inf: number,
) => void;

/** The exports of kernels.wat: addresses are byte offsets into `memory`, counts are elements. */
interface KernelExports {
  readonly memory: WasmMemory;
  readonly add_f32: AluKernel;
  readonly min_f32: AluKernel;
  readonly max_f32: AluKernel;
  readonly add_bf16: AluKernel;
  readonly min_bf16: AluKernel;
  readonly max_bf16: AluKernel;
  readonly add_f32_bf16rne: AluBf16Kernel;
  readonly min_f32_bf16rne: AluBf16Kernel;
  readonly max_f32_bf16rne: AluBf16Kernel;
  readonly add_bf16_bf16rne: AluBf16Kernel;
  readonly min_bf16_bf16rne: AluBf16Kernel;
  readonly max_bf16_bf16rne: AluBf16Kernel;
  readonly load_f32: (src: number, out: number, n: number) => void;
  readonly load_bf16: (src: number, out: number, n: number) => void;
  readonly decode_bf16: (src: number, out: number, n: number) => void;
  readonly encode_bf16_rne: (src: number, out: number, n: number, overflow: number, inf: number) => void;
  readonly encode_bf16_sr: (
    src: number,
    random: number,
    out: number,
    n: number,
    overflow: number,
    inf: number,
  ) => void;
}

/** Kernel names by op and source width, built once (no string work per call). */
const ALU_NAME = {
  add: { 2: "add_bf16", 4: "add_f32" },
  min: { 2: "min_bf16", 4: "min_f32" },
  max: { 2: "max_bf16", 4: "max_f32" },
} as const;
const ALU_BF16_NAME = {
  add: { 2: "add_bf16_bf16rne", 4: "add_f32_bf16rne" },
  min: { 2: "min_bf16_bf16rne", 4: "min_f32_bf16rne" },
  max: { 2: "max_bf16_bf16rne", 4: "max_f32_bf16rne" },
} as const;
const LOAD_NAME = { 2: "load_bf16", 4: "load_f32" } as const;

const PAGE = 65536;

/**
 * The compiled module, or null where WebAssembly SIMD is missing (then every caller runs its JS
 * loop, which gives the same bits). Compiled once, on first use: 2 KiB, synchronous.
 */
let compiled: object | null | undefined;
function kernelModule(): object | null {
  if (compiled === undefined) {
    const bytes = Uint8Array.from(atob(KERNELS_WASM_BASE64), (c) => c.charCodeAt(0));
    compiled = WASM?.validate(bytes) ? new WASM.Module(bytes) : null;
  }
  return compiled;
}

/** The kernel instance whose memory is each arena's buffer. */
const KERNELS_BY_BUFFER = new WeakMap<ArrayBufferLike, KernelExports>();

/** A kernel instance with a memory of exactly `pages` pages that never grows (views stay valid). */
function instantiate(pages: number): KernelExports | undefined {
  const module = kernelModule();
  if (module === null || WASM === undefined) return undefined;
  const kernels = new WASM.Instance(module).exports as unknown as KernelExports;
  if (pages > 1) kernels.memory.grow(pages - 1);
  KERNELS_BY_BUFFER.set(kernels.memory.buffer, kernels);
  return kernels;
}

/**
 * Memory the wasm kernels work on in place. Arrays viewing one arena (`f32`, `u8`) go through the
 * numerics functions (aluAdd, aluMin, aluMax, aluApplyEncoded, decodeToF32 / encodeFromF32 for
 * bf16) with no copy at all; other arrays are staged through a small private arena in 64 KiB
 * chunks. Where WebAssembly SIMD is missing the arena is a plain ArrayBuffer and the JS loops run.
 * The arena never grows, so its views never detach.
 * @throws {FieldError} when `byteLength` is not an integer in 1..2^31.
 * @example
 * const arena = new WasmArena(3 * 4 * n);
 * const acc = arena.f32(0, n);
 * const src = arena.u8(4 * n, 8 * n); // two sources' bytes, read straight into the arena
 */
export class WasmArena {
  /** The arena's bytes (a wasm memory's buffer). */
  readonly buffer: ArrayBuffer;

  constructor(byteLength: number) {
    if (!Number.isInteger(byteLength) || byteLength < 1 || byteLength > 2 ** 31) {
      throw new FieldError("WasmArena", "byteLength", byteLength, `1..${2 ** 31}`);
    }
    const pages = Math.ceil(byteLength / PAGE);
    this.buffer = instantiate(pages)?.memory.buffer ?? new ArrayBuffer(pages * PAGE);
  }

  /** `length` FP32 values at `byteOffset` (a multiple of 4). @throws {RangeError} outside the arena. */
  f32(byteOffset: number, length: number): Float32Array {
    return new Float32Array(this.buffer, byteOffset, length);
  }

  /** `length` bytes at `byteOffset`. @throws {RangeError} outside the arena. */
  u8(byteOffset: number, length: number): Uint8Array {
    return new Uint8Array(this.buffer, byteOffset, length);
  }
}

/** Below this many elements the JS loops win (no staging, no boundary crossing). */
const MIN_ELEMENTS = 256;
/** Elements per staged chunk: 64 KiB of FP32, so a chunk and its copies stay in L2. */
const CHUNK = 16384;
/** Staging layout: acc (FP32), source / codes, random words: one CHUNK of 4 bytes each. */
const STAGE_ACC = 0;
const STAGE_SRC = 4 * CHUNK;
const STAGE_RANDOM = 8 * CHUNK;
let staging: KernelExports | null | undefined;
function stagingKernels(): KernelExports | undefined {
  if (staging === undefined) staging = instantiate(Math.ceil((12 * CHUNK) / PAGE)) ?? null;
  return staging ?? undefined;
}

let enabled = true;
/**
 * Switch the wasm kernels off (`false`) or back on: for tests and the bench, which hold the wasm
 * and JS paths against each other in one run. Results are the same bits either way.
 */
export function useWasmKernels(on: boolean): void {
  enabled = on;
}

/** The kernels all the views share an arena with, when they do and do not partly overlap. */
function arenaOf(a: ArrayBufferView, b: ArrayBufferView): KernelExports | undefined {
  if (a.buffer !== b.buffer || partlyOverlap(a, b)) return undefined;
  return KERNELS_BY_BUFFER.get(a.buffer);
}

/** True when two views of one buffer share bytes without starting at the same byte. */
function partlyOverlap(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return a.byteOffset !== b.byteOffset && overlap(a, b);
}

/** True when two views share at least one byte. */
function overlap(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return (
    a.buffer === b.buffer &&
    a.byteOffset < b.byteOffset + b.byteLength &&
    b.byteOffset < a.byteOffset + a.byteLength
  );
}

/**
 * Whether acc and a source of `srcWidth` bytes per element can be read and written together
 * element by element: disjoint, or the very same FP32 words (a bf16 source under an FP32
 * accumulator would be overwritten before it is read).
 */
function alignsWith(acc: ArrayBufferView, srcWidth: 2 | 4, srcBytes: ArrayBufferView): boolean {
  return srcWidth === 4 ? !partlyOverlap(acc, srcBytes) : !overlap(acc, srcBytes);
}

/**
 * acc[i] ← op(acc[i], src[i]) for i < count, where `src` is FP32 (4 bytes per element) or bf16
 * (2) at `srcBytes[srcOffset…]`; op "load" is acc[i] ← src[i] with NaN as 0x7fc00000 (= op of the
 * identity for ADD, MIN and MAX). Returns false when no kernel ran (too short, disabled, wasm
 * missing, or overlapping spans): the caller then runs its JS loop.
 */
export function wasmAlu(
  op: WasmAluOp | "load",
  acc: Float32Array,
  srcWidth: 2 | 4,
  srcBytes: ArrayBufferView,
  srcOffset: number,
  count: number,
): boolean {
  if (!enabled || count < MIN_ELEMENTS || !alignsWith(acc, srcWidth, srcBytes)) return false;
  const srcAddr = srcBytes.byteOffset + srcOffset;
  const direct = arenaOf(acc, srcBytes);
  if (direct !== undefined) {
    if (op === "load") direct[LOAD_NAME[srcWidth]](srcAddr, acc.byteOffset, count);
    else direct[ALU_NAME[op][srcWidth]](acc.byteOffset, srcAddr, acc.byteOffset, count);
    return true;
  }
  const k = stagingKernels();
  if (k === undefined) return false;
  const mem = new Uint8Array(k.memory.buffer);
  const src = new Uint8Array(srcBytes.buffer, srcAddr, count * srcWidth);
  const stagedAcc = new Float32Array(k.memory.buffer, STAGE_ACC, CHUNK);
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    mem.set(src.subarray(done * srcWidth, (done + n) * srcWidth), STAGE_SRC);
    if (op === "load") k[LOAD_NAME[srcWidth]](STAGE_SRC, STAGE_ACC, n);
    else {
      stagedAcc.set(acc.subarray(done, done + n));
      k[ALU_NAME[op][srcWidth]](STAGE_ACC, STAGE_SRC, STAGE_ACC, n);
    }
    acc.set(stagedAcc.subarray(0, n), done);
  }
  return true;
}

/**
 * The last source step of a reduce fused with the output: out ← op(acc[i], src[i]) for i < count
 * (NaN as 0x7fc00000), stored at `out[outOffset…]` as FP32 bits (`bf16` undefined) or as bf16
 * codes rounded to nearest even with the policy's magnitude codes `bf16.finite` / `bf16.inf`.
 * acc is only read. In place only: acc, source and out must view one WasmArena, out apart from
 * both; false otherwise (and when too short or disabled): the caller runs the unfused steps.
 */
export function wasmAluTo(
  op: WasmAluOp,
  acc: Float32Array,
  srcWidth: 2 | 4,
  srcBytes: ArrayBufferView,
  srcOffset: number,
  count: number,
  out: ArrayBufferView,
  outOffset: number,
  bf16: { readonly finite: number; readonly inf: number } | undefined,
): boolean {
  if (!enabled || count < MIN_ELEMENTS || !alignsWith(acc, srcWidth, srcBytes)) return false;
  if (out.buffer !== acc.buffer || overlap(out, acc) || overlap(out, srcBytes)) return false;
  const k = arenaOf(acc, srcBytes);
  if (k === undefined) return false;
  const srcAddr = srcBytes.byteOffset + srcOffset;
  const outAddr = out.byteOffset + outOffset;
  if (bf16 === undefined) k[ALU_NAME[op][srcWidth]](acc.byteOffset, srcAddr, outAddr, count);
  else k[ALU_BF16_NAME[op][srcWidth]](acc.byteOffset, srcAddr, outAddr, count, bf16.finite, bf16.inf);
  return true;
}

/**
 * out[outOffset + i] ← bf16 codes[i] << 16, in place when both share an arena; false otherwise
 * (the JS loop is one pass already: staging would only add copies).
 */
export function wasmDecodeBf16(
  codes: Uint16Array,
  out: Uint32Array,
  outOffset: number,
  count: number,
): boolean {
  if (!enabled || count < MIN_ELEMENTS) return false;
  const k = arenaOf(codes, out);
  if (k === undefined) return false;
  k.decode_bf16(codes.byteOffset, out.byteOffset + 4 * outOffset, count);
  return true;
}

/**
 * bf16 codes of the FP32 bits `bits[from…]` into `out[to…]` (see float-encode.ts): RNE, or SR
 * with one word per element from `draw` (called with a staging view and a count, in order).
 * `overflowCode` / `infCode` are the policy's magnitude codes. False when no kernel ran.
 */
export function wasmEncodeBf16(
  bits: Uint32Array,
  from: number,
  count: number,
  out: Uint16Array,
  to: number,
  draw: ((words: Uint32Array, n: number) => void) | undefined,
  overflowCode: number,
  infCode: number,
): boolean {
  if (!enabled || count < MIN_ELEMENTS || partlyOverlap(bits, out)) return false;
  const direct = draw === undefined ? arenaOf(bits, out) : undefined;
  if (direct !== undefined) {
    direct.encode_bf16_rne(bits.byteOffset + 4 * from, out.byteOffset + 2 * to, count, overflowCode, infCode);
    return true;
  }
  const k = stagingKernels();
  if (k === undefined) return false;
  const stagedBits = new Uint32Array(k.memory.buffer, STAGE_ACC, CHUNK);
  const stagedCodes = new Uint16Array(k.memory.buffer, STAGE_SRC, CHUNK);
  const random = new Uint32Array(k.memory.buffer, STAGE_RANDOM, CHUNK);
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    stagedBits.set(bits.subarray(from + done, from + done + n));
    if (draw === undefined) k.encode_bf16_rne(STAGE_ACC, STAGE_SRC, n, overflowCode, infCode);
    else {
      draw(random, n);
      k.encode_bf16_sr(STAGE_ACC, STAGE_RANDOM, STAGE_SRC, n, overflowCode, infCode);
    }
    out.set(stagedCodes.subarray(0, n), to + done);
  }
  return true;
}
