/**
 * The explorer built once with Vite into a temp folder and opened in Chromium from file:// (the
 * hardest host: no module scripts or workers by URL), for the browser tests and the web bench.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll } from "vitest";
import { CHROMIUM_FLAGS, findChromium } from "./find-chromium.js";

export const ROOT = join(import.meta.dirname, "../..");
/** Where the browser tests write their screenshots and fixture files. */
export const SHOTS = join(ROOT, "test-results/web");

export interface Explorer {
  readonly browser: Browser;
  readonly page: Page;
  /** Page errors and console errors seen so far. */
  readonly errors: string[];
  /** Open the built page at a fragment (`view=run&r_ranks=64`). */
  open(hash: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Build the page and open a 1400 × 1000 Chromium page on it. */
export async function openExplorer(): Promise<Explorer> {
  const outDir = mkdtempSync(join(tmpdir(), "sdmakit-web-"));
  await build({ configFile: join(ROOT, "web/vite.config.ts"), logLevel: "warn", build: { outDir } });
  const found = await findChromium();
  const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const url = pathToFileURL(join(outDir, "index.html")).href;
  return {
    browser,
    page,
    errors,
    // A fresh document each time: a goto that only changes the fragment would keep the old page.
    open: async (hash) => {
      await page.goto("about:blank");
      return page.goto(`${url}#${hash}`);
    },
    close: async () => {
      await browser.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * One explorer for a test file: opened before its tests (and the screenshot folder made), closed
 * after them. Read `.x` and `.page` inside the tests.
 */
export function sharedExplorer(): { readonly x: Explorer; readonly page: Page } {
  let x: Explorer | undefined;
  beforeAll(async () => {
    x = await openExplorer();
    mkdirSync(SHOTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await x?.close();
  });
  const opened = () => {
    if (x === undefined) throw new Error("the explorer is not open yet (read it inside a test)");
    return x;
  };
  return {
    get x() {
      return opened();
    },
    get page() {
      return opened().page;
    },
  };
}

/**
 * Start watching the main thread: long tasks (the browser's own measure, ≥ 50 ms) and the largest
 * gap between animation frames. Read with `mainThreadStats`.
 */
export async function watchMainThread(page: Page): Promise<void> {
  // A string: the page's script, typed against the DOM the test's tsconfig does not load.
  await page.evaluate(`(() => {
    window.__longest = 0;
    window.__longTasks = 0;
    window.__gap = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__longest = Math.max(window.__longest, e.duration);
        window.__longTasks++;
      }
    }).observe({ type: "longtask" });
    let last = performance.now();
    const tick = (now) => {
      window.__gap = Math.max(window.__gap, now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

/**
 * Since `watchMainThread`: the long tasks the browser reported (its events, each ≥ 50 ms), the
 * longest of them and the largest frame gap, in ms.
 */
export function mainThreadStats(
  page: Page,
): Promise<{ longTasks: number; longestTask: number; frameGap: number }> {
  return page.evaluate(
    "({ longTasks: window.__longTasks, longestTask: window.__longest, frameGap: window.__gap })",
  );
}
