/**
 * The explorer built with Vite into a temp folder and opened in Chromium from file:// (the hardest
 * host: no module scripts or workers by URL), for the browser tests and the web bench.
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
  /** The folder the page was built into: its one file, index.html. */
  readonly outDir: string;
  /** index.html's file:// URL. */
  readonly url: string;
  /** Page errors and console errors seen so far. */
  readonly errors: string[];
  /** Open the built page at a fragment (`view=run&r_ranks=64`). */
  open(hash: string): Promise<unknown>;
  /** Another 1400 × 1000 page, in a context of its own (a link opened elsewhere); the caller closes it. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Build the page into a new temp folder; returns the folder. */
async function buildPage(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "sdmakit-web-"));
  await build({ configFile: join(ROOT, "web/vite.config.ts"), logLevel: "warn", build: { outDir } });
  return outDir;
}

async function launchChromium(): Promise<Browser> {
  const found = await findChromium();
  // launch() gives the browser a fresh temporary profile (--user-data-dir) of its own.
  return chromium.launch({ executablePath: found.path, args: CHROMIUM_FLAGS });
}

const VIEWPORT = { width: 1400, height: 1000 };

/** A 1400 × 1000 page on the page built in `outDir`, in a context of its own; `close` closes it, then `after`. */
async function explorerOn(browser: Browser, outDir: string, after: () => Promise<void>): Promise<Explorer> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const url = pathToFileURL(join(outDir, "index.html")).href;
  return {
    browser,
    page,
    outDir,
    url,
    errors,
    // A fresh document each time: a goto that only changes the fragment would keep the old page.
    open: async (hash) => {
      await page.goto("about:blank");
      return page.goto(`${url}#${hash}`);
    },
    newPage: () => browser.newPage({ viewport: VIEWPORT }),
    close: async () => {
      await context.close();
      await after();
    },
  };
}

/** Build the page and open it in a Chromium of its own (the bench); `close` ends both. */
export async function openExplorer(): Promise<Explorer> {
  const outDir = await buildPage();
  const browser = await launchChromium();
  return explorerOn(browser, outDir, async () => {
    await browser.close();
    rmSync(outDir, { recursive: true, force: true });
  });
}

/**
 * The build and the Chromium the browser test files of one process share: the same page built once
 * (≈ 2 s of Vite) and one browser launched (≈ 1.5 s), not once a file; each file has a context
 * of its own. The shared project runs its files in one module graph a worker, so this module's
 * state lasts from file to file. The folder goes at exit (or SIGTERM); Playwright ends the browser then.
 */
let session: Promise<{ readonly outDir: string; readonly browser: Browser }> | undefined;

async function sharedSession(): Promise<{ readonly outDir: string; readonly browser: Browser }> {
  const before = await session?.catch(() => undefined);
  // A browser that went away (crashed) is launched again; a failed build is tried again.
  if (before?.browser.isConnected()) return before;
  session = (async () => {
    const outDir = before?.outDir ?? (await buildPage());
    const browser = await launchChromium();
    if (before === undefined) {
      const remove = () => rmSync(outDir, { recursive: true, force: true });
      process.once("exit", remove);
      // vitest ends a worker with SIGTERM, then SIGKILL after 0.5 s: no exit event if it is still
      // closing the browser then (Playwright's own SIGTERM handler does that, and ends nothing else).
      process.once("SIGTERM", remove);
    }
    return { outDir, browser };
  })();
  return session;
}

/**
 * One explorer for a test file, on the process's shared build and browser: its page opened before
 * its tests (and the screenshot folder made), its context closed after them. Read `.x` and `.page`
 * inside the tests.
 */
export function sharedExplorer(): { readonly x: Explorer; readonly page: Page } {
  let x: Explorer | undefined;
  beforeAll(async () => {
    const { outDir, browser } = await sharedSession();
    x = await explorerOn(browser, outDir, async () => {});
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
