import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CAYMAN, MARIANA, SUNDA } from "../../src/hal/index.js";
import {
  type Addr4,
  addr4FromU32,
  encodeS3d3,
  isValidSb2sbCollective,
  S3D3_REASON_CODES,
  type S3d3ReasonCode,
  type S3d3Word,
  t3dElementCount,
  tensorOf,
} from "../../src/isa/index.js";
import {
  counts,
  countsOf,
  countsUpTo,
  start,
  steps,
  type Triple,
  VALID_WORD,
  validWord,
  withPattern,
} from "./s3d3-fixtures.js";

const codesOf = (w: S3d3Word | Uint8Array, arch: string | number = "trn2") =>
  isValidSb2sbCollective(w, { arch }).reasons.map((r) => r.code);
const withSrcCounts = (c: Triple): S3d3Word => withPattern(VALID_WORD, "src_mem_pattern", counts(c));
const withDstCounts = (c: Triple): S3d3Word => withPattern(VALID_WORD, "dst_mem_pattern", counts(c));

describe("is_valid_sb2sb_collective (seed 002 §4.5)", () => {
  it("accepts the fixture word, as a typed word and as bytes", () => {
    expect(isValidSb2sbCollective(VALID_WORD, { arch: CAYMAN })).toEqual({ valid: true, reasons: [] });
    expect(isValidSb2sbCollective(encodeS3d3(VALID_WORD), { arch: "trn2" }).valid).toBe(true);
  });

  it("has_valid_nc_sb2sb_collective: SUNDA has none; CAYMAN and MARIANA do (seed 002 §5)", () => {
    expect(codesOf(VALID_WORD, "trn1")).toEqual(["arch-no-sb2sb"]);
    expect(codesOf(VALID_WORD, SUNDA.arch)).toEqual(["arch-no-sb2sb"]);
    expect(codesOf(VALID_WORD, "trn2")).toEqual([]);
    expect(codesOf(VALID_WORD, MARIANA.arch)).toEqual([]);
  });

  it("size_check_src at its boundary: 255 / 256 pass, 257 fails (seed 002 §3.4)", () => {
    expect(codesOf(withSrcCounts([255, 1, 1]))).toEqual([]);
    expect(codesOf(withSrcCounts([16, 16, 1]))).toEqual([]);
    expect(codesOf(withSrcCounts([257, 1, 1]))).toEqual(["src-too-many-elements"]);
    expect(codesOf(withSrcCounts([1, 257, 1]))).toEqual(["src-too-many-elements"]);
    expect(t3dElementCount({ ...tensorOf(VALID_WORD, "src_mem_pattern"), ...counts([16, 4, 2]) })).toBe(128);
  });

  it("the destination has no 256 cap, only the 0xffff guard (MODEL reading of @0x364014)", () => {
    expect(codesOf(withDstCounts([1024, 1, 1]))).toEqual([]);
    expect(codesOf(withDstCounts([0xffff, 1, 1]))).toEqual([]);
    expect(codesOf(withDstCounts([256, 256, 1]))).toEqual(["element-count-guard"]);
    // a source past the guard fails both the cap and the guard: every reason is reported
    expect(codesOf(withSrcCounts([0xffff, 2, 1]))).toEqual(["element-count-guard", "src-too-many-elements"]);
  });

  it("check_active_ports: 0 and 129 fail, 1 and 128 pass (seed 002 §7.2)", () => {
    const ch = (n: number) => codesOf({ ...VALID_WORD, num_active_channels: n });
    expect(ch(0)).toEqual(["active-channels-range"]);
    expect(ch(1)).toEqual([]);
    expect(ch(128)).toEqual([]);
    expect(ch(129)).toEqual(["active-channels-range"]);
    expect(ch(255)).toEqual(["active-channels-range"]);
  });

  it("has_valid_LncSizefmt: LNC1 / LNC2 pass, LNC4 / LNC8 rejected, unknown codes invalid (seed 002 §7.1)", () => {
    const lnc = (f: number) => codesOf({ ...VALID_WORD, lnc_size_fmt: f });
    expect(lnc(0)).toEqual([]);
    expect(lnc(1)).toEqual([]);
    expect(lnc(2)).toEqual(["lnc-size-fmt-unsupported"]);
    expect(lnc(3)).toEqual(["lnc-size-fmt-unsupported"]);
    expect(lnc(4)).toEqual(["lnc-size-fmt-invalid"]);
    expect(lnc(255)).toEqual(["lnc-size-fmt-invalid"]);
  });

  it("SBUF-only: an immediate with bit 25 set is PSUM and rejected, for src and dst (seed 002 §3.3)", () => {
    const at = (src: number, dst: number): S3d3Word =>
      withPattern(withPattern(VALID_WORD, "src_mem_pattern", start(src)), "dst_mem_pattern", start(dst));
    expect(codesOf(at(0x01ff_ffff, 0))).toEqual([]);
    expect(codesOf(at(0x0200_0000, 0))).toEqual(["tensor-addr-psum"]);
    const r = isValidSb2sbCollective(at(0x0200_0040, 0x0200_0000), { arch: "trn2" }).reasons;
    expect(r.map((x) => [x.code, x.field])).toEqual([
      ["tensor-addr-psum", "src_mem_pattern.start_addr"],
      ["tensor-addr-psum", "dst_mem_pattern.start_addr"],
    ]);
    expect(r[1]?.message).toContain("write");
  });

  it("register addresses pass the residency check (not known statically); their reserved bytes must be 0", () => {
    const reg = (a: Addr4): S3d3Word => withPattern(VALID_WORD, "src_mem_pattern", start(a));
    expect(codesOf(reg({ kind: "addr_reg", regnum: 3, reserved0: 0, markerLow: 0 }))).toEqual([]);
    const bad = isValidSb2sbCollective(reg({ kind: "addr_reg", regnum: 3, reserved0: 1, markerLow: 0 }), {
      arch: "trn2",
    });
    expect(bad.reasons.map((x) => [x.code, x.field])).toEqual([
      ["reserved-nonzero", "src_mem_pattern.start_addr.addr_reg.reserved0"],
    ]);
  });

  it("tensor3d_valid: every num_elem ≥ 1, unless the shape comes from a shape register", () => {
    expect(codesOf(withSrcCounts([0, 4, 2]))).toEqual(["tensor-num-elem-zero"]);
    const r = isValidSb2sbCollective(withDstCounts([16, 4, 0]), { arch: "trn2" }).reasons;
    expect(r.map((x) => x.field)).toEqual(["dst_mem_pattern.num_elem.2"]);
    for (const kind of ["shape_reg", "addr_shape_reg"] as const) {
      const w = withPattern(
        VALID_WORD,
        "src_mem_pattern",
        start({ kind, regnum: 1, reserved0: 0, markerLow: 0 }),
        steps([0, 0, 0]),
        counts([0, 0, 0]),
      );
      expect(codesOf(w)).toEqual([]);
    }
    const addrReg = withPattern(
      VALID_WORD,
      "src_mem_pattern",
      start({ kind: "addr_reg", regnum: 1, reserved0: 0, markerLow: 0 }),
      steps([0, 0, 0]),
      counts([0, 1, 1]),
    );
    expect(codesOf(addrReg)).toEqual(["tensor-num-elem-zero"]);
  });

  it("dtype_equality_check and the dtype enum (seed 002 §5)", () => {
    expect(codesOf({ ...VALID_WORD, in_dtype: 6, out_dtype: 10 })).toEqual(["dtype-mismatch"]);
    expect(codesOf({ ...VALID_WORD, in_dtype: 0, out_dtype: 0 })).toEqual(["dtype-invalid", "dtype-invalid"]);
    expect(codesOf({ ...VALID_WORD, in_dtype: 16, out_dtype: 16 })).toEqual([
      "dtype-invalid",
      "dtype-invalid",
    ]);
    expect(codesOf({ ...VALID_WORD, in_dtype: 15, out_dtype: 15 })).toEqual([]);
    expect(codesOf({ ...VALID_WORD, in_dtype: 11, out_dtype: 11 })).toEqual([]);
  });

  it("header: opcode 0xBF, inst_word_len 16, a known debug_cmd (MODEL)", () => {
    const h = (patch: Partial<S3d3Word>) => codesOf({ ...VALID_WORD, ...patch });
    expect(h({ "header.opcode": 0xc7 })).toEqual(["header-opcode"]);
    expect(h({ "header.inst_word_len": 64 })).toEqual(["header-inst-word-len"]);
    expect(h({ "header.debug_cmd": 2 })).toEqual(["header-debug-cmd"]);
    expect(h({ "header.debug_cmd": 9, "header.debug_hint": 0xff })).toEqual([]);
  });

  it("events: wait_mode 0..15, update_mode 0..9 and 17..25 (MODEL)", () => {
    const wait = (m: number) => codesOf({ ...VALID_WORD, "events.wait_mode": m });
    const update = (m: number) => codesOf({ ...VALID_WORD, "events.update_mode": m });
    expect(wait(15)).toEqual([]);
    expect(wait(16)).toEqual(["events-wait-mode"]);
    expect(update(9)).toEqual([]);
    expect(update(10)).toEqual(["events-update-mode"]);
    expect(update(16)).toEqual(["events-update-mode"]);
    expect(update(17)).toEqual([]);
    expect(update(25)).toEqual([]);
    expect(update(26)).toEqual(["events-update-mode"]);
  });

  it("reserved0 (14..15) and reserved1 (34..47) must be zero: one byte set at each end of reserved1", () => {
    const bytes = encodeS3d3(VALID_WORD);
    for (const at of [14, 15, 34, 47]) {
      const b = bytes.slice();
      b[at] = 1;
      const r = isValidSb2sbCollective(b, { arch: "trn2" }).reasons;
      expect(r.map((x) => [x.code, x.field])).toEqual([
        ["reserved-nonzero", at < 16 ? "reserved0" : "reserved1"],
      ]);
    }
    // byte 33 is num_active_channels, not reserved1
    const b = bytes.slice();
    b[33] = 9;
    expect(codesOf(b)).toEqual([]);
  });

  it("reports every reason, not only the first", () => {
    const w: S3d3Word = {
      ...withSrcCounts([300, 1, 1]),
      "header.opcode": 0,
      out_dtype: 7,
      lnc_size_fmt: 3,
      num_active_channels: 0,
    };
    expect(codesOf(w, "trn1")).toEqual([
      "arch-no-sb2sb",
      "header-opcode",
      "dtype-mismatch",
      "lnc-size-fmt-unsupported",
      "active-channels-range",
      "src-too-many-elements",
    ]);
  });
});

/** For each rule: a way to break exactly that rule in a valid word. */
const BREAKERS: Record<S3d3ReasonCode, fc.Arbitrary<(w: S3d3Word) => S3d3Word>> = {
  "arch-no-sb2sb": fc.constant((w) => w), // run on SUNDA instead, below
  "header-opcode": fc
    .integer({ min: 0, max: 255 })
    .filter((o) => o !== 0xbf)
    .map((opcode) => (w) => ({ ...w, "header.opcode": opcode })),
  "header-inst-word-len": fc
    .integer({ min: 0, max: 255 })
    .filter((n) => n !== 16)
    .map((n) => (w) => ({ ...w, "header.inst_word_len": n })),
  "header-debug-cmd": fc
    .constantFrom(2, 4, 6, 8, 10, 200)
    .map((c) => (w) => ({ ...w, "header.debug_cmd": c })),
  "events-wait-mode": fc.integer({ min: 16, max: 255 }).map((m) => (w) => ({ ...w, "events.wait_mode": m })),
  "events-update-mode": fc
    .oneof(fc.integer({ min: 10, max: 16 }), fc.integer({ min: 26, max: 255 }))
    .map((m) => (w) => ({ ...w, "events.update_mode": m })),
  "dtype-invalid": fc
    .oneof(fc.constant(0), fc.integer({ min: 16, max: 255 }))
    .map((dt) => (w) => ({ ...w, in_dtype: dt, out_dtype: dt })),
  "dtype-mismatch": fc
    .integer({ min: 1, max: 14 })
    .map((k) => (w) => ({ ...w, out_dtype: ((w.in_dtype - 1 + k) % 15) + 1 })),
  "lnc-size-fmt-invalid": fc.integer({ min: 4, max: 255 }).map((f) => (w) => ({ ...w, lnc_size_fmt: f })),
  "lnc-size-fmt-unsupported": fc.constantFrom(2, 3).map((f) => (w) => ({ ...w, lnc_size_fmt: f })),
  "active-channels-range": fc
    .oneof(fc.constant(0), fc.integer({ min: 129, max: 255 }))
    .map((n) => (w) => ({ ...w, num_active_channels: n })),
  "tensor-num-elem-zero": fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2 })).map(([src, d]) => (w) => {
    const p = src ? "src_mem_pattern" : "dst_mem_pattern";
    const a = addr4FromU32(w[`${p}.start_addr.addr_immediate`]);
    const noShapeReg =
      a.kind === "imm" ? a : ({ kind: "addr_reg", regnum: 0, reserved0: 0, markerLow: 0 } as const);
    const c = countsOf(w, p).map((n, i) => (i === d ? 0 : n)) as unknown as Triple;
    return withPattern(w, p, start(noShapeReg), counts(c));
  }),
  "tensor-addr-psum": fc
    .tuple(fc.boolean(), fc.integer({ min: 0, max: 2 ** 25 - 1 }))
    .map(([src, low]) => (w) => {
      return withPattern(w, src ? "src_mem_pattern" : "dst_mem_pattern", start((1 << 25) | low));
    }),
  "src-too-many-elements": countsUpTo(0xffff)
    .filter((c) => c[0] * c[1] * c[2] > 256)
    .map((c) => (w) => withPattern(w, "src_mem_pattern", counts(c))),
  "element-count-guard": fc
    .tuple(
      fc.integer({ min: 256, max: 0xffff }),
      fc.integer({ min: 257, max: 0xffff }),
      fc.integer({ min: 1, max: 0xffff }),
    )
    .map((c) => (w) => withPattern(w, "dst_mem_pattern", counts(c))),
  "reserved-nonzero": fc.oneof(
    fc.integer({ min: 1, max: 0xffff }).map((reserved0) => (w: S3d3Word) => ({ ...w, reserved0 })),
    fc.bigInt({ min: 1n, max: (1n << 112n) - 1n }).map((reserved1) => (w: S3d3Word) => ({ ...w, reserved1 })),
  ),
};

describe("is_valid_sb2sb_collective properties", () => {
  it("a word built from valid parts validates on CAYMAN and MARIANA", () => {
    fc.assert(
      fc.property(validWord, fc.constantFrom("trn2", "trn3"), (w, arch) => {
        expect(codesOf(w, arch)).toEqual([]);
        expect(codesOf(encodeS3d3(w), arch)).toEqual([]);
      }),
    );
  });

  it("breaking any single rule yields exactly that rule's reason code", () => {
    for (const code of S3D3_REASON_CODES) {
      fc.assert(
        fc.property(validWord, BREAKERS[code], (w, breakIt) => {
          const arch = code === "arch-no-sb2sb" ? "trn1" : "trn2";
          expect(new Set(codesOf(breakIt(w), arch))).toEqual(new Set([code]));
        }),
        { numRuns: 60 },
      );
    }
  });
});
