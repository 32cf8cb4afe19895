/** Valid S3D3 words for tests: a fixed one and a fast-check generator of valid parts. */
import fc from "fast-check";
import type { Addr4 } from "../../src/isa/addr4.js";
import { UPDATE_MODE_NAMES, WAIT_MODE_NAMES } from "../../src/isa/header-events-model.js";
import type { S3d3Word, Tensor3d, Triple } from "../../src/isa/s3d3-word.js";

/** A valid word: 16 × 4 × 2 = 128 bf16 elements from SBUF 0x1000 to SBUF 0x40200 over 8 channels, LNC2. */
export const VALID_WORD: S3d3Word = {
  header: { opcode: 0xbf, instWordLen: 16, debugCmd: 0, debugHint: 0 },
  events: { waitMode: 5, waitIdx: 3, updateMode: 3, updateIdx: 4, semaphoreValue: 1 },
  inDtype: 6,
  outDtype: 6,
  reserved0: 0,
  src: { startAddr: { kind: "imm", partitionOffset: 0x1000 }, stepElem: [1, 16, 64], numElem: [16, 4, 2] },
  lncSizeFmt: 1,
  numActiveChannels: 8,
  reserved1: 0n,
  dst: { startAddr: { kind: "imm", partitionOffset: 0x40200 }, stepElem: [-1, -16, 64], numElem: [16, 4, 2] },
};

/** A copy of a word with some parts replaced. */
export function withTensor(t: Tensor3d, patch: Partial<Tensor3d>): Tensor3d {
  return { ...t, ...patch };
}

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

const tensor = (maxCount: number): fc.Arbitrary<Tensor3d> =>
  fc.record({ startAddr: validAddr4, stepElem: triple(-32768, 32767), numElem: countsUpTo(maxCount) });

const dtype = intIn(1, 15);

/** A word built from valid parts only. */
export const validWord: fc.Arbitrary<S3d3Word> = fc
  .record({
    header: fc.record({
      opcode: fc.constant(0xbf),
      instWordLen: fc.constant(16),
      debugCmd: fc.constantFrom(0, 1, 3, 5, 7, 9),
      debugHint: intIn(0, 255),
    }),
    events: fc.record({
      waitMode: keysOf(WAIT_MODE_NAMES),
      waitIdx: intIn(0, 255),
      updateMode: keysOf(UPDATE_MODE_NAMES),
      updateIdx: intIn(0, 255),
      semaphoreValue: fc.nat({ max: 0xffffffff }),
    }),
    dt: dtype,
    src: tensor(256),
    lncSizeFmt: fc.constantFrom(0, 1),
    numActiveChannels: intIn(1, 128),
    dst: tensor(0xffff),
  })
  .map(({ dt, ...r }): S3d3Word => ({ ...r, inDtype: dt, outDtype: dt, reserved0: 0, reserved1: 0n }));

/** Any word at all, valid or not, as the typed shape can hold it. */
export const anyWord: fc.Arbitrary<S3d3Word> = fc.record({
  header: fc.record({
    opcode: intIn(0, 255),
    instWordLen: intIn(0, 255),
    debugCmd: intIn(0, 255),
    debugHint: intIn(0, 255),
  }),
  events: fc.record({
    waitMode: intIn(0, 255),
    waitIdx: intIn(0, 255),
    updateMode: intIn(0, 255),
    updateIdx: intIn(0, 255),
    semaphoreValue: fc.nat({ max: 0xffffffff }),
  }),
  inDtype: intIn(0, 255),
  outDtype: intIn(0, 255),
  reserved0: intIn(0, 0xffff),
  src: fc.record({ startAddr: anyAddr4(), stepElem: triple(-32768, 32767), numElem: triple(0, 0xffff) }),
  lncSizeFmt: intIn(0, 255),
  numActiveChannels: intIn(0, 255),
  reserved1: fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }),
  dst: fc.record({ startAddr: anyAddr4(), stepElem: triple(-32768, 32767), numElem: triple(0, 0xffff) }),
});

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
