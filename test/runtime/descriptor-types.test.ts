/**
 * Type test (checked by `npm run typecheck`, which covers test/): a producer's descriptor literal is
 * typed by its layout through `descriptor(layout, fields)`, so a misspelt field, another layout's
 * field, a position field the ring writer stamps or a wrong value type does not compile. Each
 * `@ts-expect-error` fails the typecheck if the line below it ever compiles.
 */
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import { buildCopyPacket, chain, descriptor, encodeDescriptor } from "../../src/runtime/index.js";
import { FMA_DESC, UDMA_RX, UDMA_TX } from "../../src/spec/index.js";

describe("descriptor(layout, fields): the fields are the layout's input type", () => {
  it("refuses a misspelt field, a field of another layout, a position field, a wrong type", () => {
    // @ts-expect-error lenght is misspelt
    const typo = descriptor(UDMA_TX, { "len_ctrl.lenght": 64 });
    // @ts-expect-error buf1_ptr is udma-rx's, not udma-tx's (buf_ptr)
    const other = descriptor(UDMA_TX, { buf1_ptr: 0x2000n });
    // @ts-expect-error the ring writer stamps ring_id; a producer never gives it
    const position = descriptor(UDMA_RX, { "len_ctrl.ring_id": 1 });
    // @ts-expect-error a pointer is a number or bigint, not a string
    const text = descriptor(UDMA_RX, { buf1_ptr: "0x2000" });
    // @ts-expect-error a_sell is not a field of fma-desc
    const fma = descriptor(FMA_DESC, { a_sell: 1 });
    // Run time refuses the unknown fields too; a hex string is taken there (JSON input), not in code.
    expect(text.fields).toEqual({ buf1_ptr: "0x2000" });
    for (const d of [typo, other, fma])
      expect(() => encodeDescriptor({ ...chain("rx", [d])[0]!, ring: "rx" }, 1)).toThrow(FieldError);
    expect(position.fields).toEqual({ "len_ctrl.ring_id": 1 });
  });

  it("descriptor() is the only way in: a hand-made literal does not compile as a chain item", () => {
    // @ts-expect-error a literal item would carry untyped fields (this misspelling) onto a ring
    const specs = chain("tx", [{ layout: UDMA_TX, fields: { "len_ctrl.lenght": 64 } }]);
    expect(() => encodeDescriptor(specs[0]!, 1)).toThrow(FieldError);
  });

  it("a well-typed descriptor encodes the same bytes the copy builder writes", () => {
    const [rx] = buildCopyPacket({ src: 0x1000n, dst: 0x2000n, size: 64 }).rx;
    const mine = chain("rx", [descriptor(UDMA_RX, { "len_ctrl.length": 64, buf1_ptr: 0x2000n })])[0]!;
    expect(encodeDescriptor(mine, 1)).toEqual(encodeDescriptor(rx!, 1));
  });
});
