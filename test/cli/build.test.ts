/** `sdmakit build`, in-process with a capturing io. */
import { describe, expect, it } from "vitest";
import { FieldError, UsageError } from "../../src/bits/index.js";
import { buildCommand } from "../../src/cli/index.js";

function run(...args: string[]): { code: number; out: string; err: string } {
  let out = "";
  let err = "";
  const io = {
    out(t: string) {
      out += t;
    },
    err(t: string) {
      err += t;
    },
  };
  const code = buildCommand.run(args, io) as number;
  return { code, out, err };
}

const ADD3 = JSON.stringify({
  arch: "trn2",
  op: "add",
  sources: [4096, "0x2000", "0x3000"],
  dests: ["0x100000"],
  size: 64,
  inDtype: "bf16",
});

describe("sdmakit build", () => {
  it("prints one line per descriptor in ring order (seed 000 §9.1)", () => {
    const { code, out } = run(ADD3);
    expect(code).toBe(0);
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^tx\[0\] 4000000500600a020010000000000000 udma-tx .*meta_ctrl=0x020a6000 \(add-meta: out_dt=bf16 accum_dt=fp32\)$/,
    );
    expect(lines[2]).toMatch(/^tx\[2\] 4000000980600a02.*\(add-meta: last out_dt=bf16 accum_dt=fp32\)$/);
    // S2M: has_meta and ring id 1, no FIRST / LAST (aws-neuron-driver udma.h gives S2M none).
    expect(lines[3]).toMatch(/^rx\[0\] 40008001/);
  });
  it("--json gives {descriptors: [{ring, hex, layout, fields}]}", () => {
    const { code, out } = run(ADD3, "--json");
    expect(code).toBe(0);
    const j = JSON.parse(out) as {
      descriptors: { ring: string; hex: string; layout: string; fields: Record<string, unknown> }[];
    };
    expect(j.descriptors.map((d) => d.ring)).toEqual(["tx", "tx", "tx", "rx"]);
    expect(j.descriptors[1]).toMatchObject({
      layout: "udma-tx",
      hex: "4000000100600a020020000000000000",
      fields: { buf_ptr: "8192" },
    });
  });
  it("FMA with scales: W3 = 0x3F000000 (seed 000 §9.2)", () => {
    const { out } = run(
      JSON.stringify({
        op: "fma",
        sources: [4096, 8192],
        dests: [65536],
        size: 64,
        inDtype: "fp32",
        scales: [0.5, 0.5],
      }),
    );
    expect(
      out
        .split("\n")
        .filter((l) => l.includes("fma-desc"))
        .map((l) => l.split(" ")[1]!.slice(24)),
    ).toEqual(["0000003f", "0000003f"]);
  });
  it("a refused request exits 1 with the libnrt message", () => {
    const fma = run(
      JSON.stringify({ op: "fma", sources: [4096], dests: [65536], size: 64, inDtype: "fp32" }),
    );
    expect([fma.code, fma.err]).toEqual([
      1,
      "refused: tdrv/vring.c:0x3B8: vring_add_dma_packet_cce_int: Assertion `cce_info != NULL' failed.\n",
    ]);
    const rep = run(
      JSON.stringify({ arch: "trn1", op: "add", sources: [4096], dests: [1, 2], size: 64, inDtype: "fp32" }),
    );
    expect([rep.code, rep.err]).toEqual([
      1,
      "refused: -EINVAL: CCE replication not supported for v1/v2 archs\n",
    ]);
    const mm = run(
      JSON.stringify({
        op: "max",
        sources: [4096],
        dests: [65536],
        size: 64,
        inDtype: "fp32",
        constant: 1,
        constantDtype: "bf16",
      }),
      "--json",
    );
    expect([mm.code, JSON.parse(mm.out)]).toEqual([
      1,
      { refused: "-EINVAL: Unsupported data type for min/max op bf16" },
    ]);
    const pc = run(
      JSON.stringify({
        op: "add",
        sources: [4096],
        dests: [65536],
        size: 64,
        inDtype: "fp32",
        priorityClass: 5,
      }),
    );
    expect(pc.code).toBe(1);
    expect(pc.err).toMatch(/0x1202: encd_get_cce_reduce_packet_size/);
    const tr = run(
      JSON.stringify({ op: "transpose", sources: [4096], dests: [65536], size: 64, inDtype: "fp32" }),
    );
    expect(tr.err).toMatch(/helper\.c:0x1C0.*Unsupported CCE Op! 5/);
  });
  it("priority class 4 reports the reduce packet size", () => {
    const { code, out } = run(
      JSON.stringify({
        op: "add",
        sources: [4096],
        dests: [65536],
        size: 100,
        inDtype: "fp32",
        priorityClass: 4,
      }),
    );
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toBe("# encd_get_cce_reduce_packet_size: 96 bytes (priority class 4)");
  });
  it("plain copy of 64 KiB: one TX and one RX, length written as 0", () => {
    const { out } = run(JSON.stringify({ op: "copy", sources: ["0x1000"], dests: ["0x20000"], size: 65536 }));
    expect(
      out
        .trim()
        .split("\n")
        .map((l) => l.split(" ")[1]!.slice(0, 8)),
    ).toEqual(["0000000d", "00000001"]); // TX FIRST | LAST | ring 1; RX ring 1 only (no S2M FIRST / LAST)
  });
  it("bad input throws typed errors (exit 2)", () => {
    expect(() => run("{")).toThrow(UsageError);
    expect(() => run()).toThrow(UsageError);
    expect(() => run(ADD3, "--hex")).toThrow(UsageError);
    expect(() => run(JSON.stringify({ op: "add", foo: 1 }))).toThrow(/unknown key "foo"/);
    expect(() => run(JSON.stringify({ op: "nope" }))).toThrow(UsageError);
    expect(() =>
      run(JSON.stringify({ op: "add", sources: ["zz"], dests: [1], size: 4, inDtype: "fp32" })),
    ).toThrow(FieldError);
    expect(() =>
      run(JSON.stringify({ op: "add", sources: [1], dests: [1], size: 4, inDtype: "fp33" })),
    ).toThrow(UsageError);
    expect(() =>
      run(JSON.stringify({ op: "add", sources: Array(33).fill(1), dests: [1], size: 4, inDtype: "fp32" })),
    ).toThrow(FieldError);
  });
});
