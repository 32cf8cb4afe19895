/**
 * Type test (checked by `npm run typecheck`, which covers test/): a layout's field shape is
 * inferred from its declaration, so a misspelt field does not compile. Each `@ts-expect-error`
 * fails the typecheck if the line below it ever compiles.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { decode, encode } from "../../src/index.js";
import { decodeS3d3, encodeS3d3, type S3d3Word } from "../../src/isa/index.js";
import type { CceInfo } from "../../src/runtime/index.js";
import { CCE_INFO, FMA_DESC, FMA_META, LAYOUTS, UDMA_TX } from "../../src/spec/index.js";

describe("typed layouts", () => {
  it("refuses a misspelt field at compile time (and at run time)", () => {
    // @ts-expect-error a_sell is not a field of fma-desc
    expect(() => FMA_DESC.encode({ a_sell: 1 })).toThrow(FieldError);
    // @ts-expect-error in_dtt is not a field of fma-meta
    expect(() => FMA_META.encode({ in_dtt: 6 })).toThrow(FieldError);
    // @ts-expect-error there is no reader for a field that does not exist
    expect(() => FMA_META.field("f4")).toThrow(FieldError);
    // @ts-expect-error a flag takes a boolean, not a string
    expect(() => FMA_META.encode({ last: "yes" })).toThrow(FieldError);
  });

  it("the builders' cce_info is the CCE_INFO layout's own shape, not a twin", () => {
    const decoded = CCE_INFO.decode(CCE_INFO.encode({ num_sources: 2, num_dests: 1 }));
    const info: CceInfo = decoded;
    expect(info.num_sources).toBe(2);
    // @ts-expect-error the counts are the layout's names (numSources was the old twin's)
    const twin: CceInfo = { numSources: 2, numDests: 1 };
    expect(twin).toBeDefined();
    // @ts-expect-error a misspelt union field does not compile
    const misspelt: CceInfo = { num_sources: 1, num_dests: 1, "fma_info.scale_dtpe": 10 };
    expect(misspelt).toBeDefined();
  });

  it("the S3D3 word is the s3d3 layout's own shape, not a twin", () => {
    const word: S3d3Word = decodeS3d3(new Uint8Array(64));
    expectTypeOf(word.num_active_channels).toEqualTypeOf<number>();
    expectTypeOf(word["dst_mem_pattern.step_elem.2"]).toEqualTypeOf<number>();
    expectTypeOf(word.reserved1).toEqualTypeOf<bigint>();
    // @ts-expect-error numActiveChannels was the old twin's name
    expect(word.numActiveChannels).toBeUndefined();
    // @ts-expect-error TENSOR3D has three dimensions
    expect(word["src_mem_pattern.num_elem.3"]).toBeUndefined();
    // @ts-expect-error a misspelt field does not compile
    expect(() => encodeS3d3({ num_active_chanels: 1 })).toThrow(FieldError);
  });

  it("decode gives each field its type: number, boolean, bigint for wide fields", () => {
    const meta = FMA_META.decode(FMA_META.encode({ in_dt: 6, last: true }));
    expectTypeOf(meta.in_dt).toEqualTypeOf<number>();
    expectTypeOf(meta.last).toEqualTypeOf<boolean>();
    const tx = UDMA_TX.decode(UDMA_TX.encode({ "len_ctrl.length": 4, buf_ptr: 0x1000n }));
    expectTypeOf(tx.buf_ptr).toEqualTypeOf<bigint>();
    expectTypeOf(tx["len_ctrl.first"]).toEqualTypeOf<boolean>();
    expect(tx.buf_ptr).toBe(0x1000n);
    // @ts-expect-error decode has no field the declaration does not name
    expect(tx.buf1_ptr).toBeUndefined();
    const info = CCE_INFO.decode(CCE_INFO.encode({ num_sources: 2, "fma_info.scale.1": 0.5 }));
    // An array of literal length has exact element keys: scale.0 .. scale.31, and no scale.32.
    expectTypeOf(info["fma_info.scale.1"]).toEqualTypeOf<number>();
    expect(info["fma_info.scale.1"]).toBe(0.5);
    // @ts-expect-error fma_info.scale has 32 elements
    expect(info["fma_info.scale.32"]).toBeUndefined();
  });
});

describe("leaf, read and the front door's decode / encode are keyed by the shape", () => {
  it("refuses a misspelt name at compile time (and at run time)", () => {
    const bytes = FMA_META.encode({ in_dt: 6 });
    expectTypeOf(FMA_META.read("in_dt", bytes)).toEqualTypeOf<number>();
    expectTypeOf(FMA_META.read("last", bytes)).toEqualTypeOf<boolean>();
    expect(FMA_META.read("in_dt", bytes)).toBe(6);
    // @ts-expect-error in_dtt is not a field of fma-meta
    expect(() => FMA_META.read("in_dtt", bytes)).toThrow(FieldError);
    // @ts-expect-error there is no leaf for a field that does not exist
    expect(() => FMA_META.leaf("f4")).toThrow(FieldError);
  });

  it("decode(layout) has the layout's shape, decode(name) plain fields", () => {
    const hex = "0000800000001002000000090000003f";
    const typed = decode(FMA_DESC, hex);
    expectTypeOf(typed.scale).toEqualTypeOf<number>();
    expect(typed.scale).toBe(0.5);
    // @ts-expect-error scal is not a field of fma-desc
    expect(typed.scal).toBeUndefined();
    expect(decode("fma-desc", hex).scale).toBe(0.5);
    // @ts-expect-error a_sell is not a field of fma-desc
    expect(() => encode(FMA_DESC, { a_sell: 1 })).toThrow(FieldError);
    expect(() => encode("fma-desc", { a_sell: 1 })).toThrow(FieldError);
  });
});

describe("compiled field readers", () => {
  it("read every in-word field of every layout as decode does", () => {
    for (const layout of LAYOUTS) {
      // Padded to whole words: a few layouts are not a multiple of 4 bytes long.
      const bytes = new Uint8Array(Math.ceil(layout.bytes / 4) * 4).map((_, i) => (i * 37 + 11) & 0xff);
      const words = new DataView(bytes.buffer);
      for (const leaf of layout.leaves) {
        const r = layout.field(leaf.path);
        expect(r.read(bytes)).toEqual(layout.read(leaf.path, bytes));
        if ((leaf.bit & 31) + leaf.width > 32) continue;
        const raw = r.ofWord(words.getUint32(r.word * 4, true));
        const decoded = layout.read(leaf.path, bytes);
        if (leaf.kind === "uint" || leaf.kind === "enum") expect(raw).toBe(decoded);
        if (leaf.kind === "bool") expect(r.isSet(words.getUint32(r.word * 4, true))).toBe(decoded);
      }
    }
  });
  it("a reader refuses what its field cannot give: a word of a two-word field, a flag of a wide one", () => {
    expect(() => UDMA_TX.field("buf_ptr").ofWord(0)).toThrow(/spans two words/);
    expect(() => FMA_META.field("in_dt").isSet(0)).toThrow(/4 bits wide/);
  });
  it("matches() holds exactly when every constant leaf outside a union holds its value", () => {
    expect(FMA_DESC.matches(FMA_DESC.encode({ scale: 1 }))).toBe(true);
    expect(FMA_DESC.matches(new Uint8Array(16))).toBe(false);
    expect(FMA_DESC.matches(new Uint8Array(4))).toBe(false);
  });
});
