/**
 * The explorer's layout guess against the builders (issue 26): every descriptor `sdmakit build`
 * writes — each op, each dtype, each arch, with and without SR, one to three sources and
 * destinations — and every meta-control word it carries is guessed as its own layout. RX
 * descriptors are guessed from what the builders put in W1, not from FIRST / LAST.
 */
import { describe, expect, it } from "vitest";
import {
  describeWritten,
  parseBuildRequest,
  runBuildRequest,
  type WrittenDescriptor,
  wordBytes,
} from "../../src/runtime/index.js";
import { DTYPE_NAMES, UDMA_TX } from "../../src/spec/index.js";

const LEN_CTRL_FIRST = 2 ** UDMA_TX.leaf("len_ctrl.first").bit;
const LEN_CTRL_LAST = 2 ** UDMA_TX.leaf("len_ctrl.last").bit;

import { guessLayouts } from "../../web/src/layout-guess.js";
import { guessRing, slotLine } from "../../web/src/ring-guess.js";

const DTYPES = DTYPE_NAMES.filter((n) => n !== "invalid");
const addrs = (base: number, n: number) =>
  Array.from({ length: n }, (_, i) => `0x${(base + i * 0x1000).toString(16)}`);

/** Every request shape the form can send that libnrt accepts, with what it wrote. */
function everyBuild(): { request: string; written: WrittenDescriptor[] }[] {
  const out: { request: string; written: WrittenDescriptor[] }[] = [];
  for (const arch of ["trn1", "trn2", "trn3"])
    for (const op of ["copy", "add", "fma", "min", "max"])
      for (const inDtype of op === "copy" ? [undefined] : DTYPES)
        for (const [sources, dests] of op === "copy"
          ? [[1, 1]]
          : [
              [1, 1],
              [2, 2],
              [3, 3],
            ])
          for (const sr of [false, true]) {
            const req: Record<string, unknown> = {
              arch,
              op,
              sources: addrs(0x1000, sources as number),
              dests: addrs(0x90000, dests as number),
              size: 4096,
              sr,
              ...(inDtype === undefined ? {} : { inDtype }),
              ...(op === "fma" ? { scales: Array.from({ length: sources as number }, () => 0.5) } : {}),
              ...(op === "min" || op === "max" ? { constant: 1 } : {}),
            };
            const request = JSON.stringify(req);
            let result: ReturnType<typeof runBuildRequest>;
            try {
              result = runBuildRequest(parseBuildRequest(request));
            } catch {
              continue; // libnrt refuses this one (an assert): nothing is written
            }
            if ("status" in result) continue;
            out.push({ request, written: result.written });
            // The descriptors' bytes are copies: give the ring's arena to the next build, not to
            // the collector (a new WebAssembly memory a build cost most of this file's time).
            result.vring.memory.release();
          }
  return out;
}

/** Computed once for both describes below. */
const BUILDS = everyBuild();

describe("guessLayouts on what the builders write", () => {
  const builds = BUILDS;
  const all = builds.flatMap((b) => b.written.map((w) => ({ request: b.request, w })));

  it("covers every op, both rings and every descriptor kind", () => {
    const ops = new Set(builds.map((b) => JSON.parse(b.request).op));
    expect([...ops].sort()).toEqual(["add", "copy", "fma", "max", "min"]);
    const kinds = new Set(all.map(({ w }) => `${w.ring} ${w.spec.layout.name}`));
    for (const k of [
      "tx udma-tx",
      "rx udma-rx",
      "tx seed-init-desc",
      "tx fma-desc",
      "tx min-max-desc",
      "tx replication-desc",
    ])
      expect(kinds).toContain(k);
    expect(all.length).toBeGreaterThan(2500);
  });

  it("guesses each descriptor as its own layout", () => {
    const wrong = all
      .filter(({ w }) => guessLayouts(w.bytes)[0] !== w.spec.layout)
      .map(({ request, w }) => `${request} ${w.ring}[${w.slot}] ${w.spec.layout.name}`);
    expect(wrong).toEqual([]);
  });

  it("guesses each RX descriptor, copy and CCE, as udma-rx with FIRST / LAST set or cleared", () => {
    const rx = all.filter(({ w }) => w.ring === "rx");
    const ops = new Set(rx.map(({ request }) => JSON.parse(request).op));
    expect([...ops].sort()).toEqual(["add", "copy", "fma", "max", "min"]);
    const wrong: string[] = [];
    for (const { request, w } of rx)
      for (const bits of [0, LEN_CTRL_FIRST, LEN_CTRL_LAST, LEN_CTRL_FIRST | LEN_CTRL_LAST]) {
        const b = w.bytes.slice();
        const view = new DataView(b.buffer);
        const w0 = view.getUint32(0, true) & ~(LEN_CTRL_FIRST | LEN_CTRL_LAST);
        view.setUint32(0, (w0 | bits) >>> 0, true);
        const guess = guessLayouts(b)[0]?.name;
        if (guess !== "udma-rx") wrong.push(`${request} rx[${w.slot}] bits ${bits.toString(16)}: ${guess}`);
      }
    expect(wrong).toEqual([]);
  });

  it("guesses each meta-control word as its own layout", () => {
    const metas = all.flatMap(({ w }) => {
      const d = describeWritten(w);
      return d.meta === undefined ? [] : [d.meta];
    });
    expect(metas.length).toBeGreaterThan(1000);
    const wrong = metas.filter((m) => guessLayouts(wordBytes(Number(m.word)))[0]?.name !== m.layout);
    expect(wrong).toEqual([]);
  });
});

describe("guessRing on what the builders write", () => {
  const builds = BUILDS;

  it("reads each ring the builders fill, in order, each descriptor as its own layout, in packets", () => {
    let rings = 0;
    for (const b of builds)
      for (const ring of ["tx", "rx"] as const) {
        const written = b.written.filter((w) => w.ring === ring);
        if (written.length < 2) continue;
        rings++;
        const bytes = new Uint8Array(written.length * 16);
        for (const [i, w] of written.entries()) bytes.set(w.bytes, i * 16);
        const slots = guessRing(bytes);
        expect(slots.map((s) => s.layout?.name)).toEqual(written.map((w) => w.spec.layout.name));
        expect(slots.every((s) => s.clean)).toBe(true);
        expect(slots[0]?.first).toBe(true);
        expect(slots.at(-1)?.last).toBe(true);
        expect(slots.every((s) => s.packet === 0)).toBe(true);
      }
    expect(rings).toBeGreaterThan(500);
  });

  it("reads a pasted 4-source ADD TX ring (64 B, an S3D3 word's length) as one packet of four", () => {
    const result = runBuildRequest(
      parseBuildRequest(
        JSON.stringify({
          arch: "trn2",
          op: "add",
          sources: addrs(0x1000, 4),
          dests: ["0x8000"],
          size: 4096,
          inDtype: "bf16",
        }),
      ),
    );
    if ("status" in result) throw new Error("refused");
    const tx = result.written.filter((w) => w.ring === "tx");
    const bytes = new Uint8Array(64);
    for (const [i, w] of tx.entries()) bytes.set(w.bytes, i * 16);
    expect(guessRing(bytes).map(slotLine)).toEqual([
      "#0 +0x0 udma-tx (source) · packet 0 starts",
      "#1 +0x10 udma-tx (source) · packet 0",
      "#2 +0x20 udma-tx (source) · packet 0",
      "#3 +0x30 udma-tx (source) · packet 0 ends",
    ]);
  });
});
