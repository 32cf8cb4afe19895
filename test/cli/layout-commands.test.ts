// The layout commands end to end, against the built CLI; the refusals (exit 2 and the message, both
// main's) through the CLI's entry in-process: a process costs ≈ 0.13 s of CPU, a refusal far less.
import { describe, expect, it } from "vitest";
import { LAYOUTS } from "../../src/spec/index.js";
import { sdmakit, sdmakitHere } from "../helpers/cli.js";

describe("sdmakit layouts", () => {
  it("lists every layout; --json gives names and sizes", () => {
    const r = sdmakit("layouts", "--json");
    expect(r.status).toBe(0);
    const list = JSON.parse(r.stdout) as { name: string; bytes: number }[];
    expect(list.map((l) => l.name)).toEqual(LAYOUTS.map((l) => l.name));
    for (const name of [
      "fma-meta",
      "min-max-meta",
      "add-meta",
      "gce-meta",
      "ext-meta",
      "transpose-meta",
      "replication-meta",
      "fma-desc",
      "min-max-desc",
      "seed-init-desc",
      "replication-desc",
      "transpose-desc",
      "gradient-desc",
      "udma-tx",
      "udma-tx-meta",
      "udma-rx",
      "cce-info",
      "s3d3",
      "tensor3d",
      "header",
      "events",
      "addr4",
      "pseudo-addr8-tensor2d",
      "embedded-sem",
    ]) {
      expect(list.map((l) => l.name)).toContain(name);
    }
  });
});

describe("sdmakit describe", () => {
  it("--json gives absolute bits, dotted names, array indices and both union arms", () => {
    const r = sdmakit("describe", "cce-info", "--json");
    expect(r.status).toBe(0);
    const d = JSON.parse(r.stdout) as {
      name: string;
      bytes: number;
      fields: { name: string; bit: number; width: number; kind: string }[];
    };
    expect([d.name, d.bytes]).toEqual(["cce-info", 140]);
    const f = (n: string) => d.fields.find((x) => x.name === n);
    expect(f("fma_info.scale.31")).toMatchObject({ bit: 32 + 32 + 31 * 32, width: 32, kind: "f32" });
    expect(f("min_max_info.constant_dtype")).toMatchObject({ bit: 64, kind: "enum" });
    expect(f("num_dests")).toMatchObject({ bit: 1088, kind: "uint" });
  });
  it("prints a per-word diagram for people", () => {
    const r = sdmakit("describe", "fma-desc");
    expect(r.stdout).toContain("W2  [29:28 c_sel][27:26 b_sel][25:24 a_sel][23:0 sema]");
  });
  it("an unknown layout is a usage error (exit 2) naming the known ones", async () => {
    const r = await sdmakitHere("describe", "fma-dsc");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown layout "fma-dsc"');
    expect(r.stderr).toContain("fma-desc");
  });
});

describe("sdmakit encode / decode", () => {
  it("encodes the seed's FMA example as lowercase hex and decodes it back", () => {
    const enc = sdmakit("encode", "fma-desc", '{"a_sel":1,"b_sel":2,"c_sel":0,"scale":0.5}');
    expect(enc.status).toBe(0);
    expect(enc.stdout.trim()).toBe("000080000000100200000009" + "0000003f");
    const dec = sdmakit("decode", "fma-desc", enc.stdout.trim(), "--json");
    expect(dec.status).toBe(0);
    const j = JSON.parse(dec.stdout) as { layout: string; fields: Record<string, unknown>; words: string[] };
    expect(j.layout).toBe("fma-desc");
    expect(j.words).toEqual(["0x00800000", "0x02100000", "0x09000000", "0x3f000000"]);
    expect(j.fields).toMatchObject({ a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5, has_meta: 1 });
  });
  it("accepts nested objects; 64-bit values come back as decimal strings", () => {
    const enc = sdmakit(
      "encode",
      "udma-tx",
      '{"len_ctrl":{"length":4096,"first":true},"meta_ctrl":17301507,"buf_ptr":"140874927308800"}',
    );
    expect(enc.status).toBe(0);
    const j = JSON.parse(sdmakit("decode", "udma-tx", enc.stdout.trim(), "--json").stdout) as {
      fields: Record<string, unknown>;
    };
    expect(j.fields).toMatchObject({
      "len_ctrl.length": 4096,
      "len_ctrl.first": true,
      meta_ctrl: 0x01080003,
      buf_ptr: "140874927308800",
    });
  });
  it("reports reserved bits that are set instead of hiding them", () => {
    const hex = `${"00".repeat(14)}0100${"00".repeat(48)}`;
    const j = JSON.parse(sdmakit("decode", "s3d3", hex, "--json").stdout) as {
      issues: { kind: string; field: string }[];
    };
    expect(j.issues).toContainEqual(expect.objectContaining({ kind: "reserved", field: "reserved0" }));
  });
  it.each([
    [["encode", "fma-meta", '{"in_dt":16}'], "fma-meta(in_dt)"],
    [["encode", "fma-meta", '{"bogus":1}'], "fma-meta(bogus): unknown field"],
    [["encode", "fma-meta", '{"last":"yes"}'], "fma-meta(last)"],
    [["encode", "fma-meta", "{not json"], "fields: not JSON"],
    [["decode", "fma-meta", "0011"], "fma-meta is 4 bytes"],
    [["decode", "fma-meta", "zz112233"], "not hex"],
  ])("bad input %j exits 2 with a message naming the problem", async (args, message) => {
    const r = await sdmakitHere(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe("extra arguments", () => {
  it.each([
    ["layouts", "x"],
    ["describe", "fma-meta", "x"],
    ["encode", "fma-meta", "{}", "x"],
  ])("%s with an argument too many exits 2 naming it", async (...args) => {
    const r = await sdmakitHere(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unexpected argument "x"');
  });
});
