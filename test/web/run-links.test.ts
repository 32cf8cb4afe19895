/**
 * The Run view's timing profile and its links, in Chromium (issue 26): a timing profile file (what
 * `sdmakit calibrate` writes and `--timing-profile FILE` reads) checked by the library's checker,
 * used by the run, shown in its parameters and carried by the link, as the note says; a link of a
 * run runs it again when opened, through the same admission (one too big is refused, not run), and
 * a run of a view left for another link is ended.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkTimingProfile,
  collectiveRun,
  runSize,
  type TimingProfile,
} from "../../src/collectives/index.js";
import { SHOTS, sharedExplorer } from "./browser.js";

const shared = sharedExplorer();
const poll = <T>(read: () => Promise<T>, timeout = 30_000) => expect.poll(read, { timeout });
const hashOf = async () => String(await shared.page.evaluate("location.hash")).slice(1);
/** The table's data rows: size and time:avg(us). */
const tableRows = async () =>
  ((await shared.page.textContent("#run-table")) ?? "")
    .split("\n")
    .filter((l) => /^\s+\d+\s+\d+\s/.test(l))
    .map((l) => l.trim().split(/\s+/))
    .map((c) => [Number(c[0]), c[3]]);

const PROFILE: TimingProfile = {
  format: "sdmakit-timing-profile",
  version: 1,
  archs: { trn2: { launchNs: 16000 } },
  fit: { reports: ["a.json"] },
};
const SIZES = [65536, 262144];
const FORM = "view=run&r_ranks=8&r_min=64kb&r_max=256kb&r_factor=4&r_timing=on";

describe("Run view: timing profile and links", () => {
  it("runs with a timing profile file: checked as the CLI checks it, in the parameters and the link", async () => {
    const { x, page } = shared;
    const file = join(SHOTS, "timing-profile.json");
    writeFileSync(file, JSON.stringify(PROFILE));
    await x.open(FORM);
    expect(await page.isHidden("#run-url-note")).toBe(true);
    await page.setInputFiles("#profile-file", file);
    await poll(() => page.textContent("#profile-status")).toBe("timing-profile.json: trn2: launchNs=16000");
    expect(await page.textContent("#run-url-note")).toContain(
      "The link carries the timing profile's parameters (from timing-profile.json)",
    );
    expect(new URLSearchParams(await hashOf()).get("r_profile")).toBe(
      JSON.stringify({ name: "timing-profile.json", archs: PROFILE.archs }),
    );
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    expect(await page.textContent("#run-table")).toContain(
      "timing-profile=timing-profile.json (trn2: launchNs=16000)",
    );
    const run = (withProfile: boolean) =>
      collectiveRun({
        collective: "allr",
        ranks: 8,
        arch: "trn2",
        dtype: "bf16",
        timingOnly: true,
        ...(withProfile ? { timingProfile: PROFILE } : {}),
      });
    const want = SIZES.map((s) => [s, runSize(run(true), s).row.timeUs.toFixed(2)]);
    expect(await tableRows()).toEqual(want);
    expect(want[0]?.[1]).not.toBe(runSize(run(false), SIZES[0] as number).row.timeUs.toFixed(2));
    await page.screenshot({ path: join(SHOTS, "run-timing-profile.png"), fullPage: true });

    // The link: the profile comes back from it and the run runs again, with the same rows.
    const link = await hashOf();
    expect(new URLSearchParams(link).get("r_run")).toBe("on");
    await x.open(link);
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    expect(await page.textContent("#profile-status")).toBe("timing-profile.json: trn2: launchNs=16000");
    expect(await tableRows()).toEqual(want);

    // A bad file is refused with the library's own message, and the shipped timing is kept.
    const bad = { ...PROFILE, archs: { trn2: { launchNs: -1 } } };
    writeFileSync(file, JSON.stringify(bad));
    await page.setInputFiles("#profile-file", file);
    let message = "";
    try {
      checkTimingProfile(bad, "timing-profile.json");
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("archs.trn2.launchNs -1");
    await poll(() => page.textContent("#profile-status")).toContain(message);
    expect(new URLSearchParams(await hashOf()).get("r_profile")).toBeNull();
    // The button says what it does; the status says what is in use.
    expect(await page.textContent("#profile-clear")).toBe("use shipped timing");
    await page.click("#profile-clear");
    expect(await page.textContent("#profile-status")).toBe("in use: the shipped timing");
    expect(x.errors).toEqual([]);
  }, 200_000);

  it("a link of a run runs it when opened; an edit leaves a link of inputs; one too big is refused", async () => {
    const { x, page } = shared;
    await x.open(FORM);
    expect(new URLSearchParams(await hashOf()).get("r_run")).toBeNull();
    expect(await page.textContent("#run-status")).toBe("idle"); // inputs only: not run
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    const ran = await tableRows();
    const link = await hashOf();
    await x.open(link);
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    expect(await tableRows()).toEqual(ran);
    await page.fill("#run input[name=max]", "1mb");
    expect(new URLSearchParams(await hashOf()).get("r_run")).toBeNull();

    // A link to other inputs followed in the page while a run goes: that run's worker is ended.
    await x.open("view=run&r_ranks=256&r_min=1mb&r_max=1gb&r_factor=2&r_timing=on&r_run=on");
    await poll(() => page.textContent("#run-status")).toMatch(/^running/);
    await page.evaluate(`location.hash = ${JSON.stringify(`#${FORM}&r_run=on`)}`);
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    expect(await tableRows()).toEqual(ran);
    await poll(async () => page.workers().length).toBe(0);

    await x.open("view=run&r_ranks=64&r_min=64mb&r_max=64mb&r_timing=off&r_run=on");
    await poll(() => page.textContent("#run-status")).toMatch(/^refused: .*needs ≈ [\d.]+ GiB/);
    expect(await page.isVisible("#run-timing-only")).toBe(true);
    expect(await page.getAttribute("#run-table", "data-rows")).toBeNull();
    expect(x.errors).toEqual([]);
  }, 200_000);
});
