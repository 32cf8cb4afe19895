import { describe, expect, it } from "vitest";
import { DecodeError, FieldError, toHex, UsageError } from "../../src/bits/index.js";
import { runCommand } from "../../src/cli/index.js";
import { encodeS3d3, type S3d3Word } from "../../src/isa/index.js";
import { runInProcess } from "../helpers/cli.js";
import { tensor, VALID_WORD, withPattern } from "../isa/s3d3-fixtures.js";

/** The fixture's events (wait sem 3 ≥ 1, inc sem 4) and LNC2; 4 × 2 fp32 elements, partition 0 + 0x1000 of core 0 → partition 1 + 0x200 of core 1, reversed, 2 channels. */
const WORD: S3d3Word = withPattern(
  withPattern(
    { ...VALID_WORD, in_dtype: 10, out_dtype: 10, num_active_channels: 2 },
    "src_mem_pattern",
    tensor(0x1000, [1, 4, 0], [4, 2, 1]),
  ),
  "dst_mem_pattern",
  tensor(0x40200, [-1, -4, 0], [4, 2, 1]),
);
const hex = (w: Partial<S3d3Word> = {}) => toHex(encodeS3d3({ ...WORD, ...w }));
const run = (...args: string[]) => runInProcess(runCommand, ["s3d3", ...args]);

/** The --fill seq bytes of element n (fp32) of channel ch: source (offset + ch) & 0xff, destination + 0x80. */
function seqElement(byteOffset: number, ch: number, dst: boolean): Uint8Array {
  return Uint8Array.from({ length: 4 }, (_, i) => (byteOffset + i + ch + (dst ? 0x80 : 0)) & 0xff);
}
const f32 = (b: Uint8Array) => new DataView(b.buffer).getFloat32(0, true);

describe("sdmakit run s3d3", () => {
  it("copies each channel's strided source into the partner core's reversed destination", async () => {
    const r = await run("--sem", "3=1", hex());
    expect(r.status).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("s3d3 on trn2 core 0 → core 1 (LNC2 partner), 2 channel(s), fp32, copy");
    expect(lines[1]).toBe(
      "  ch0  copy  0x2000001000 → 0x3000040200  32 bytes  8 run(s), 8 packet(s) on engine 0 queue 0",
    );
    expect(lines[2]).toContain("ch1  copy  0x2000041000 → 0x3000080200  32 bytes");
    for (const ch of [0, 1]) {
      // In pattern order, the destination holds the source elements: offset 0x1000 + 4n.
      const expected = Array.from({ length: 8 }, (_, n) => toHex(seqElement(0x1000 + 4 * n, ch, false))).join(
        "",
      );
      expect(lines[3 + ch]).toBe(`  dst ch${ch}: ${expected}`);
    }
    expect(lines[5]).toBe("  signal: semaphore 4 of core 1 increment 1 → 1");
  });

  it("--reduce add: dst = src + dst element by element (fp32), in JSON", async () => {
    const r = await run("--sem", "3=1", "--reduce", "add", "--json", "--core", "3", hex());
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(
      out.legs.map((l: { kind: string; op: string; srcCore: number; dstCore: number }) => [
        l.kind,
        l.op,
        l.srcCore,
        l.dstCore,
      ]),
    ).toEqual([
      ["reduce-copy", "add", 3, 2],
      ["reduce-copy", "add", 3, 2],
    ]);
    for (const ch of [0, 1]) {
      const expected = Array.from({ length: 8 }, (_, n) => {
        const dstOffset = 0x200 - 4 * n; // dst steps -1 element, rows -4 elements
        const sum = Math.fround(
          f32(seqElement(0x1000 + 4 * n, ch, false)) + f32(seqElement(dstOffset, ch, true)),
        );
        return toHex(new Uint8Array(Float32Array.of(sum).buffer));
      }).join("");
      expect(out.legs[ch].destination).toBe(expected);
    }
    expect(out.signal).toEqual({ core: 2, index: 4, window: "increment", value: 1 });
  });

  it("--fill random is deterministic per seed", async () => {
    const a = await run("--sem", "3=1", "--fill", "random", "--seed", "9", hex());
    const b = await run("--sem", "3=1", "--fill", "random", "--seed", "9", hex());
    const c = await run("--sem", "3=1", "--fill", "random", "--seed", "10", hex());
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
  });

  it("a wait that does not hold on fresh memory: exit 1, nothing issued", async () => {
    const r = await run(hex());
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("not issued: waits on semaphore 3 of core 0 ge 1; it is 0");
  });

  it("an invalid word: exit 1 with every reason; --json gives them too", async () => {
    const bad = hex({ num_active_channels: 0, lnc_size_fmt: 2 });
    const r = await run(bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("lnc-size-fmt-unsupported");
    expect(r.stdout).toContain("active-channels-range");
    const j = await run("--json", bad);
    expect(JSON.parse(j.stdout).reasons.map((x: { code: string }) => x.code)).toEqual([
      "lnc-size-fmt-unsupported",
      "active-channels-range",
    ]);
  });

  it("SUNDA has no SB2SB; multi-node is -EINVAL: exit 1", async () => {
    const t1 = await run("--arch", "trn1", hex());
    expect(t1.status).toBe(1);
    expect(t1.stdout).toContain("arch-no-sb2sb");
    const mn = await run("--nodes", "2", hex());
    expect(mn.status).toBe(1);
    expect(mn.stderr).toBe("s3d3: refused (-EINVAL): We do not support a SB2SB for multi-node workloads\n");
  });

  it("bad input throws typed errors (exit 2)", async () => {
    await expect(runInProcess(runCommand, ["s3d4", hex()])).rejects.toThrow(UsageError);
    await expect(run("bf10")).rejects.toThrow(DecodeError);
    await expect(run("--fill", "zeros", hex())).rejects.toThrow(FieldError);
    await expect(run("--seed", "3", hex())).rejects.toThrow(UsageError);
    await expect(run("--core", "8", hex())).rejects.toThrow(FieldError);
    await expect(run("--reduce", "fma", hex())).rejects.toThrow(FieldError);
  });
});
