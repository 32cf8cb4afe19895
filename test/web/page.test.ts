/**
 * The explorer page around its numbers (issue 26): one copy of the wasm kernels shared by the page
 * and its run worker, and the bundle's size budget. Built once with Vite into a temp folder and
 * opened from file:// in Chromium.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_FLAGS, findChromium } from "./find-chromium.js";

const ROOT = join(import.meta.dirname, "../..");
/** The bundle budget of issue 26: one file, at most this many bytes. */
const BUDGET = 700_000;

let outDir: string;
let browser: Browser;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "sdmakit-page-"));
  await build({ configFile: join(ROOT, "web/vite.config.ts"), logLevel: "warn", build: { outDir } });
  browser = await chromium.launch({ executablePath: (await findChromium()).path, args: CHROMIUM_FLAGS });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const poll = <T>(read: () => Promise<T>, timeout = 20_000) => expect.poll(read, { timeout });
const open = (hash: string) => page.goto(`${pathToFileURL(join(outDir, "index.html")).href}#${hash}`);

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
