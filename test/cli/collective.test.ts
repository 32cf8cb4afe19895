import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import {
  allgCommand,
  allrCommand,
  createProgress,
  redsctCommand,
  sendrecvCommand,
} from "../../src/cli/index.js";

/** The JSON Lines of --json: config, rows, summary. */
function jsonl(out: string[]) {
  const records = out
    .join("")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return {
    config: records.find((r) => r.record === "config"),
    rows: records.filter((r) => r.record === "row"),
    summary: records.find((r) => r.record === "summary"),
  };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe("sdmakit allr|allg|redsct|sendrecv", () => {
  it("prints the nccom-test table, 0 wrong, exit 0", async () => {
    const c = capture();
    const code = await allrCommand.run(["-r", "4", "-b", "1kb", "-e", "64kb", "-f", "4"], c.io);
    expect(code).toBe(0);
    const text = c.out.join("");
    expect(text).toMatch(
      /size\(B\)\s+count\(elems\)\s+type\s+time:avg\(us\)\s+algbw\(GB\/s\)\s+busbw\(GB\/s\)\s+algorithm\s+#wrong/,
    );
    expect(
      text.match(/^\s+\d+\s+\d+\s+bf16\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(ring|kangaring|mesh|rdh)\s+0$/gm)
        ?.length,
    ).toBe(4);
    expect(text).toMatch(/Avg bus bandwidth:/);
  });
  it("--json rows carry the documented fields", async () => {
    const commands = {
      allr: allrCommand,
      allg: allgCommand,
      redsct: redsctCommand,
      sendrecv: sendrecvCommand,
    };
    for (const [name, cmd] of Object.entries(commands)) {
      const c = capture();
      const code = await cmd.run(
        ["-r", "3", "-b", "96", "-e", "192", "-d", "fp16", "-o", "max", "--json"],
        c.io,
      );
      expect(code).toBe(0);
      const j = jsonl(c.out);
      expect(j.rows).toHaveLength(2);
      for (const k of ["size(B)", "count(elems)", "type", "time:avg(us)", "algbw(GB/s)", "busbw(GB/s)"])
        expect(j.rows[0]).toHaveProperty(k);
      for (const k of ["algorithm", "check", "#wrong", "maxAbsErr", "guardErrors"])
        expect(j.rows[0]).toHaveProperty(k);
      expect(j.rows[0]["#wrong"]).toBe(0);
      expect(j.config).toMatchObject({ operation: name, nworkers: 3, datatype: "fp16", op: "max" });
      expect(typeof j.summary["Avg bus bandwidth(GB/s)"]).toBe("number");
    }
  });
  it("reference checking with SR, timing-only, -i steps, and a Perfetto trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdmakit-"));
    const trace = join(dir, "t.json");
    const c = capture();
    const code = await allrCommand.run(
      [
        "-r",
        "8",
        "-b",
        "4kb",
        "-e",
        "12kb",
        "-i",
        "4kb",
        "--check-mode",
        "reference",
        "--sr",
        "--seed",
        "9",
        "--algo",
        "kangaring",
        "--trace",
        trace,
      ],
      c.io,
    );
    expect(code).toBe(0);
    expect(c.out.join("")).toMatch(/check=reference sr seed=9/);
    const t = JSON.parse(readFileSync(trace, "utf8"));
    const phases = new Set(t.traceEvents.map((e: { ph: string }) => e.ph));
    expect([...phases].sort()).toEqual(["M", "X", "f", "s"]);
    const timing = capture();
    expect(
      await allrCommand.run(["-r", "64", "-N", "2", "-e", "64mb", "-b", "64mb", "--timing-only"], timing.io),
    ).toBe(0);
    expect(timing.out.join("")).toMatch(/N\/A/);
  });
  it("--sb2sb: LNC2 pair legs as SB2SB, checked, timed alike with --timing-only; off where it cannot be", async () => {
    const args = ["-r", "8", "--lnc", "1", "-b", "64kb", "-e", "64kb", "--algo", "ring", "--sb2sb"];
    const c = capture();
    expect(await allrCommand.run(args, c.io)).toBe(0);
    const text = c.out.join("");
    const m = text.match(/sb2sb=(\d+)\/(\d+) legs/);
    expect(Number(m?.[1])).toBeGreaterThan(0);
    expect(Number(m?.[1])).toBeLessThan(Number(m?.[2]));
    expect(text).toMatch(/^\s+65536\s+32768\s+bf16\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+ring\s+0$/m);
    const timeOf = (out: string[]) => jsonl(out).rows[0]["time:avg(us)"];
    const full = capture();
    const timing = capture();
    expect(await allrCommand.run([...args, "--json"], full.io)).toBe(0);
    expect(await allrCommand.run([...args, "--json", "--timing-only"], timing.io)).toBe(0);
    expect(timeOf(timing.out)).toBe(timeOf(full.out));
    const plain = capture();
    expect(
      await allrCommand.run(
        ["-r", "8", "--lnc", "1", "-b", "64kb", "-e", "64kb", "--algo", "ring", "--json"],
        plain.io,
      ),
    ).toBe(0);
    expect(timeOf(full.out)).toBeGreaterThan(timeOf(plain.out));
    const trn1 = capture();
    expect(await allrCommand.run([...args, "--arch", "trn1"], trn1.io)).toBe(0);
    expect(trn1.out.join("")).toMatch(/sb2sb=off \(trn1 has no SB2SB\)/);
    const nodes = capture();
    expect(await allrCommand.run([...args, "-N", "2"], nodes.io)).toBe(0);
    expect(nodes.out.join("")).toMatch(/sb2sb=off \(no SB2SB for multi-node workloads\)/);
    const lnc2 = capture();
    expect(await allrCommand.run([...args, "--lnc", "2"], lnc2.io)).toBe(0);
    expect(lnc2.out.join("")).toMatch(/sb2sb=off \(needs --lnc 1/);
  });
  it("--lnc: a rank is a logical core (default 2 on trn2, 1 on trn1), printed in the header, checked on every collective", async () => {
    for (const cmd of [allrCommand, allgCommand, redsctCommand, sendrecvCommand]) {
      for (const lnc of ["1", "2"]) {
        const c = capture();
        expect(await cmd.run(["-r", "4", "--lnc", lnc, "-b", "256kb", "-e", "256kb"], c.io)).toBe(0);
        expect(c.out.join("")).toMatch(new RegExp(`lnc=${lnc} `));
        expect(c.out.join("")).toMatch(/\s0\n/);
      }
    }
    const dflt = capture();
    expect(await allrCommand.run(["-r", "2", "-b", "1kb", "-e", "1kb"], dflt.io)).toBe(0);
    expect(dflt.out.join("")).toMatch(/arch=trn2 lnc=2 /);
    const trn1 = capture();
    expect(await allrCommand.run(["-r", "2", "--arch", "trn1", "-b", "1kb", "-e", "1kb"], trn1.io)).toBe(0);
    expect(trn1.out.join("")).toMatch(/arch=trn1 lnc=1 /);
    await expect(allrCommand.run(["--arch", "trn1", "--lnc", "2"], trn1.io)).rejects.toThrow(
      /lnc 2: trn1 allows 1/,
    );
    await expect(allrCommand.run(["--lnc", "4"], trn1.io)).rejects.toThrow(/--lnc/);
  });
  it("bad usage throws typed errors", async () => {
    const c = capture();
    await expect(allrCommand.run(["-r", "3", "-N", "2"], c.io)).rejects.toThrow(UsageError);
    await expect(allrCommand.run(["-d", "fp32r"], c.io)).rejects.toThrow(/fp32r/);
    await expect(allrCommand.run(["-e", "lots"], c.io)).rejects.toThrow(/-e/);
    await expect(allrCommand.run(["-f", "2", "-i", "8"], c.io)).rejects.toThrow(/-f and -i/);
    await expect(allrCommand.run(["--algo", "tree"], c.io)).rejects.toThrow(/ring/);
  });
});

describe("progress line", () => {
  it("stays quiet for the first second and when off, then draws with elapsed and estimate, and erases", () => {
    let now = 0;
    const c = capture();
    const p = createProgress(c.io, "tty", () => now);
    p.settled(0);
    p.update(0.5, "x");
    expect(c.err).toHaveLength(0);
    now = 1500;
    p.update(0.5, "x");
    expect(c.err.join("")).toMatch(/\[#{15}-{15}\]\s+50% 2s ~2s left x/);
    p.done();
    const log = capture();
    const l = createProgress(log.io, "log", () => now);
    l.settled(0);
    now += 6000;
    l.update(0.25, "y");
    l.update(0.3, "y");
    expect(log.err).toEqual(["progress:  25% 6s ~18s left y\n"]);
    const quiet = capture();
    const q = createProgress(quiet.io, "off", () => now);
    now = 5000;
    q.update(1, "y");
    expect(quiet.err).toHaveLength(0);
  });

  it("estimates from the pace after the warm-up, and gives none before it ends", () => {
    let now = 0;
    const c = capture();
    const p = createProgress(c.io, "tty", () => now);
    now = 10_000; // the first size: 1% of the work in 10 s, most of it one-time costs
    p.update(0.01, "first");
    expect(c.err.join("")).not.toMatch(/left/);
    p.settled(0.01);
    now = 11_000; // the next 10% in 1 s
    p.update(0.11, "next");
    // 89% left at 10% a second: ~9 s (the whole-run average would say ~89 s).
    expect(c.err.join("")).toMatch(/11% 11s ~9s left next/);
  });
});
