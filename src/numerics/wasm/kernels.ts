import { FieldError } from "../../bits/errors.js";
import { Dtype, dtypeBytes } from "../../spec/dtype.js";
import { narrowFloatFormat } from "../float-formats.js";
import { mayKeepAtHand } from "../let-go.js";
import { copyState, type SrStream } from "../sr-stream.js";
import { BufferTag } from "./buffer-tag.js";
import {
  ALU_COMBINES,
  KERNEL_DTYPE_OF,
  kernelName,
  MANY_SOURCE_COUNTS,
  MANY_SOURCE_OPS,
  type ManySourceCount,
  type ManySourceOp,
  TWO_SOURCE_OPS,
  type TwoSourceOp,
  type TwoSourceRounding,
  type WasmCombine,
} from "./catalog.js";
import { KERNELS_WASM_BASE64 } from "./gen/kernels-binary.js";
import { isSharedBuffer, MEMORY_IMPORT_NAME, withImportedMemory, withSharedMemory } from "./shared-memory.js";
import { callTwoSr, srLaneSegments, srLanesServe, type TwoSrCall } from "./sr-lanes.js";
import { residentWords, type SeedSpan, SR_WORDS_MAX, seedSpan } from "./sr-words.js";
import { ViewMemo } from "./view-memo.js";

/*
 * The slice of the WebAssembly JS API used here. tsconfig's lib (ES2023) and @types/node declare no
 * WebAssembly namespace, so it is typed locally; `undefined` where a runtime lacks WebAssembly.
 */
interface WasmMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { readonly exports: unknown };
}
const WASM = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

export type { ManySourceOp, TwoSourceOp, WasmCombine };

export type Kernel = (...args: number[]) => void;
interface WasmGlobal {
  value: number;
}

/** One dtype's kernels in an instance (kernels.wat names them `<what>_<dtype name>`). */
export interface DtypeKernels {
  readonly width: number;
  readonly dec: Kernel | undefined;
  readonly combine: Readonly<Record<WasmCombine, Kernel>>;
  /** out ← this dtype's code of op(first, src), both sources of this dtype: RNE, and SR. */
  readonly two: Readonly<Record<TwoSourceOp, Kernel>>;
  readonly twoSr: Readonly<Record<TwoSourceOp, Kernel | undefined>>;
  /** The same SR kernels taking their random words from memory (sr-lanes.ts draws them). */
  readonly twoSrw: Readonly<Record<TwoSourceOp, Kernel | undefined>>;
  /** out ← this dtype's RNE code of op over three / four sources of this dtype, in order. */
  readonly many: Readonly<Record<ManySourceCount, Readonly<Record<ManySourceOp, Kernel>>>>;
  readonly enc: Kernel;
  readonly encSr: Kernel | undefined;
  /** Narrow floats take the overflow policy's magnitude codes; integers do not. */
  readonly float: boolean;
}

/** An instance: its memory, the stochastic-rounding stream globals, the kernels by dtype code. */
export interface Kernels {
  readonly memory: WasmMemory;
  /**
   * The memory's bytes as this thread tagged them (KERNELS), read once, after any grow: a shared
   * memory's `buffer` getter hands out a new object for the same bytes once another shared memory
   * has grown (V8), which no tag names — views made from it would find no kernels.
   */
  readonly buffer: ArrayBufferLike;
  /** The same bytes as words (SR's words copied into a scratch): the instance's, so no module holds an arena. */
  readonly words: Uint32Array<ArrayBufferLike>;
  readonly sr: readonly [WasmGlobal, WasmGlobal, WasmGlobal, WasmGlobal];
  /** The SR stream's next words in four SIMD lanes (sr-lanes.ts). */
  readonly srWords: Kernel;
  /** FP32 out ← minimum / maximum(src, a broadcast constant): the MIN / MAX constant. */
  readonly clamp: Readonly<Record<"min" | "max", Kernel>>;
  readonly byDtype: readonly (DtypeKernels | undefined)[];
}

function bind(exports: Record<string, unknown>): Kernels {
  const byDtype: (DtypeKernels | undefined)[] = [];
  const fn = (name: string) => {
    const k = exports[name] as Kernel | undefined;
    if (k !== undefined) KERNEL_NAMES.set(k, name);
    return k;
  };
  for (const [dt, kd] of KERNEL_DTYPE_OF) {
    const combine = Object.fromEntries(ALU_COMBINES.map((c) => [c, fn(kernelName.combine(c, kd))])) as Record<
      WasmCombine,
      Kernel
    >;
    const two = (r: TwoSourceRounding) =>
      Object.fromEntries(TWO_SOURCE_OPS.map((op) => [op, fn(kernelName.two(op, kd, r))])) as Record<
        TwoSourceOp,
        Kernel
      >;
    byDtype[dt] = {
      two: two("rne"),
      twoSr: two("sr"),
      twoSrw: two("srw"),
      many: Object.fromEntries(
        MANY_SOURCE_COUNTS.map((n) => [
          n,
          Object.fromEntries(MANY_SOURCE_OPS.map((op) => [op, fn(kernelName.many(op, kd, n))])),
        ]),
      ) as DtypeKernels["many"],
      width: dtypeBytes(dt),
      dec: fn(kernelName.dec(kd)),
      combine,
      enc: fn(kernelName.enc(kd, false)) as Kernel,
      encSr: fn(kernelName.enc(kd, true)),
      float: narrowFloatFormat(dt) !== undefined,
    };
  }
  const g = (k: string) => exports[k] as WasmGlobal;
  const memory = exports.memory as WasmMemory;
  const buffer = memory.buffer;
  return {
    memory,
    buffer,
    words: new Uint32Array(buffer),
    sr: [g("sr0"), g("sr1"), g("sr2"), g("sr3")],
    srWords: fn(kernelName.srWords) as Kernel,
    clamp: { min: fn(kernelName.clamp("min")) as Kernel, max: fn(kernelName.clamp("max")) as Kernel },
    byDtype,
  };
}
/** Each bound kernel's export name, for {@link wasmKernelsRun}. */
const KERNEL_NAMES = new WeakMap<Kernel, string>();
/** The names of the kernels run while {@link wasmKernelsRun} runs its function; else undefined. */
let trace: string[] | undefined;
/** `k`, noted in the trace when one is being taken. */
function traced(k: Kernel): Kernel {
  if (trace !== undefined) trace.push(KERNEL_NAMES.get(k) ?? "?");
  return k;
}

/**
 * The export names of the kernels `fn` ran (kernels.wat: `add2_fp8_e4`, `enc_bf16_sr` …), in
 * order: how a test pins that an operation reaches its kernel rather than a JS loop.
 * @example wasmKernelsRun(() => decodeToF32(Dtype.FP16, bytes, 0, 64, out)); // ["dec_fp16"]
 */
export function wasmKernelsRun(fn: () => void): string[] {
  const outer = trace;
  trace = [];
  try {
    fn();
    return trace;
  } finally {
    trace = outer;
  }
}

const PAGE = 65536;

/**
 * A module compiled once, on first use, from the embedded copy as `edit` makes it (undefined: it
 * cannot be made); null where it cannot be compiled (no WebAssembly SIMD, or threads for a shared
 * memory; no embedded copy): every caller then runs its JS loop, which gives the same bits.
 * ~300 KiB, synchronous, ~5 ms.
 */
class LazyModule {
  private module: object | null | undefined;
  constructor(private readonly edit: (bytes: Uint8Array) => Uint8Array | undefined) {}

  get(): object | null {
    if (this.module === undefined) {
      const bytes = this.edit(fromBase64(KERNELS_WASM_BASE64));
      this.module = bytes !== undefined && WASM?.validate(bytes) ? new WASM.Module(bytes) : null;
    }
    return this.module;
  }

  /** Use `module` from now on (provideWasmKernelModule). */
  provide(module: object): void {
    this.module = module;
  }
}

/** The module with its own memory. */
const PLAIN_MODULE = new LazyModule((bytes) => bytes);
/** The module with its memory shared (shared-memory.ts). */
const SHARED_MODULE = new LazyModule(withSharedMemory);
/** The module taking its shared memory as an import (shared-memory.ts). */
const IMPORTING_MODULE = new LazyModule(withImportedMemory);

/**
 * Use `module` (a WebAssembly.Module compiled from kernels.wat elsewhere: the explorer page compiles
 * it once and hands it to its worker) as the kernels from now on, in place of compiling the embedded
 * copy; a build that leaves the embedded copy out (empty) runs the JS loops until this is called.
 * @throws {FieldError} when `module` is not a WebAssembly.Module.
 */
export function provideWasmKernelModule(module: object): void {
  const Module = (globalThis as { WebAssembly?: { Module: new (...a: never[]) => object } }).WebAssembly
    ?.Module;
  if (Module === undefined || !(module instanceof Module))
    throw new FieldError("provideWasmKernelModule", "module", String(module), "a WebAssembly.Module");
  PLAIN_MODULE.provide(module);
  if (staging === null) staging = undefined;
}

/**
 * Base64 → bytes: Node's Buffer where there is one (Node 20's atob takes ~45 ms for the 300 KiB
 * module, and `Uint8Array.from` with a per-character callback four times that), atob elsewhere.
 */
function fromBase64(text: string): Uint8Array {
  const node = (globalThis as { Buffer?: { from(s: string, enc: "base64"): Uint8Array } }).Buffer;
  if (node !== undefined) return new Uint8Array(node.from(text, "base64"));
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Each arena's buffer carries its kernel instance (buffer-tag.ts: one property load a look-up). */
const KERNELS = new BufferTag<Kernels>("sdmakit kernels");

/** The kernel instance whose memory is `buffer`, if any. */
function kernelsOf(buffer: ArrayBufferLike): Kernels | undefined {
  return KERNELS.get(buffer);
}

/** The buffer and offset of arena views met lately (view-memo.ts): what each kernel call reads first. */
export const ARENA_VIEWS = new ViewMemo((buffer) => kernelsOf(buffer) !== undefined && mayKeepAtHand(buffer));

/**
 * The WebAssembly.Memory of the arena whose buffer is `buffer` (undefined: none of this thread's
 * kernels has it): what another module imports to work on the arena's bytes in place.
 */
export function arenaMemoryOf(buffer: ArrayBufferLike): object | undefined {
  return kernelsOf(buffer)?.memory;
}

/**
 * A kernel instance with a memory of exactly `pages` pages that never grows (views stay valid);
 * `shared`: over a shared memory (undefined when none can be made).
 */
function instantiate(pages: number, shared = false): Kernels | undefined {
  const module = (shared ? SHARED_MODULE : PLAIN_MODULE).get();
  if (module === null || WASM === undefined) return undefined;
  const exports = new WASM.Instance(module).exports as Record<string, unknown>;
  if (pages > 1) (exports.memory as WasmMemory).grow(pages - 1);
  const kernels = bind(exports);
  KERNELS.set(kernels.buffer, kernels);
  return kernels;
}

/** A kernel instance of this thread over `memory`, a shared arena's memory made on another thread. */
function instantiateOver(memory: WasmMemory): Kernels | undefined {
  const module = IMPORTING_MODULE.get();
  if (module === null || WASM === undefined) return undefined;
  const imports = { [MEMORY_IMPORT_NAME.module]: { [MEMORY_IMPORT_NAME.field]: memory } };
  const kernels = bind(new WASM.Instance(module, imports).exports as Record<string, unknown>);
  KERNELS.set(kernels.buffer, kernels);
  return kernels;
}

/**
 * Memory the wasm kernels work on in place. Arrays viewing one arena (`f32`, `u8`) go through the
 * numerics functions (aluAdd, aluMin, aluMax, aluApplyEncoded, decodeToF32 / encodeFromF32 for
 * bf16) with no copy at all; other arrays are staged through a small private arena in 64 KiB
 * chunks. Where WebAssembly SIMD is missing the arena is a plain ArrayBuffer and the JS loops run.
 * The arena never grows, so its views never detach. `shared`: its buffer is a SharedArrayBuffer
 * (the kernels over a shared memory: shared-memory.ts), which worker threads can view.
 * @throws {FieldError} when `byteLength` is not an integer in 1..2^31.
 * @example
 * const arena = new WasmArena(3 * 4 * n);
 * const acc = arena.f32(0, n);
 * const src = arena.u8(4 * n, 8 * n); // two sources' bytes, read straight into the arena
 */
export class WasmArena {
  /** The arena's bytes (a wasm memory's buffer). */
  readonly buffer: ArrayBufferLike;
  /**
   * What another thread is handed to reach the arena ({@link WasmArena.over}): a shared arena's
   * WebAssembly.Memory (kernels on both threads), else its buffer.
   */
  readonly handle: object;

  constructor(byteLength: number, shared = false) {
    if (!Number.isInteger(byteLength) || byteLength < 1 || byteLength > 2 ** 31) {
      throw new FieldError("WasmArena", "byteLength", byteLength, `1..${2 ** 31}`);
    }
    const pages = Math.ceil(byteLength / PAGE);
    const bytes = pages * PAGE;
    const kernels = instantiate(pages, shared);
    this.buffer = kernels?.buffer ?? (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
    this.handle = shared ? (kernels?.memory ?? this.buffer) : this.buffer;
  }

  /**
   * The arena another thread made, from its {@link handle}: the same bytes, with a kernel instance
   * of this thread over them (kernels run here in place, as there).
   * @throws {FieldError} when `handle` is neither a WebAssembly.Memory nor a SharedArrayBuffer.
   */
  static over(handle: object): WasmArena {
    const arena = Object.create(WasmArena.prototype) as { buffer: ArrayBufferLike; handle: object };
    if (isSharedBuffer(handle)) arena.buffer = handle;
    else {
      const buffer = (handle as Partial<WasmMemory>).buffer;
      if (!isSharedBuffer(buffer))
        throw new FieldError("WasmArena.over", "handle", String(handle), "a shared WebAssembly.Memory");
      arena.buffer = instantiateOver(handle as WasmMemory)?.buffer ?? buffer;
    }
    arena.handle = handle;
    return arena as WasmArena;
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
const MIN_ELEMENTS = 64;
/** Elements per staged chunk: 64 KiB of FP32, so a chunk and its copies stay in L2. */
const CHUNK = 16384;
/**
 * Staging layout: acc (FP32), source bytes, output bytes: a CHUNK of the widest element each (8
 * bytes: the 64-bit integers), acc only 4.
 */
const STAGE_ACC = 0;
const STAGE_SRC = 4 * CHUNK;
const STAGE_OUT = 12 * CHUNK;
let staging: Kernels | null | undefined;
function stagingKernels(): Kernels | undefined {
  if (staging === undefined) staging = instantiate(Math.ceil((20 * CHUNK) / PAGE)) ?? null;
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

/** The kernels for `dt` when enabled, worth it for `count`, and compiled; else undefined. */
function kernelsFor(dt: Dtype, count: number): DtypeKernels | undefined {
  if (!enabled || count < MIN_ELEMENTS) return undefined;
  return stagingKernels()?.byDtype[dt];
}

/** The instance all the views share an arena with, when they do; undefined otherwise. */
function arenaOf(a: ArrayBufferView, b: ArrayBufferView, c: ArrayBufferView = b): Kernels | undefined {
  const buffer = ARENA_VIEWS.bufferOf(a);
  if (buffer !== ARENA_VIEWS.bufferOf(b) || buffer !== ARENA_VIEWS.bufferOf(c)) return undefined;
  return kernelsOf(buffer);
}

/** True when byte spans [a, a + aLen) and [b, b + bLen) of one buffer share a byte. */
function spansOverlap(a: number, aLen: number, b: number, bLen: number): boolean {
  return a < b + bLen && b < a + aLen;
}

/**
 * Whether a kernel may read `inLen` bytes at `inAt` and write `outLen` bytes at `outAt` of one
 * buffer element by element: disjoint, or starting at the same byte with the output no wider
 * (each group is read before it is written, and a narrower write never reaches unread bytes).
 */
function inPlaceOk(inAt: number, inLen: number, outAt: number, outLen: number): boolean {
  return !spansOverlap(inAt, inLen, outAt, outLen) || (inAt === outAt && outLen <= inLen);
}

/**
 * acc[i] ← op(acc[i], x[i]) for i < count (FMA: x[i]·scale + acc[i], rounded once), x[i] being
 * element i of dtype `dt` at `srcBytes[srcOffset…]`; "load" is acc[i] ← x[i], "scale" the FMA of
 * x[i] into acc[i] = +0 (acc only written). NaN results are
 * 0x7fc00000. In place when acc and the source view one WasmArena, else staged in 64 KiB chunks.
 * Returns false when no kernel ran (dtype without one, too short, disabled, wasm missing, or the
 * source overlapping acc other than word for word): the caller then runs its JS loop.
 */
export function wasmAlu(
  op: WasmCombine,
  acc: Float32Array,
  dt: Dtype,
  srcBytes: ArrayBufferView,
  srcOffset: number,
  count: number,
  scale = 0,
): boolean {
  const dk = kernelsFor(dt, count);
  if (dk === undefined) return false;
  const srcAddr = ARENA_VIEWS.byteOffsetOf(srcBytes) + srcOffset;
  const width = dk.width;
  const direct = arenaOf(acc, srcBytes);
  if (direct !== undefined) {
    const accAt = ARENA_VIEWS.byteOffsetOf(acc);
    if (!inPlaceOk(srcAddr, count * width, accAt, 4 * count)) return false;
    const k = direct.byDtype[dt] as DtypeKernels;
    const kernel = traced(k.combine[op]);
    if (op === "load" || op === "scale") kernel(srcAddr, accAt, count, scale);
    else kernel(accAt, srcAddr, accAt, count, scale);
    return true;
  }
  if (acc.buffer === srcBytes.buffer && spansOverlap(srcAddr, count * width, acc.byteOffset, 4 * count)) {
    return false;
  }
  const staged = stagingKernels() as Kernels;
  const mem = new Uint8Array(staged.memory.buffer);
  const src = new Uint8Array(srcBytes.buffer, srcAddr, count * width);
  const stagedAcc = new Float32Array(staged.memory.buffer, STAGE_ACC, CHUNK);
  const kernel = traced(dk.combine[op]);
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    mem.set(src.subarray(done * width, (done + n) * width), STAGE_SRC);
    if (op === "load" || op === "scale") kernel(STAGE_SRC, STAGE_ACC, n, scale);
    else {
      stagedAcc.set(acc.subarray(done, done + n));
      kernel(STAGE_ACC, STAGE_SRC, STAGE_ACC, n, scale);
    }
    acc.set(stagedAcc.subarray(0, n), done);
  }
  return true;
}

/**
 * out[outOffset + i] ← the FP32 bits of element i of dtype `dt` at `bytes[byteOffset…]`, exact
 * (NaN payloads kept). In place when both share an arena, else staged. False when no kernel ran
 * (FP32 needs none: it is a copy).
 */
export function wasmDecode(
  dt: Dtype,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  out: Float32Array,
  outOffset: number,
): boolean {
  const dk = kernelsFor(dt, count);
  if (dk?.dec === undefined) return false;
  const srcAddr = ARENA_VIEWS.byteOffsetOf(bytes) + byteOffset;
  const outAddr = ARENA_VIEWS.byteOffsetOf(out) + 4 * outOffset;
  const direct = arenaOf(bytes, out);
  if (direct !== undefined) {
    if (spansOverlap(srcAddr, count * dk.width, outAddr, 4 * count)) return false;
    traced((direct.byDtype[dt] as DtypeKernels).dec as Kernel)(srcAddr, outAddr, count);
    return true;
  }
  if (bytes.buffer === out.buffer && spansOverlap(srcAddr, count * dk.width, outAddr, 4 * count)) {
    return false;
  }
  const staged = stagingKernels() as Kernels;
  const mem = new Uint8Array(staged.memory.buffer);
  const outView = new Uint8Array(out.buffer, outAddr, 4 * count);
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    mem.set(bytes.subarray(byteOffset + done * dk.width, byteOffset + (done + n) * dk.width), STAGE_SRC);
    traced(dk.dec)(STAGE_SRC, STAGE_ACC, n);
    outView.set(mem.subarray(STAGE_ACC, STAGE_ACC + 4 * n), 4 * done);
  }
  return true;
}

/**
 * Codes of dtype `dt` for the FP32 bits `bits[from…]` into `out[outOffset…]` (bytes): RNE, or SR
 * drawing one word per element, in order, from `sr` (its state moves as the JS encoder's would).
 * `overflowCode` / `infCode` are the policy's magnitude codes (narrow floats only). False when no
 * kernel ran (FP32 needs none).
 */
export function wasmEncode(
  dt: Dtype,
  bits: Float32Array | Uint32Array,
  from: number,
  count: number,
  out: Uint8Array,
  outOffset: number,
  sr: SrStream | undefined,
  overflowCode: number,
  infCode: number,
): boolean {
  const dk = kernelsFor(dt, count);
  if (dk === undefined || dt === Dtype.FP32 || dt === Dtype.FP32R) return false;
  if (sr !== undefined && dk.encSr === undefined) return false;
  const srcAddr = ARENA_VIEWS.byteOffsetOf(bits) + 4 * from;
  const outAddr = ARENA_VIEWS.byteOffsetOf(out) + outOffset;
  const outBytes = count * dk.width;
  const direct = arenaOf(bits, out);
  if (direct !== undefined) {
    if (!inPlaceOk(srcAddr, 4 * count, outAddr, outBytes)) return false;
    encodeWith(direct, dt, srcAddr, outAddr, count, sr, overflowCode, infCode);
    return true;
  }
  if (bits.buffer === out.buffer && spansOverlap(srcAddr, 4 * count, outAddr, outBytes)) return false;
  const staged = stagingKernels() as Kernels;
  const mem = new Uint8Array(staged.memory.buffer);
  const src = new Uint8Array(bits.buffer, srcAddr, 4 * count);
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    mem.set(src.subarray(4 * done, 4 * (done + n)), STAGE_ACC);
    encodeWith(staged, dt, STAGE_ACC, STAGE_OUT, n, sr, overflowCode, infCode);
    out.set(mem.subarray(STAGE_OUT, STAGE_OUT + n * dk.width), outOffset + done * dk.width);
  }
  return true;
}

/**
 * A two-source reduce in one pass with no accumulator: out[i] ← the `dt` code of op(a[i], b[i]),
 * NaN canonical, RNE or SR from `sr` (its state moves as the JS encoder's would). FMA is
 * b[i]·scale1 + (a[i]·scale0 + 0), each step rounded once to FP32 (FP32 scales). Sources and
 * output are `count` elements of `dt` at byte offsets of their views, all in one WasmArena, the
 * output apart from both sources or exactly on one. False when no kernel ran: the caller runs the
 * steps (aluLoadEncoded, aluApplyEncoded, encodeFromF32), which give the same bytes. `scratch`, a
 * view in the same arena, lets SR draw a long span's random words in four lanes (sr-lanes.ts).
 */
export function wasmReduce2(
  op: TwoSourceOp,
  dt: Dtype,
  a: Uint8Array,
  aOffset: number,
  b: Uint8Array,
  bOffset: number,
  count: number,
  out: Uint8Array,
  outOffset: number,
  sr: SrStream | undefined,
  overflowCode: number,
  infCode: number,
  scale0 = 0,
  scale1 = 0,
  scratch?: Float32Array,
): boolean {
  const dk = kernelsFor(dt, count);
  const direct = dk && arenaOf(a, b, out);
  if (dk === undefined || direct === undefined) return false;
  const len = count * dk.width;
  const aAt = ARENA_VIEWS.byteOffsetOf(a) + aOffset;
  const bAt = ARENA_VIEWS.byteOffsetOf(b) + bOffset;
  const outAt = ARENA_VIEWS.byteOffsetOf(out) + outOffset;
  if (!inPlaceOk(aAt, len, outAt, len) || !inPlaceOk(bAt, len, outAt, len)) return false;
  const k = direct.byDtype[dt] as DtypeKernels;
  const two = sr === undefined ? k.two[op] : k.twoSr[op];
  if (two === undefined) return false;
  // RNE calls the kernel directly, SR in a function of its own: a closure here (its captured
  // variables' context made on every call) showed in the engine's per-packet cost, and so did the
  // arrays of arguments SR once made: its call is one record, filled in place.
  if (sr !== undefined) {
    const c = srCall;
    c.aAt = aAt;
    c.bAt = bAt;
    c.outAt = outAt;
    c.count = count;
    c.width = k.width;
    c.fma = op === "fma";
    c.scale0 = scale0;
    c.scale1 = scale1;
    c.overflowCode = overflowCode;
    c.infCode = infCode;
    runTwoSr(direct, k, sr, op, scratch);
  } else if (op === "fma") traced(two)(aAt, bAt, outAt, count, scale0, scale1, overflowCode, infCode);
  else traced(two)(aAt, bAt, outAt, count, overflowCode, infCode);
  return true;
}

/** A source of {@link wasmReduceMany}: its bytes from `byteOffset` of the view. */
export interface ReduceSpan {
  readonly bytes: Uint8Array;
  readonly byteOffset: number;
}

/**
 * A three- or four-source reduce in one pass with no accumulator: out[i] ← the `dt` RNE code of
 * op(op(s0[i], s1[i]), s2[i]) (three) or op(op(op(s0[i], s1[i]), s2[i]), s3[i]) (four), FP32 in
 * between, NaN canonical. Sources and output are `count` elements of `dt`, all in one WasmArena,
 * the output apart from each source or exactly on it. False when no kernel ran: the caller runs
 * the steps (aluLoadEncoded, aluApplyEncoded, encodeFromF32), which give the same bytes.
 */
export function wasmReduceMany(
  op: ManySourceOp,
  dt: Dtype,
  sources: readonly ReduceSpan[],
  count: number,
  out: Uint8Array,
  outOffset: number,
  overflowCode: number,
  infCode: number,
): boolean {
  const n = sources.length;
  const dk = kernelsFor(dt, count);
  // Read once: a typed array's `.buffer` is a call (≈ 20 ns on Node 20), and each source compares.
  const buffer = ARENA_VIEWS.bufferOf(out);
  const direct = dk && (n === 3 || n === 4) ? kernelsOf(buffer) : undefined;
  if (dk === undefined || direct === undefined) return false;
  const len = count * dk.width;
  const outAt = ARENA_VIEWS.byteOffsetOf(out) + outOffset;
  // Indexed, no array made: the engine calls this for every three- and four-source packet.
  for (let i = 0; i < n; i++) if (!sharesArena(sources[i] as ReduceSpan, buffer, outAt, len)) return false;
  const s0 = addrOf(sources[0] as ReduceSpan);
  const s1 = addrOf(sources[1] as ReduceSpan);
  const s2 = addrOf(sources[2] as ReduceSpan);
  const kernel = traced((direct.byDtype[dt] as DtypeKernels).many[n as ManySourceCount][op]);
  if (n === 3) kernel(s0, s1, s2, outAt, count, overflowCode, infCode);
  else kernel(s0, s1, s2, addrOf(sources[3] as ReduceSpan), outAt, count, overflowCode, infCode);
  return true;
}

/** A source's byte address in its buffer (a module function: no closure made per packet). */
function addrOf(s: ReduceSpan): number {
  return ARENA_VIEWS.byteOffsetOf(s.bytes) + s.byteOffset;
}

/** Whether a source lies in `buffer` (out's) and a kernel may read it while writing [outAt, outAt + len). */
function sharesArena(s: ReduceSpan, buffer: ArrayBufferLike, outAt: number, len: number): boolean {
  return ARENA_VIEWS.bufferOf(s.bytes) === buffer && inPlaceOk(addrOf(s), len, outAt, len);
}

/** The SR call {@link wasmReduce2} makes, one record for every call (no kernel call nests). */
const srCall: TwoSrCall = {
  aAt: 0,
  bAt: 0,
  outAt: 0,
  count: 0,
  width: 1,
  fma: false,
  scale0: 0,
  scale1: 0,
  overflowCode: 0,
  infCode: 0,
};

/**
 * {@link wasmReduce2}'s SR kernel call ({@link srCall}): a stream just seeded reads its seed's
 * words; else whole blocks through the lanes when `scratch` serves, the rest with the SR stream's
 * state moved into the kernel and back.
 */
function runTwoSr(
  k: Kernels,
  dk: DtypeKernels,
  sr: SrStream,
  op: TwoSourceOp,
  scratch: Float32Array | undefined,
): void {
  const c = srCall;
  const lanes = dk.twoSrw[op];
  if (lanes !== undefined && seededSpan(k, lanes, sr, scratch)) return;
  const done =
    lanes !== undefined && srLanesServe(k, c.count, scratch)
      ? srLaneSegments(k, traced(lanes), sr, c, scratch as Float32Array)
      : 0;
  const kernel = dk.twoSr[op] as Kernel;
  if (done < c.count) withStream(k, sr, () => callTwoSr(traced(kernel), c, done, c.count - done));
}

/**
 * An SR reduce ({@link srCall}) of a stream just seeded (SrStream.atSeed), short enough for the
 * seed's words drawn once (sr-words.ts): the `_srw` kernel reads them where the arena keeps them
 * (sr-words.ts residentWords), else copied into `scratch` (in the instance's memory); the stream's
 * state set to where `count` steps leave it. False when that does not apply.
 */
function seededSpan(k: Kernels, kernel: Kernel, sr: SrStream, scratch: Float32Array | undefined): boolean {
  const count = srCall.count;
  if (count > SR_WORDS_MAX) return false;
  const seed = sr.atSeed();
  if (seed === undefined) return false;
  const span = seedSpan(seed, count);
  const wordsAt = residentWords(k.buffer, seed, span) ?? inScratch(k, span, scratch);
  if (wordsAt === undefined) return false;
  callTwoSr(traced(kernel), srCall, 0, count, wordsAt);
  copyState(sr.stateWords(), span.end);
  return true;
}

/** `span`'s words copied into `scratch` when it is in the instance's memory and holds them: where. */
function inScratch(k: Kernels, span: SeedSpan, scratch: Float32Array | undefined): number | undefined {
  if (scratch === undefined || scratch.buffer !== k.buffer || scratch.length < span.words.length)
    return undefined;
  k.words.set(span.words, scratch.byteOffset >> 2);
  return scratch.byteOffset;
}

/**
 * acc[i] ← minimum / maximum(acc[i], constant) for i < count, NaN canonical (the MIN / MAX
 * constant; `constant` an FP32 value). In place when acc is in a WasmArena, else staged. False when
 * no kernel ran (too short, disabled, wasm missing).
 */
export function wasmClamp(op: "min" | "max", acc: Float32Array, constant: number, count: number): boolean {
  if (kernelsFor(Dtype.FP32, count) === undefined) return false;
  const direct = kernelsOf(acc.buffer);
  if (direct !== undefined) {
    traced(direct.clamp[op])(acc.byteOffset, acc.byteOffset, count, constant);
    return true;
  }
  const staged = stagingKernels() as Kernels;
  const stagedAcc = new Float32Array(staged.memory.buffer, STAGE_ACC, CHUNK);
  const kernel = traced(staged.clamp[op]);
  for (let done = 0; done < count; done += CHUNK) {
    const n = count - done < CHUNK ? count - done : CHUNK;
    stagedAcc.set(acc.subarray(done, done + n));
    kernel(STAGE_ACC, STAGE_ACC, n, constant);
    acc.set(stagedAcc.subarray(0, n), done);
  }
  return true;
}

/** Run `fn` with the stream's state in the instance's globals, and take the moved state back. */
function withStream(k: Kernels, sr: SrStream, fn: () => void): void {
  const state = sr.stateWords();
  const [g0, g1, g2, g3] = k.sr;
  g0.value = state[0] as number;
  g1.value = state[1] as number;
  g2.value = state[2] as number;
  g3.value = state[3] as number;
  fn();
  state[0] = g0.value;
  state[1] = g1.value;
  state[2] = g2.value;
  state[3] = g3.value;
}

/** One encode kernel call; SR hands the stream's state to the kernel and takes it back. */
function encodeWith(
  k: Kernels,
  dt: Dtype,
  src: number,
  out: number,
  n: number,
  sr: SrStream | undefined,
  overflowCode: number,
  infCode: number,
): void {
  const dk = k.byDtype[dt] as DtypeKernels;
  if (sr === undefined) traced(dk.enc)(src, out, n, overflowCode, infCode);
  else withStream(k, sr, () => traced(dk.encSr as Kernel)(src, out, n, overflowCode, infCode));
}
