/**
 * The Run view at scale and with the CLI's guards, in Chromium (issue 26, points 1, 2 and 8): the
 * timeline draws what is in view at the pixels' detail and answers the keys; the lists are the
 * library's; a run the admission refuses is refused with its estimate and offered timing-only; Stop
 * ends the worker; 256 ranks timing-only stay usable (what is drawn is bounded by the pixels, one
 * redraw a key); a measured report is compared with the model row by row.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALGORITHMS,
  buildTopology,
  COLLECTIVES,
  collectiveRun,
  lncChoices,
  runSize,
} from "../../src/collectives/index.js";
import { archProfile, PROFILES } from "../../src/hal/index.js";
import { type Explorer, SHOTS, sharedExplorer } from "./browser.js";

const shared = sharedExplorer();
let x: Explorer;
let page: Page;

beforeAll(() => {
  x = shared.x;
  page = x.page;
});

const poll = <T>(read: () => Promise<T>, timeout = 30_000) => expect.poll(read, { timeout });
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const options = (name: string) =>
  page
    .locator(`#run select[name=${name}] option`)
    .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
const span = async () => {
  const [a, b] = ((await page.getAttribute("#timeline", "data-window")) ?? "").split(" ").map(Number);
  return (b as number) - (a as number);
};
const start = async () => Number(((await page.getAttribute("#timeline", "data-window")) ?? "").split(" ")[0]);

describe("Run view: scale, guards, hardware", () => {
  it("offers every collective, algorithm, arch, LNC and node count the library has", async () => {
    await x.open("view=run");
    expect(await options("collective")).toEqual([...COLLECTIVES]);
    expect(await options("algo")).toEqual(["auto", ...ALGORITHMS]);
    expect(await options("arch")).toEqual(PROFILES.map((p) => p.name));
    expect(await options("timing")).toEqual(["off", "on"]);
    for (const arch of ["trn1", "trn2"]) {
      await page.selectOption("#run select[name=arch]", arch);
      expect(await options("lnc")).toEqual(["auto", ...lncChoices(archProfile(arch)).map(String)]);
    }
    await page.fill("#run input[name=ranks]", "64");
    await page.dispatchEvent("#run input[name=ranks]", "change");
    await page.selectOption("#run select[name=lnc]", "2");
    const fits = [1, 2, 4, 8, 16, 32, 64].filter((n) => {
      try {
        buildTopology(archProfile("trn2"), 64, n, { lnc: 2 });
        return true;
      } catch {
        return false;
      }
    });
    expect(await options("nodes")).toEqual(fits.map(String));
  });

  it("refuses a run the host cannot hold with the admission's estimate, runs it timing-only, and Stop ends it", async () => {
    await x.open("view=run&r_ranks=64&r_min=64mb&r_max=64mb");
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status")).toMatch(/^refused: .*needs ≈ [\d.]+ GiB/);
    expect(await page.isVisible("#run-timing-only")).toBe(true);
    expect(await page.getAttribute("#run-table", "data-rows")).toBeNull();
    await shot("run-refused-r64-64m");
    await page.click("#run-timing-only");
    expect(await page.inputValue("#run select[name=timing]")).toBe("on");
    await poll(() => page.textContent("#run-status")).toMatch(/^running/);
    await page.click("#stop-button");
    expect(await page.textContent("#run-status")).toMatch(/^stopped \(the worker is ended/);
    expect(await page.isEnabled("#run-button")).toBe(true);
    expect(x.errors).toEqual([]);
  }, 60_000);

  it("draws a 64-rank timeline at the pixels' detail, and pans, zooms and selects from the keys", async () => {
    await x.open("view=run&r_ranks=64&r_min=4mb&r_max=4mb&r_timing=on");
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    await poll(() => page.getAttribute("#timeline", "data-rects")).not.toBeNull();
    const legend = (await page.textContent("#timeline-legend")) ?? "";
    const packets = Number(/(\d+) packets/.exec(legend)?.[1]);
    expect(packets).toBeGreaterThan(50_000);
    // Only the lanes in view are drawn, and at most a rectangle or so per pixel column of each.
    const lanes = Number(await page.getAttribute("#timeline", "data-lanes"));
    const width = (await page.locator("#timeline").boundingBox())?.width as number;
    expect(lanes).toBeLessThan(50);
    expect(Number(await page.getAttribute("#timeline", "data-rects"))).toBeLessThanOrEqual(lanes * width);
    await page.focus("#timeline");
    const whole = await span();
    await page.keyboard.press("w");
    await poll(span).toBeCloseTo(whole * 0.8, 6);
    const before = await start();
    await page.keyboard.press("d");
    await poll(start).toBeGreaterThan(before);
    await page.keyboard.press("0");
    await poll(span).toBeCloseTo(whole, 6);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("]");
    await poll(() => page.textContent("#timeline-details")).toMatch(/leg \d+ · step \d+ · packet \d+/);
    await page.keyboard.press("]");
    expect(await page.textContent("#timeline-details")).toMatch(/waits on \d+ leg/);
    await shot("run-timeline-r64");
    await page.keyboard.press("Escape");
    expect(await page.textContent("#timeline-details")).toBe("no slice selected");
    expect(x.errors).toEqual([]);
  }, 120_000);

  it("keeps a 256-rank timing-only timeline usable: drawn by what is in view, one redraw a key", async () => {
    await x.open("view=run&r_ranks=256&r_min=4mb&r_max=4mb&r_timing=on");
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 300_000).toBe("done");
    await poll(() => page.getAttribute("#timeline", "data-frames")).not.toBeNull();
    expect(await page.textContent("#trace-head")).toMatch(/model built in the worker/);
    const legend = (await page.textContent("#timeline-legend")) ?? "";
    expect(Number(/(\d+) queues/.exec(legend)?.[1])).toBe(256 * 32);
    expect(Number(/(\d+) packets/.exec(legend)?.[1])).toBeGreaterThan(250_000);
    const drawn = async () => ({
      lanes: Number(await page.getAttribute("#timeline", "data-lanes")),
      rects: Number(await page.getAttribute("#timeline", "data-rects")),
      frames: Number(await page.getAttribute("#timeline", "data-frames")),
    });
    const width = (await page.locator("#timeline").boundingBox())?.width as number;
    const first = await drawn();
    expect(first.lanes).toBeLessThan(50);
    expect(first.rects).toBeGreaterThan(0);
    expect(first.rects).toBeLessThanOrEqual(first.lanes * width);
    // Each zoom or pan key moves the window and is answered by one redraw (coalesced, no backlog).
    await page.focus("#timeline");
    const whole = await span();
    for (const [i, key] of ["w", "w", "d", "s", "a", "ArrowDown"].entries()) {
      await page.keyboard.press(key);
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      const now = await drawn();
      expect({ key, frames: now.frames }).toEqual({ key, frames: first.frames + i + 1 });
      expect(now.rects).toBeLessThanOrEqual(now.lanes * width);
    }
    expect(await span()).toBeCloseTo(whole * 0.8 * 0.8 * 1.25, 6);
    // How long the main thread's tasks take is the bench's (bench/web-timeline.bench.ts): no clock here.
    await shot("run-timeline-r256");
    expect(x.errors).toEqual([]);
  }, 400_000);

  it("compares a dropped nccom-test report with the model, row by row and on the plot", async () => {
    // The nccom-test user guide's --report-to-json-file example (32-rank fp32 all-gather).
    const measured = [
      [1024, 6.19, 0.16036372821419553],
      [8192, 6.55, 1.21102527420124],
      [65536, 8.18, 7.758701546687035],
      [524288, 23.11, 21.97975251876395],
    ] as const;
    const report = {
      results: measured.map(([size, t, bw]) => ({
        "size(B)": size,
        "count(elems)": size / 4,
        type: "fp32",
        "busbw(GB/s)": bw,
        "time:avg(us)": t,
      })),
    };
    const file = join(SHOTS, "nccom-results.json");
    writeFileSync(file, JSON.stringify(report));
    await x.open("view=run&r_collective=allg&r_ranks=32&r_arch=trn1&r_dtype=fp32&r_timing=on");
    await page.setInputFiles("#compare-file", file);
    await poll(() => page.textContent("#compare-status")).toContain("4 measured rows");
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    const run = collectiveRun({
      collective: "allg",
      ranks: 32,
      arch: "trn1",
      dtype: "fp32",
      timingOnly: true,
    });
    const cells = await page
      .locator("#compare-table tr[data-size]")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    expect(cells.length).toBe(4);
    for (const [i, [size, t]] of measured.entries()) {
      const model = runSize(run, size).row.timeUs;
      expect(cells[i]?.slice(0, 4)).toEqual([
        String(size),
        t.toFixed(2),
        model.toFixed(2),
        ((100 * (model - t)) / t).toFixed(1),
      ]);
    }
    expect(await page.locator("#busbw-plot path.measured").count()).toBe(4);
    await shot("run-compare-allg-r32");
    // Dropped on the view instead: the same reader; a bad report names the field.
    await page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['{"results":[{"size(B)":-1}]}'], "bad.json"));
      document.getElementById("run").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true }));
    })()`);
    await poll(() => page.textContent("#compare-status")).toContain(
      "bad.json(results[0].size(B)): -1: expected an integer ≥ 1",
    );
    expect(x.errors).toEqual([]);
  }, 120_000);
});
