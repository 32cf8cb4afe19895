/**
 * One reduce, from the sources' bytes to the output's: {@link reduceInto}. It owns every choice of
 * how: one two-source kernel with no accumulator, the stepwise kernels (load, apply, apply-then-
 * encode), or the JS loops; whether a source is read in place or copied next to the accumulator;
 * which arena the accumulator lives in (reduce-scratch.ts). The choices change the speed, never
 * the bits: each fused kernel is pinned to its unfused steps (test/numerics/wasm-kernels.test.ts),
 * and those to the scalar ALU (alu.ts) and APFloat (test/vectors).
 *
 * MODEL (docs/FIDELITY.md "accumulator start"): ADD / MIN / MAX load the first source (the
 * accumulator starts at the ALU identity: −0, +inf, −inf); FMA starts from a cleared stored
 * buffer, +0 (seed 000 §9.2: acc = s0·scale0 + 0).
 */
import { FieldError } from "../bits/errors.js";
import { DTYPES, type Dtype } from "../spec/dtype.js";
import { FmaOperand } from "../spec/enums.js";
import {
  type AluOp,
  aluApplyEncoded,
  aluApplyEncodedThenEncode,
  aluClamp,
  aluConstantToF32,
  aluIdentity,
  aluLoadEncoded,
  aluReduceEncoded,
  type EncodedSource,
} from "./alu.js";
import { decodeToF32, encodeFromF32 } from "./codec.js";
import { fmaF32 } from "./fma.js";
import { mayKeepAtHand, whenArenasLetGo } from "./let-go.js";
import { arenaScratch, ownScratch, type ReduceScratch } from "./reduce-scratch.js";
import type { OverflowPolicy, Rounding } from "./rounding.js";
import { ARENA_VIEWS } from "./wasm/kernels.js";

/** `count` elements of `dtype`, little-endian, at `bytes[offset…]`. */
export interface Span {
  readonly dtype: Dtype;
  readonly bytes: Uint8Array;
  readonly offset: number;
  readonly count: number;
}

/** An FMA source's operands (the fma-desc, seed 000 §3.1): each a {@link FmaOperand}, and the scale. */
export interface FmaOperands {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly scale: number;
}

/** A source of a reduce; an FMA source carries its operands. */
export interface ReduceSource extends Span {
  readonly fma?: FmaOperands | undefined;
}

/** How the result is rounded into the output, and the MIN / MAX constant (its dtype and word). */
export interface ReduceOptions {
  readonly rounding: Rounding;
  readonly overflow: OverflowPolicy;
  readonly constant?: { readonly dt: Dtype; readonly word: number } | undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Element bytes by dtype code (spec/dtype.ts data sizes; 0 for INVALID): a typed array, so the
 * look-up a reduce makes per span is one monomorphic load (the rows have several shapes).
 */
const WIDTH = Uint8Array.from(DTYPES, (r) => r.dataSize);

/** The element bytes of `dt`; 0 for a code that is no dtype (INVALID, out of range, fractional). */
function widthOf(dt: Dtype): number {
  return WIDTH[dt] ?? 0;
}

/** The accumulator's first value (MODEL above). */
export function accumulatorStart(op: AluOp): number {
  return op === "fma" ? 0 : aluIdentity(op);
}

/** The fma-desc operands a = input, b = scale, c = stored: one kernel step. */
function isPlainFma(fma: FmaOperands): boolean {
  return (
    fma.a === FmaOperand.INPUT_BUFFER && fma.b === FmaOperand.SCALE && fma.c === FmaOperand.STORED_BUFFER
  );
}

/** What the records below point at between reduces: no caller's bytes, so a dropped arena is freed. */
const NO_BYTES = new Uint8Array(0);
/** Bytes and offset of a source as a kernel reads it (module-level: no object made a packet). */
const at: { bytes: Uint8Array; offset: number } = { bytes: NO_BYTES, offset: 0 };
/** The output when it lies outside the scratch's arena: the scratch's own output buffer. */
const staged: Mutable<Span> = { dtype: 0 as Dtype, bytes: NO_BYTES, offset: 0, count: 0 };
/** The two sources of a two-source reduce, reused reduce after reduce (alu.ts keeps no reference). */
const pair: [Mutable<EncodedSource>, Mutable<EncodedSource>] = [
  { dt: 0 as Dtype, bytes: NO_BYTES, byteOffset: 0, scale: 0 },
  { dt: 0 as Dtype, bytes: NO_BYTES, byteOffset: 0, scale: 0 },
];

/** A span's dtype, element count and byte range are valid; returns its bytes. */
function checkSpan(what: string, s: Span, count: number): number {
  const width = widthOf(s.dtype);
  if (width === 0) throw new FieldError("reduceInto", `${what}.dtype`, s.dtype, "1..15");
  if (s.count !== count) throw new FieldError("reduceInto", `${what}.count`, s.count, `${count}`);
  const len = count * width;
  if (!Number.isInteger(s.offset) || s.offset < 0 || s.offset + len > s.bytes.length) {
    throw new FieldError("reduceInto", `${what}.offset`, s.offset, `0..${s.bytes.length - len}`);
  }
  return len;
}

/**
 * out ← op over the sources, element by element, rounded into out's dtype: ADD, MIN, MAX (the
 * first source loads the accumulator; a lone one is applied to the identity, so its NaNs come out
 * canonical), or FMA (from +0, each source through its operands); then the MIN / MAX constant.
 * Every source and the output hold `out.count` elements, of any dtypes. The output may overlap a
 * source only exactly (same bytes); the sources are read before each block of the output is written.
 * @throws {FieldError} on no source, a span past its bytes, a count unlike the output's, an unknown
 * dtype, an FMA source without operands, or a constant dtype other than fp32 / int32 / uint32.
 * @example
 * const dt = Dtype.BFLOAT16;
 * reduceInto("add", [{ dtype: dt, bytes: a, offset: 0, count: n }, { dtype: dt, bytes: b, offset: 0, count: n }],
 *   { dtype: dt, bytes: out, offset: 0, count: n }, { rounding: RNE, overflow: "ieee" });
 */
export function reduceInto(
  op: AluOp,
  sources: readonly ReduceSource[],
  out: Span,
  options: ReduceOptions,
): void {
  if (sources.length === 0) throw new FieldError("reduceInto", "sources", 0, "1 or more");
  const elements = out.count;
  const outBytes = checkSpan("out", out, elements);
  let maxIn = 0;
  for (let i = 0; i < sources.length; i++) {
    const len = checkSpan("source", sources[i] as ReduceSource, elements);
    if (len > maxIn) maxIn = len;
  }
  // Each buffer read once (a typed array's `.buffer` is a call): the output's, the scratch's kept.
  const outBuffer = ARENA_VIEWS.bufferOf(out.bytes);
  const k = scratchFor(out, outBuffer, sources[0] as Span, maxIn, outBytes);
  const target = outBuffer === k.buffer ? out : stagedOut(k, out);
  // Finally: a reduce that throws (a bad constant, say) keeps no caller's bytes either.
  try {
    const fused =
      options.constant === undefined &&
      (reduceOne(op, sources, target, k, options) ||
        reduceTwo(op, sources, target, k, options) ||
        reduceMany(op, sources, target, k, options));
    if (!fused) reduceSteps(op, sources, target, k, options);
    if (target !== out) out.bytes.set(k.out.subarray(0, outBytes), out.offset);
  } finally {
    letGoOfBytes();
  }
}

/** Point the reused records at {@link NO_BYTES}: none keeps the last reduce's arena alive ({@link start} forgets with let-go.ts). */
function letGoOfBytes(): void {
  at.bytes = NO_BYTES;
  staged.bytes = NO_BYTES;
  pair[0].bytes = NO_BYTES;
  pair[1].bytes = NO_BYTES;
  for (let i = 0; i < quad.length; i++) (quad[i] as Mutable<EncodedSource>).bytes = NO_BYTES;
}

/** The scratch's output buffer as a span of out's dtype and count (the reduce writes it). */
function stagedOut(k: ReduceScratch, out: Span): Span {
  forgetStart(k.out);
  staged.dtype = out.dtype;
  staged.bytes = k.out;
  staged.offset = 0;
  staged.count = out.count;
  return staged;
}

/**
 * The scratch to reduce in: the one reserved in the arena of the output (else of the first
 * source), so the buffers there are read and written in place; else numerics' own.
 */
function scratchFor(
  out: Span,
  outBuffer: ArrayBufferLike,
  first: Span,
  maxIn: number,
  outBytes: number,
): ReduceScratch {
  const elements = out.count;
  const k = arenaScratch(outBuffer) ?? arenaScratch(ARENA_VIEWS.bufferOf(first.bytes));
  if (k && k.acc.length >= elements && k.input.length >= maxIn && k.out.length >= outBytes) return k;
  return ownScratch(elements, outBytes, maxIn);
}

/**
 * Two sources (ADD / MIN / MAX, or FMA with plain operands: seed 000 §9.2, b·s1 + (a·s0 + 0)):
 * the whole reduce and its encode in one pass (aluReduceEncoded: one kernel with no accumulator —
 * `add2_<dt>`, `fma2_<dt>` — when both are of the output dtype). A source outside `k`'s arena is
 * copied into its spare buffers first (`k.input`, then `k.out` unless the result goes there), so
 * the kernel still runs in place; false, having done nothing, when they do not hold it or a source
 * is not a plain FMA.
 */
function reduceTwo(
  op: AluOp,
  sources: readonly ReduceSource[],
  out: Span,
  k: ReduceScratch,
  options: ReduceOptions,
): boolean {
  if (sources.length !== 2) return false;
  // Indexed, not destructured: this runs for every compute packet.
  const s0 = sources[0] as ReduceSource;
  const s1 = sources[1] as ReduceSource;
  const fma = op === "fma";
  if (fma && !(s0.fma && isPlainFma(s0.fma) && s1.fma && isPlainFma(s1.fma))) return false;
  const arena = k.buffer;
  const inA = ARENA_VIEWS.bufferOf(s0.bytes) === arena;
  const inB = ARENA_VIEWS.bufferOf(s1.bytes) === arena;
  const spare = out.bytes === k.out ? undefined : k.out;
  if (!inA && !inB && (spare === undefined || spare.length < s1.count * widthOf(s1.dtype))) return false;
  const p0 = pair[0];
  const p1 = pair[1];
  if (!inA && !inB) forgetStart(k.out);
  place(p0, s0, inA ? undefined : k.input);
  place(p1, s1, inB ? undefined : inA ? k.input : (spare as Uint8Array));
  p0.dt = s0.dtype;
  p0.scale = fma ? (s0.fma?.scale ?? 0) : 0;
  p1.dt = s1.dtype;
  p1.scale = fma ? (s1.fma?.scale ?? 0) : 0;
  return reduceEncoded(op, pair, out, k, options);
}

/** The reduce of `srcs` and its encode into `out` in one pass (aluReduceEncoded), in `k`'s scratch. */
function reduceEncoded(
  op: AluOp,
  srcs: readonly EncodedSource[],
  out: Span,
  k: ReduceScratch,
  options: ReduceOptions,
): true {
  const { rounding, overflow } = options;
  aluReduceEncoded(op, k.acc, srcs, out.count, k.src, out.dtype, out.bytes, out.offset, rounding, overflow);
  return true;
}

/** ADD rounded to nearest even: the reduces the one-kernel ADDs of one to four sources stand for. */
const isRneAdd = (op: AluOp, options: ReduceOptions): boolean =>
  op === "add" && options.rounding.mode === "rne";

/** Each dtype's code of −0, the ADD start (aluIdentity), made on first use. */
const addStartCodes: (Uint8Array | undefined)[] = [];
function addStartCode(dt: Dtype): Uint8Array {
  let code = addStartCodes[dt];
  if (code === undefined) {
    code = new Uint8Array(widthOf(dt));
    encodeFromF32(dt, Float32Array.of(aluIdentity("add")), 0, 1, code, 0);
    addStartCodes[dt] = code;
  }
  return code;
}

/**
 * One ADD source of the output's dtype, RNE (kangaring's copies of a reduced piece to two outputs):
 * the steps' start −0 plus the source, then encoded, in one pass — the two-source kernel of the
 * source and a span of −0's code in `k.out` (IEEE addition commutes: the same bytes). A source
 * outside `k`'s arena is copied into `k.input` first. False, having done nothing, when that does
 * not apply or the output is `k.out` itself.
 */
function reduceOne(
  op: AluOp,
  sources: readonly ReduceSource[],
  out: Span,
  k: ReduceScratch,
  options: ReduceOptions,
): boolean {
  if (sources.length !== 1 || !isRneAdd(op, options) || out.bytes === k.out) return false;
  const s0 = sources[0] as ReduceSource;
  const bytes = out.count * widthOf(out.dtype);
  if (s0.dtype !== out.dtype || k.out.length < bytes || k.input.length < bytes) return false;
  if (!holdsStart(k.out, out.dtype, bytes)) fillStart(k.out, out.dtype, bytes);
  const [p0, p1] = pair;
  place(p0, s0, ARENA_VIEWS.bufferOf(s0.bytes) === k.buffer ? undefined : k.input);
  p0.dt = s0.dtype;
  p0.scale = 0;
  p1.bytes = k.out;
  p1.byteOffset = 0;
  p1.dt = out.dtype;
  p1.scale = 0;
  return reduceEncoded(op, pair, out, k, options);
}

/**
 * The scratch output buffer whose first `bytes` hold `dt`'s ADD start code over and over (reduceOne
 * fills it, then reuses it while nothing else writes there: ≈ 49 000 one-source packets of the
 * 8-rank 64 MiB bf16 all-reduce each filled 8 KiB); forgotten by every write of a reduce into it
 * (a staged output, a source copied there). Kept only in an arena whose owner lets go of it
 * (let-go.ts) before another thread may write its scratch: a shared arena's scratch slot is one
 * thread's until device memory's release or the end of a worker's task, both of which let go. So
 * the threads of a split run keep theirs too (each refilled it 24 480 times a run of that
 * all-reduce on 2 threads).
 */
const start: { out: Uint8Array | undefined; dt: Dtype; bytes: number } = {
  out: undefined,
  dt: 0 as Dtype,
  bytes: 0,
};
// Kept across reduces (refilling it each time is what it saves), so forgotten when arenas are let go.
whenArenasLetGo(() => {
  start.out = undefined;
});

/** Whether `out[0, bytes)` holds `dt`'s ADD start code ({@link start}). */
function holdsStart(out: Uint8Array, dt: Dtype, bytes: number): boolean {
  return start.out === out && start.dt === dt && start.bytes >= bytes;
}

/** out[0, bytes) ← `dt`'s ADD start code, remembered in {@link start} while its owner keeps it. */
function fillStart(out: Uint8Array, dt: Dtype, bytes: number): void {
  fillCode(out, addStartCode(dt), bytes);
  start.out = mayKeepAtHand(out.buffer) ? out : undefined;
  start.dt = dt;
  start.bytes = bytes;
}

/** A reduce writes `out`: what {@link start} says of it no longer holds. */
function forgetStart(out: Uint8Array): void {
  if (start.out === out) start.out = undefined;
}

/** bytes[0, len) ← `code` over and over (len a multiple of its width): doubling copies, no view made. */
function fillCode(bytes: Uint8Array, code: Uint8Array, len: number): void {
  if (code.length === 1) {
    bytes.fill(code[0] as number, 0, len);
    return;
  }
  bytes.set(code);
  for (let done = code.length; done < len; done *= 2) bytes.copyWithin(done, 0, Math.min(done, len - done));
}

/** The sources of a three- or four-source reduce, reused reduce after reduce (alu.ts keeps no reference). */
const quad: Mutable<EncodedSource>[] = [0, 1, 2, 3].map(() => ({
  dt: 0 as Dtype,
  bytes: NO_BYTES,
  byteOffset: 0,
}));
const triple = quad.slice(0, 3);

/**
 * Three or four ADD sources of the output's dtype, RNE, all in `k`'s arena (a kangaring reduce):
 * the whole reduce and its encode in one pass (aluReduceEncoded: one kernel with no accumulator,
 * `add3_<dt>` / `add4_<dt>`); false, having done nothing, otherwise.
 */
function reduceMany(
  op: AluOp,
  sources: readonly ReduceSource[],
  out: Span,
  k: ReduceScratch,
  options: ReduceOptions,
): boolean {
  const n = sources.length;
  if ((n !== 3 && n !== 4) || !isRneAdd(op, options)) return false;
  for (let i = 0; i < n; i++) {
    const s = sources[i] as ReduceSource;
    if (s.dtype !== out.dtype || ARENA_VIEWS.bufferOf(s.bytes) !== k.buffer) return false;
    const q = quad[i] as Mutable<EncodedSource>;
    q.dt = s.dtype;
    q.bytes = s.bytes;
    q.byteOffset = s.offset;
  }
  return reduceEncoded(op, n === 3 ? triple : quad, out, k, options);
}

/** Point `into` at a source: in place, or (with `buffer`) copied to the start of `buffer`. */
function place(into: Mutable<EncodedSource>, s: Span, buffer: Uint8Array | undefined): void {
  if (buffer === undefined) {
    into.bytes = s.bytes;
    into.byteOffset = s.offset;
    return;
  }
  buffer.set(s.bytes.subarray(s.offset, s.offset + s.count * widthOf(s.dtype)));
  into.bytes = buffer;
  into.byteOffset = 0;
}

/** Set {@link at} to a source's bytes for a kernel: in place in `k`'s arena, else copied into `k.input`. */
function forKernel(s: Span, k: ReduceScratch): void {
  if (ARENA_VIEWS.bufferOf(s.bytes) === k.buffer) {
    at.bytes = s.bytes;
    at.offset = s.offset;
    return;
  }
  const len = s.count * widthOf(s.dtype);
  k.input.set(s.bytes.subarray(s.offset, s.offset + len));
  at.bytes = k.input;
  at.offset = 0;
}

/**
 * The reduce step by step: the sources into the accumulator, the constant, the encode — fused with
 * the last source's step when nothing (a constant) comes between them.
 */
function reduceSteps(
  op: AluOp,
  sources: readonly ReduceSource[],
  out: Span,
  k: ReduceScratch,
  options: ReduceOptions,
): void {
  const elements = out.count;
  const { constant, rounding, overflow } = options;
  if (op === "fma") fmaSources(sources, k, elements);
  else applySources(op, sources, k, constant === undefined ? out : undefined, options);
  if (constant !== undefined) {
    if (op !== "min" && op !== "max") throw new FieldError("reduceInto", "constant", op, "min, max");
    aluClamp(op, k.acc, aluConstantToF32(constant.dt, constant.word), elements);
  }
  if (op === "fma" || constant !== undefined)
    encodeFromF32(out.dtype, k.acc, 0, elements, out.bytes, out.offset, rounding, overflow);
}

/**
 * ADD / MIN / MAX straight from the source bytes. The first source of several loads the
 * accumulator (= identity fill + apply, one pass); with `out`, the last source is fused with the
 * output encode. Same bits as decode + ALU + encode: each fused kernel is pinned to its steps.
 */
function applySources(
  op: AluOp,
  sources: readonly ReduceSource[],
  k: ReduceScratch,
  out: Span | undefined,
  options: ReduceOptions,
): void {
  const n = sources.length;
  for (let i = 0; i < n; i++) {
    const s = sources[i] as ReduceSource;
    const elements = s.count;
    forKernel(s, k);
    if (i === 0 && n > 1) {
      aluLoadEncoded(k.acc, s.dtype, at.bytes, at.offset, elements);
      continue;
    }
    if (i === 0) k.acc.fill(aluIdentity(op), 0, elements);
    if (i === n - 1 && out) {
      const { rounding, overflow } = options;
      const { dtype, bytes, offset } = out;
      aluApplyEncodedThenEncode(
        op,
        k.acc,
        s.dtype,
        at.bytes,
        at.offset,
        elements,
        k.src,
        dtype,
        bytes,
        offset,
        rounding,
        overflow,
      );
    } else aluApplyEncoded(op, k.acc, s.dtype, at.bytes, at.offset, elements, k.src);
  }
}

/** acc ← Σ FMA over the sources from a cleared accumulator (MODEL above). */
function fmaSources(sources: readonly ReduceSource[], k: ReduceScratch, elements: number): void {
  k.acc.fill(accumulatorStart("fma"), 0, elements);
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i] as ReduceSource;
    const fma = s.fma;
    if (fma === undefined)
      throw new FieldError("reduceInto", `sources[${i}].fma`, "none", "fma-desc operands");
    if (isPlainFma(fma)) {
      forKernel(s, k);
      aluApplyEncoded("fma", k.acc, s.dtype, at.bytes, at.offset, elements, k.src, fma.scale);
      continue;
    }
    decodeToF32(s.dtype, s.bytes, s.offset, elements, k.src, 0);
    fmaSelected(k, fma, elements);
  }
}

/** acc ← FMA(a, b, c) over `n` elements, each operand the stored accumulator, this source or the scale. */
function fmaSelected(k: ReduceScratch, fma: FmaOperands, n: number): void {
  const { acc, src } = k;
  // Resolved once per packet, not per element; any other selector is the scale.
  const scale = Math.fround(fma.scale);
  const arrayOf = (sel: number): Float32Array | undefined =>
    sel === FmaOperand.STORED_BUFFER ? acc : sel === FmaOperand.INPUT_BUFFER ? src : undefined;
  const a = arrayOf(fma.a);
  const b = arrayOf(fma.b);
  const c = arrayOf(fma.c);
  for (let i = 0; i < n; i++) {
    acc[i] = fmaF32(a ? (a[i] as number) : scale, b ? (b[i] as number) : scale, c ? (c[i] as number) : scale);
  }
}
