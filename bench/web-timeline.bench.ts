// The Run view's timeline in Chromium (issue 26): a pan / zoom frame's drawing time (the timeline's
// own measure of its draw, data-frame-ms, after each of 40 key presses: W, S, A, D in turn) and the
// longest main-thread task from Run to the drawn timeline (the browser's long-task entries), at 8, 64
// and 256 ranks × 4 MiB timing-only, and 64 and 256 against 8 as ratios. Budgets: ≤ 50 ms a frame,
// ≤ 200 ms for the longest block at 64 and at 256 ranks (the browser test at 256 ranks checks what
// is drawn and counts events; the times are here). Wall-clock figures on a shared machine: compare
// in one run.
import { mainThreadStats, openExplorer, watchMainThread } from "../test/web/browser.js";
import type { BenchRow } from "./harness.js";

const KEYS = ["w", "d", "s", "a"];
const STEPS = 40;

function stats(xs: readonly number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return {
    median: s[Math.floor(s.length / 2)] as number,
    min: s[0] as number,
    max: s[s.length - 1] as number,
  };
}

export default async function bench(): Promise<BenchRow[]> {
  const x = await openExplorer();
  const page = x.page;
  const at = async (ranks: number) => {
    await x.open(`view=run&r_ranks=${ranks}&r_min=4mb&r_max=4mb&r_timing=on`);
    await watchMainThread(page);
    await page.click("#run-button");
    await page.waitForFunction(
      "document.getElementById('run-status').textContent === 'done' && document.getElementById('timeline').dataset.frameMs !== undefined",
      undefined,
      { timeout: 300_000 },
    );
    const longest = (await mainThreadStats(page)).longestTask;
    await page.focus("#timeline");
    const frames: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      await page.keyboard.press(KEYS[i % KEYS.length] as string);
      // two animation frames: the coalesced redraw has run
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      frames.push(Number(await page.getAttribute("#timeline", "data-frame-ms")));
    }
    const packets = /(\d+) packets/.exec((await page.textContent("#timeline-legend")) ?? "")?.[1];
    return { frames, longest, packets };
  };
  try {
    const r8 = await at(8);
    const r64 = await at(64);
    const r256 = await at(256);
    const f8 = stats(r8.frames);
    const f64 = stats(r64.frames);
    const f256 = stats(r256.frames);
    const row = (
      name: string,
      target: string,
      s: { median: number; min: number; max: number },
      unit: string,
      note: string,
    ) => ({ name, target, ...s, unit, note }) as BenchRow;
    const one = (v: number) => ({ median: v, min: v, max: v });
    return [
      row(
        "timeline pan/zoom frame, 8 ranks × 4 MiB",
        "",
        f8,
        "ms",
        `${r8.packets} packets; ${STEPS} key presses`,
      ),
      row(
        "timeline pan/zoom frame, 64 ranks × 4 MiB",
        "≤ 50",
        f64,
        "ms",
        `${r64.packets} packets; ${STEPS} key presses`,
      ),
      row(
        "timeline pan/zoom frame, 256 ranks × 4 MiB",
        "≤ 50",
        f256,
        "ms",
        `${r256.packets} packets; ${STEPS} key presses`,
      ),
      row("frame, 64 ranks ÷ 8 ranks", "", one(f64.median / Math.max(1e-3, f8.median)), "×", "medians"),
      row("frame, 256 ranks ÷ 8 ranks", "", one(f256.median / Math.max(1e-3, f8.median)), "×", "medians"),
      row(
        "longest main-thread task, Run → timeline, 8 ranks",
        "",
        one(r8.longest),
        "ms",
        "long-task entries (≥ 50 ms; 0 = none)",
      ),
      row(
        "longest main-thread task, Run → timeline, 64 ranks",
        "≤ 200",
        one(r64.longest),
        "ms",
        "long-task entries (≥ 50 ms; 0 = none)",
      ),
      row(
        "longest main-thread task, Run → timeline, 256 ranks",
        "≤ 200",
        one(r256.longest),
        "ms",
        "long-task entries (≥ 50 ms; 0 = none)",
      ),
      row(
        "longest task, 64 ranks ÷ 8 ranks",
        "",
        one(r64.longest / Math.max(50, r8.longest)),
        "×",
        "8 ranks' floor 50 ms (the long-task threshold)",
      ),
      row(
        "longest task, 256 ranks ÷ 8 ranks",
        "",
        one(r256.longest / Math.max(50, r8.longest)),
        "×",
        "8 ranks' floor 50 ms (the long-task threshold)",
      ),
    ];
  } finally {
    await x.close();
  }
}
