import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../../src/bits/index.js";
import { sdmakitHere } from "../helpers/cli.js";

describe("did you mean (bits/did-you-mean.ts)", () => {
  it("counts an adjacent transposition as one edit, case aside", () => {
    expect(editDistance("bf61", "bf16")).toBe(1);
    expect(editDistance("alr", "allr")).toBe(1);
    expect(editDistance("BF16", "bf16")).toBe(0);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
  it("suggests only what is a typo's reach away", () => {
    expect(closest("--minbyte", ["--minbytes", "--maxbytes"])).toBe("--minbytes");
    expect(closest("summ", ["sum", "max", "min", "avg"])).toBe("sum");
    expect(closest("zzz", ["sum", "max"])).toBeUndefined();
    expect(closest("sum", ["sum"])).toBeUndefined();
    expect(didYouMean("rign", ["ring", "mesh"])).toBe('; did you mean "ring"?');
  });
  it("the CLI offers it for commands, options, dtypes, op names, layouts and fields", async () => {
    const cases: [string[], string][] = [
      [["alr"], '"allr"'],
      [["allr", "--minbyte", "8"], '"--minbytes"'],
      [["allr", "-d", "bf61"], '"bf16"'],
      [["allr", "-o", "summ"], '"sum"'],
      [["alltoal"], '"alltoall"'],
      [["decode", "udma-txx", "00"], '"udma-tx"'],
      [["encode", "udma-tx", '{"lenght": 4}'], '"len_ctrl.length"'],
    ];
    for (const [args, name] of cases) {
      const r = await sdmakitHere(...args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(`did you mean ${name}?`);
    }
  });
});
