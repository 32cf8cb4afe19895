/** Valid S3D3 words for tests: a fixed one and a fast-check generator of valid parts. */
import fc from "fast-check";
import {
  type Addr4,
  addr4ToU32,
  type PatternName,
  patternFields,
  type S3d3Word,
  type Tensor3d,
  UPDATE_MODE_NAMES,
  WAIT_MODE_NAMES,
} from "../../src/isa/index.js";

/** Three values, one per dimension d ∈ {0, 1, 2}. */
export type Triple = readonly [number, number, number];

/** The counts of a pattern as its fields. */
export const counts = ([a, b, c]: Triple): Partial<Tensor3d> => ({
  "num_elem.0": a,
  "num_elem.1": b,
  "num_elem.2": c,
});
/** The strides of a pattern as its fields. */
export const steps = ([a, b, c]: Triple): Partial<Tensor3d> => ({
  "step_elem.0": a,
  "step_elem.1": b,
  "step_elem.2": c,
});
/** A start address (an immediate offset or an ADDR4 value) as its field. */
export const start = (a: number | Addr4): Partial<Tensor3d> => ({
  "start_addr.addr_immediate": typeof a === "number" ? a : addr4ToU32(a),
});
/** A whole pattern. */
export const tensor = (a: number | Addr4, step: Triple, count: Triple): Tensor3d =>
  ({ ...start(a), ...steps(step), ...counts(count) }) as Tensor3d;
/** The counts a pattern has. */
export const countsOf = (w: S3d3Word, p: PatternName): Triple => [
  w[`${p}.num_elem.0`],
  w[`${p}.num_elem.1`],
  w[`${p}.num_elem.2`],
];

/** A copy of a word with parts of one pattern replaced. */
export function withPattern(w: S3d3Word, p: PatternName, ...parts: Partial<Tensor3d>[]): S3d3Word {
  return { ...w, ...patternFields(p, Object.assign({}, ...parts)) };
}

/** The header and events of a valid word: opcode 0xBF, 16 dwords; wait sem 3 ≥ 1, then increment sem 4. */
const HEADER_EVENTS = {
  "header.opcode": 0xbf,
  "header.inst_word_len": 16,
  "header.debug_cmd": 0,
  "header.debug_hint": 0,
  "events.wait_mode": 5,
  "events.wait_idx": 3,
  "events.update_mode": 3,
  "events.update_idx": 4,
  "events.semaphore_value": 1,
} as const;

/** A valid word: 16 × 4 × 2 = 128 bf16 elements from SBUF 0x1000 to SBUF 0x40200 over 8 channels, LNC2. */
export const VALID_WORD: S3d3Word = {
  ...HEADER_EVENTS,
  in_dtype: 6,
  out_dtype: 6,
  reserved0: 0,
  ...patternFields("src_mem_pattern", tensor(0x1000, [1, 16, 64], [16, 4, 2])),
  lnc_size_fmt: 1,
  num_active_channels: 8,
  reserved1: 0n,
  ...patternFields("dst_mem_pattern", tensor(0x40200, [-1, -16, 64], [16, 4, 2])),
} as S3d3Word;

const intIn = (min: number, max: number) => fc.integer({ min, max });
const keysOf = (names: Readonly<Record<number, string>>) =>
  fc.constantFrom(...Object.keys(names).map(Number));

/** An SBUF immediate (bit 25 clear, marker 00) or a register reference with zero reserved bytes. */
export const validAddr4: fc.Arbitrary<Addr4> = fc.oneof(
  intIn(0, 2 ** 30 - 1).map((v): Addr4 => ({ kind: "imm", partitionOffset: (v & ~(1 << 25)) >>> 0 })),
  fc
    .record({
      kind: fc.constantFrom("addr_reg" as const, "shape_reg" as const, "addr_shape_reg" as const),
      regnum: intIn(0, 255),
      markerLow: intIn(0, 63),
    })
    .map((r): Addr4 => ({ ...r, reserved0: 0 })),
);

const triple = (min: number, max: number) =>
  fc.tuple(intIn(min, max), intIn(min, max), intIn(min, max)) as fc.Arbitrary<Triple>;

/** Counts, each ≥ 1, whose product is ≤ `max`. */
export function countsUpTo(max: number): fc.Arbitrary<Triple> {
  return fc.tuple(intIn(1, max), intIn(1, max), intIn(1, max)).map(([a, b, c]): Triple => {
    const b2 = Math.max(1, Math.min(b, Math.floor(max / a)));
    const c2 = Math.max(1, Math.min(c, Math.floor(max / (a * b2))));
    return [a, b2, c2];
  });
}

const pattern = (p: PatternName, addr: fc.Arbitrary<Addr4>, count: fc.Arbitrary<Triple>) =>
  fc.tuple(addr, triple(-32768, 32767), count).map(([a, s, c]) => patternFields(p, tensor(a, s, c)));

const dtype = intIn(1, 15);

/** A word built from valid parts only. */
export const validWord: fc.Arbitrary<S3d3Word> = fc
  .record({
    debugCmd: fc.constantFrom(0, 1, 3, 5, 7, 9),
    debugHint: intIn(0, 255),
    waitMode: keysOf(WAIT_MODE_NAMES),
    waitIdx: intIn(0, 255),
    updateMode: keysOf(UPDATE_MODE_NAMES),
    updateIdx: intIn(0, 255),
    semaphoreValue: fc.nat({ max: 0xffffffff }),
    dt: dtype,
    src: pattern("src_mem_pattern", validAddr4, countsUpTo(256)),
    lnc: fc.constantFrom(0, 1),
    channels: intIn(1, 128),
    dst: pattern("dst_mem_pattern", validAddr4, countsUpTo(0xffff)),
  })
  .map(
    (r) =>
      ({
        ...HEADER_EVENTS,
        "header.debug_cmd": r.debugCmd,
        "header.debug_hint": r.debugHint,
        "events.wait_mode": r.waitMode,
        "events.wait_idx": r.waitIdx,
        "events.update_mode": r.updateMode,
        "events.update_idx": r.updateIdx,
        "events.semaphore_value": r.semaphoreValue,
        in_dtype: r.dt,
        out_dtype: r.dt,
        reserved0: 0,
        ...r.src,
        lnc_size_fmt: r.lnc,
        num_active_channels: r.channels,
        reserved1: 0n,
        ...r.dst,
      }) as S3d3Word,
  );

/** Any word at all, valid or not, as the typed shape can hold it. */
export const anyWord: fc.Arbitrary<S3d3Word> = fc
  .record({
    "header.opcode": intIn(0, 255),
    "header.inst_word_len": intIn(0, 255),
    "header.debug_cmd": intIn(0, 255),
    "header.debug_hint": intIn(0, 255),
    "events.wait_mode": intIn(0, 255),
    "events.wait_idx": intIn(0, 255),
    "events.update_mode": intIn(0, 255),
    "events.update_idx": intIn(0, 255),
    "events.semaphore_value": fc.nat({ max: 0xffffffff }),
    in_dtype: intIn(0, 255),
    out_dtype: intIn(0, 255),
    reserved0: intIn(0, 0xffff),
    src: pattern("src_mem_pattern", anyAddr4(), triple(0, 0xffff)),
    lnc_size_fmt: intIn(0, 255),
    num_active_channels: intIn(0, 255),
    reserved1: fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }),
    dst: pattern("dst_mem_pattern", anyAddr4(), triple(0, 0xffff)),
  })
  .map(({ src, dst, ...r }) => ({ ...r, ...src, ...dst }) as S3d3Word);

function anyAddr4(): fc.Arbitrary<Addr4> {
  return fc.oneof(
    intIn(0, 2 ** 30 - 1).map((v): Addr4 => ({ kind: "imm", partitionOffset: v })),
    fc
      .record({
        kind: fc.constantFrom("addr_reg" as const, "shape_reg" as const, "addr_shape_reg" as const),
        regnum: intIn(0, 255),
        reserved0: intIn(0, 0xffff),
        markerLow: intIn(0, 63),
      })
      .map((r): Addr4 => r),
  );
}
