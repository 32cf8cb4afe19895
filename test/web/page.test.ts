/**
 * The explorer page around its numbers (issue 26): one copy of the wasm kernels shared by the page
 * and its run worker, and the bundle's size budget; links and history that reproduce the view;
 * inputs (unnamed enum codes, float fields, a 1 MB paste); axe-core on every view in both themes,
 * and a 375-px phone. Screenshots go to test-results/web/. Built with Vite into a temp folder and
 * opened from file:// in Chromium (the build and the browser shared by the process's browser files).
 */
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { toHex } from "../../src/bits/index.js";
import { parseBuildRequest, runBuildRequest } from "../../src/runtime/index.js";
import { ROOT, SHOTS, sharedExplorer } from "./browser.js";

/** The bundle budget of issue 26: one file, at most this many bytes. */
const BUDGET = 700_000;

const shared = sharedExplorer();
let outDir: string;
let page: Page;
let errors: string[];
let url: string;

beforeAll(() => {
  ({ outDir, page, errors, url } = shared.x);
});

const AXE = join(ROOT, "node_modules/axe-core/axe.min.js");
const poll = <T>(read: () => Promise<T>, timeout = 20_000) => expect.poll(read, { timeout });
const open = (hash: string) => page.goto(`${url}#${hash}`);

describe("one wasm copy and the bundle budget", () => {
  it("ships one file under the budget with no embedded base64 module", () => {
    const file = join(outDir, "index.html");
    expect(statSync(file).size).toBeLessThanOrEqual(BUDGET);
    // "AGFzbQ" is base64 of the wasm magic: only the small check kernels' module is left inline
    const html = readFileSync(file, "utf8");
    const modules = html.match(/AGFzbQ[A-Za-z0-9+/=]{1000,}/g) ?? [];
    expect(modules.map((m) => m.length).every((n) => n < 20_000)).toBe(true);
  });

  it("compiles the kernels once in the page, hands them to the run worker: 0 wrong", async () => {
    await open("view=run");
    await poll(() => page.getAttribute("html", "data-kernels")).toBe("wasm");
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    expect(await page.textContent("#run-summary")).toContain("0 wrong, 0 guard bytes");
    expect(errors).toEqual([]);
  }, 120_000);
});

const S3D3_235 =
  "bf1000000000000000000000eb0a0000000000000100000000000400010001000101000000000000000000000000000000100000010000000000040001000100";
const field = (path: string) =>
  page.locator(`#decode-out table.fields tr[data-field="${path}"] td.value :is(input, select)`);
/** The fragment as the page has it now (page.url() may lag a replaceState). */
const hashOf = async () => new URLSearchParams(String(await page.evaluate("location.hash")).slice(1));

describe("links and history", () => {
  it("keeps every input in the URL as typed, defaults and empty fields too", async () => {
    await open("view=build");
    await page.selectOption("#build select[name=inDtype]", "");
    await page.selectOption("#build select[name=op]", "copy");
    const state = await hashOf();
    expect(state.get("b_inDtype")).toBe("");
    expect(state.get("b_arch")).toBe("trn2"); // a default, written too
    expect(state.get("b_sources")).toBe("0x1000");
    const link = `${url}#${(await hashOf()).toString()}`;
    await page.goto("about:blank");
    await page.goto(link);
    await poll(() => page.locator("#build-out details.desc").count()).toBe(2);
    expect(await page.inputValue("#build select[name=inDtype]")).toBe("");
    // Run inputs go into the URL as they change, not only on Run
    await page.click('nav [data-view="run"]');
    await page.fill("#run input[name=ranks]", "16");
    expect((await hashOf()).get("r_ranks")).toBe("16");
    expect((await hashOf()).get("r_collective")).toBe("allr");
  });

  it("moves between views with Back and Forward, inside the page", async () => {
    await open("view=decode");
    await page.click('nav [data-view="build"]');
    await page.click('nav [data-view="run"]');
    await page.goBack();
    await poll(() => page.isVisible("#build")).toBe(true);
    expect(page.url()).toContain("view=build");
    await page.goBack();
    await poll(() => page.isVisible("#decode")).toBe(true);
    await page.goForward();
    await poll(() => page.isVisible("#build")).toBe(true);
    // "open in Decode" then Back then the Decode tab: the URL holds what Decode shows
    await page.locator("#build-out details.desc > summary").first().click();
    await page.locator("#build-out details.desc a").first().click();
    await poll(() => page.isVisible("#decode")).toBe(true);
    const opened = await page.inputValue("textarea[name=hex]");
    await page.goBack();
    await poll(() => page.isVisible("#build")).toBe(true);
    await page.click('nav [data-view="decode"]');
    expect((await hashOf()).get("hex")).toBe(await page.inputValue("textarea[name=hex]"));
    expect(opened).not.toBe("");
    expect(errors).toEqual([]);
  });

  it("names a stale link value in an alert and shows the rest of the view", async () => {
    await open(`view=decode&arch=trn9&order=weird&hex=${S3D3_235}`);
    await poll(() => page.textContent("#link-error")).toContain(
      'arch="trn9" is not one of trn1 | trn2 | trn3',
    );
    expect(await page.textContent("#link-error")).toContain('order="weird"');
    expect(await page.getAttribute("#link-error", "role")).toBe("alert");
    expect(await page.textContent("#decoded-layout")).toBe("s3d3");
    expect(await page.locator(".bits .band").count()).toBeGreaterThan(10);
    // Run's selects fall back to the form's defaults, not their first option
    await open("view=run&r_arch=trn9&r_dtype=bf17");
    await poll(() => page.textContent("#run #link-error")).toContain('arch="trn9"');
    expect(await page.inputValue("#run select[name=arch]")).toBe("trn2");
    expect(await page.inputValue("#run select[name=dtype]")).toBe("bf16");
    expect(errors).toEqual([]);
  });
});

describe("a pasted ring", () => {
  it("reads 64 B of a 4-source ADD's TX ring as four descriptors in one packet, not as S3D3", async () => {
    const sources = ["0x1000", "0x2000", "0x3000", "0x4000"];
    const request = { arch: "trn2", op: "add", sources, dests: ["0x8000"], size: 4096, inDtype: "bf16" };
    const result = runBuildRequest(parseBuildRequest(JSON.stringify(request)));
    if ("status" in result) throw new Error("refused in Node");
    const hex = result.written
      .filter((w) => w.ring === "tx")
      .map((w) => toHex(w.bytes))
      .join(" ");
    await open("view=decode");
    await page.fill("textarea[name=hex]", hex);
    await poll(() => page.textContent("#decoded-layout")).toBe("ring");
    const cards = page.locator("#ring details.desc > summary");
    expect(await cards.allTextContents()).toEqual([
      "#0 +0x0 udma-tx (source) · packet 0 starts",
      "#1 +0x10 udma-tx (source) · packet 0",
      "#2 +0x20 udma-tx (source) · packet 0",
      "#3 +0x30 udma-tx (source) · packet 0 ends",
    ]);
    await cards.nth(3).click();
    expect(
      await page.locator('#ring details[data-slot="3"] tr[data-field="buf_ptr"]').textContent(),
    ).toContain("0x4000");
    expect(errors).toEqual([]);
  });
});

describe("inputs", () => {
  it("shows an enum code with no name as its number, as the CLI prints it", async () => {
    await open(`view=decode&hex=${S3D3_235}`);
    await poll(() => field("in_dtype").inputValue()).toBe("235");
    expect(await field("in_dtype").locator("option:checked").textContent()).toBe("235 (no such code)");
  });

  it("refuses a float that does not parse, naming the field; keeps -0 and reads 0x as bits", async () => {
    const fma = "0000800000001002000000090000003f";
    await open(`view=decode&hex=${fma}`);
    for (const bad of ["abc", ""]) {
      await field("scale").fill(bad);
      await field("scale").press("Enter");
      await poll(() => page.textContent('#decode-out tr[data-field="scale"] .err')).toContain("scale");
      expect(await page.inputValue("textarea[name=hex]")).toBe(fma);
    }
    await field("scale").fill("-0");
    await field("scale").press("Enter");
    await poll(() => page.inputValue("textarea[name=hex]")).toBe("00008000000010020000000900000080");
    expect(await field("scale").inputValue()).toBe("-0");
    await field("scale").fill("0x3f800000");
    await field("scale").press("Enter");
    await poll(() => page.inputValue("textarea[name=hex]")).toBe("0000800000001002000000090000803f");
  });

  it("decodes a 1 MB paste without blocking typing, and keeps it out of the URL", async () => {
    await open("view=decode");
    const big = "ab".repeat(512 * 1024);
    await page.fill("textarea[name=hex]", big);
    await poll(() => page.textContent("#hex-note")).toContain("not in the URL");
    expect(String(await page.evaluate("location.hash")).length).toBeLessThan(2000);
    await poll(() => page.textContent("#decode-error")).toContain("no layout is 524288 bytes");
    // Typing after it: the key's handler leaves the decode for later (a decode of the paste inside
    // the handler would have replaced this message before the handler returned), and it comes.
    // (A string: the test's tsconfig has no DOM types.)
    const during = String(
      await page.evaluate(`(() => {
        const area = document.querySelector("textarea[name=hex]");
        area.value += "c";
        area.dispatchEvent(new Event("input"));
        return document.querySelector("#decode-error").textContent;
      })()`),
    );
    expect(during).toContain("no layout is 524288 bytes");
    await poll(() => page.textContent("#decode-error")).toContain("characters in all");
  });
});

/** axe-core's serious and critical violations on the page as it is (axe-core added to it): `rule: target …`. */
async function axeViolations(): Promise<string[]> {
  // Only the violations' nodes in full: the passes' are not gathered (axe-core's resultTypes).
  const found = (await page.evaluate(`axe.run({ resultTypes: ["violations"] }).then((r) => r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`)) as string[];
  return found;
}

/** Open a view with something in it: Decode's example, a Build card open, a finished Run. */
async function openView(view: string): Promise<void> {
  await open(`view=${view}`);
  if (view === "build") await page.locator("#build-out details.desc > summary").first().click();
  if (view === "run") {
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
  }
}

/** Each view with something in it ({@link openView}), in turn. */
async function eachView(check: (view: string) => Promise<void>): Promise<void> {
  for (const view of ["decode", "build", "run"]) {
    await openView(view);
    await check(view);
  }
}

describe("accessibility, themes and small screens", () => {
  it("has no serious or critical axe-core violation on Decode, Build and Run, light and dark", async () => {
    // Each view opened once and checked in both schemes: the page's colours are CSS media queries
    // (style.css), which a change of scheme applies to the open document as a load in it would.
    await eachView(async (view) => {
      await page.addScriptTag({ path: AXE });
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        expect({ view, colorScheme, violations: await axeViolations() }).toEqual({
          view,
          colorScheme,
          violations: [],
        });
      }
      await page.emulateMedia({ colorScheme: "light" });
    });
    expect(await page.getAttribute("#run-status", "role")).toBe("status");
  }, 120_000);

  it("draws the timeline and the plot in the theme's colours, and follows a change of scheme", async () => {
    // The axis strip's top-left pixel, the theme's panel colour, the plot's text fill.
    const colours = async () =>
      (await page.evaluate(`(() => {
        const c = document.getElementById("timeline");
        const [r, g, b] = c.getContext("2d").getImageData(2, 2, 1, 1).data;
        const css = getComputedStyle(document.documentElement);
        const text = document.querySelector("#busbw-plot text");
        return {
          axis: "rgb(" + r + ", " + g + ", " + b + ")",
          panel: css.getPropertyValue("--panel").trim(),
          plotText: getComputedStyle(text).fill,
          fg: css.getPropertyValue("--fg").trim(),
        };
      })()`)) as { axis: string; panel: string; plotText: string; fg: string };
    const rgb = (hex: string) =>
      `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    await page.emulateMedia({ colorScheme: "dark" });
    await openView("run");
    await poll(() => page.getAttribute("#timeline", "data-rects")).not.toBeNull();
    const dark = await colours();
    expect(dark.panel).toBe("#1d2229");
    expect(dark.axis).toBe(rgb(dark.panel));
    expect(dark.plotText).toBe(rgb(dark.fg));
    await page.emulateMedia({ colorScheme: "light" }); // no reload: the canvas redraws
    await poll(async () => (await colours()).axis).toBe(rgb("#ffffff"));
    expect((await colours()).plotText).toBe(rgb((await colours()).fg));
    await page.emulateMedia({ colorScheme: "light" });
    expect(errors).toEqual([]);
  }, 120_000);

  it("is usable at 375 px: no sideways page scroll, the plot drawn, wide boxes scroll inside", async () => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await eachView(async (view) => {
        const pageWidth = Number(await page.evaluate("document.documentElement.scrollWidth"));
        expect({ view, pageWidth }).toEqual({ view, pageWidth: 375 });
        if (view === "run") {
          const plot = await page.locator("#busbw-plot").boundingBox();
          expect(plot?.width ?? 0).toBeGreaterThan(250);
        }
        if (view === "decode") {
          const grid = await page
            .locator("#decode-out .diagram")
            .evaluate((d) => [d.scrollWidth, d.clientWidth]);
          expect(grid[0]).toBeGreaterThan(grid[1] as number); // the grid scrolls within its box
        }
        await page.screenshot({ path: join(SHOTS, `phone-375-${view}.png`), fullPage: view !== "decode" });
      });
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
