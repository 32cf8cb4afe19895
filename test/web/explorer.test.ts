/**
 * The web explorer in a real Chromium (issue 15): the page is built once with Vite into a temp
 * folder and opened from file:// (the hardest host: no module scripts or workers by URL there), and
 * once over a plain static HTTP server. Each view is checked against the library run here in Node,
 * and each test saves a screenshot to test-results/web/.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { toHex } from "../../src/bits/index.js";
import { encodeS3d3, isValidSb2sbCollective, type S3d3Word } from "../../src/isa/index.js";
import { describeLine, parseBuildRequest, runBuildRequest } from "../../src/runtime/index.js";
import { counts, VALID_WORD, withPattern } from "../isa/s3d3-fixtures.js";
import { SHOTS, sharedExplorer } from "./browser.js";

/** Seed 000 §9.2: the FMA descriptor of the README tour. */
const FMA_HEX = "0000800000001002000000090000003f";

const shared = sharedExplorer();
let outDir: string;
let page: Page;
let url: string;

beforeAll(() => {
  ({ outDir, page, url } = shared.x);
});

/** Wait for the page (the machine may be busy with other test files: be patient, not flaky). */
const poll = <T>(read: () => Promise<T>, timeout = 20_000) => expect.poll(read, { timeout });
/** Open the current URL in a new page (as a shared link would be) and run `check` there. */
async function inFreshPage(check: () => Promise<void>): Promise<void> {
  const first = page;
  page = await shared.x.newPage();
  try {
    await page.goto(first.url());
    await check();
  } finally {
    await page.close();
    page = first;
  }
}
const pageErrors = () => shared.x.errors;
const open = (hash: string) => page.goto(`${url}#${hash}`);
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const field = (path: string) =>
  page.locator(`#decode-out table.fields tr[data-field="${path}"] td.value :is(input, select)`);

describe("web explorer in Chromium", () => {
  it("decodes the seed 000 §9.2 FMA descriptor (as bytes and as u32 words) and re-encodes an edit", async () => {
    await open("view=decode");
    await page.fill("textarea[name=hex]", FMA_HEX);
    await poll(() => page.textContent("#decoded-layout")).toBe("fma-desc");
    expect(await field("a_sel").inputValue()).toBe("1");
    expect(await field("b_sel").inputValue()).toBe("2");
    expect(await field("c_sel").inputValue()).toBe("0");
    expect(await field("scale").inputValue()).toBe("0.5");
    expect(await page.textContent("#verdict")).toContain("valid");
    // the same descriptor pasted as a dump prints it: little-endian u32 words
    await page.fill("textarea[name=hex]", "0x00800000 0x02100000 0x09000000 0x3f000000");
    await poll(() => page.textContent("#decode-head")).toContain("read as words");
    expect(await field("b_sel").inputValue()).toBe("2");
    expect(await field("scale").inputValue()).toBe("0.5");
    // edit scale → the library re-encodes that field, the hex follows in the form it was pasted
    await field("scale").fill("2");
    await field("scale").press("Enter");
    await poll(() => page.inputValue("textarea[name=hex]")).toBe(
      "0x00800000 0x02100000 0x09000000 0x40000000",
    );
    await page.fill("textarea[name=hex]", FMA_HEX);
    await poll(() => page.textContent("#decoded-layout")).toBe("fma-desc");
    expect(page.url()).toContain(`hex=${FMA_HEX}`);
    await shot("decode-fma");
    expect(pageErrors()).toEqual([]);
  });

  it("shows every reason an invalid S3D3 word fails is_valid_sb2sb_collective", async () => {
    const word: S3d3Word = {
      ...withPattern(VALID_WORD, "src_mem_pattern", counts([300, 1, 1])),
      "header.opcode": 0,
      out_dtype: 7,
      lnc_size_fmt: 3,
      num_active_channels: 0,
    };
    const bytes = encodeS3d3(word);
    const expected = isValidSb2sbCollective(bytes, { arch: "trn1" }).reasons;
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const reasonsShown = async () => {
      await poll(() => page.textContent("#verdict")).toContain(`invalid (${expected.length} reasons)`);
      const shown = await page
        .locator("#reasons li")
        .evaluateAll((lis) =>
          lis.map((li) => ({ code: li.getAttribute("data-code"), text: li.textContent })),
        );
      expect(shown.map((r) => r.code)).toEqual(expected.map((r) => r.code));
      for (const [i, r] of expected.entries())
        expect(shown[i]?.text).toBe(`${r.code} ${r.field}: ${r.message}`);
    };
    // pasted: the page guesses s3d3 from the 64 bytes and its constant-free fields
    await open("view=decode");
    await page.selectOption("#decode select[name=layout]", "guess");
    await page.selectOption("#decode select[name=arch]", "trn1");
    await page.fill("textarea[name=hex]", toHex(bytes));
    await poll(() => page.textContent("#decoded-layout")).toBe("s3d3");
    await reasonsShown();
    expect(await page.locator(".bits .band.flagged").count()).toBeGreaterThanOrEqual(expected.length - 1);
    await shot("decode-s3d3-invalid");
    await inFreshPage(reasonsShown); // the link reproduces the view
    expect(pageErrors()).toEqual([]);
  });

  it("builds a 3-source bf16 ADD: the ring descriptors libnrt writes, each expandable; and libnrt's refusal", async () => {
    const request = {
      arch: "trn2",
      op: "add",
      sources: ["0x1000", "0x2000", "0x3000"],
      dests: ["0x9000"],
      size: 2048,
      inDtype: "bf16",
    };
    const result = runBuildRequest(parseBuildRequest(JSON.stringify(request)));
    if ("status" in result) throw new Error("the ADD request was refused in Node");
    await open("view=build");
    await page.selectOption("#build select[name=op]", "add");
    await page.fill("#build input[name=sources]", "0x1000, 0x2000, 0x3000");
    await page.fill("#build input[name=dests]", "0x9000");
    await page.fill("#build input[name=size]", "2048");
    await page.selectOption("#build select[name=inDtype]", "bf16");
    const summaries = page.locator("#build-out details.desc > summary");
    await poll(() => summaries.allTextContents()).toEqual(result.written.map(describeLine));
    expect(await page.locator('#build-out details[data-ring="tx"]').count()).toBe(3);
    expect(await page.locator('#build-out details[data-ring="rx"]').count()).toBe(1);
    await summaries.first().click();
    const first = page.locator("#build-out details.desc").first();
    expect(await first.locator(".bits .band").count()).toBeGreaterThan(5);
    expect(await first.locator('tr[data-field="buf_ptr"]').textContent()).toContain("0x1000");
    await shot("build-add-bf16");
    await inFreshPage(() =>
      poll(() => page.locator("#build-out details.desc > summary").allTextContents()).toEqual(
        result.written.map(describeLine),
      ),
    );
    // FMA without scales: the null cce_info libnrt asserts on, with its message
    let refusal = "";
    try {
      runBuildRequest(parseBuildRequest(JSON.stringify({ ...request, op: "fma" })));
    } catch (e) {
      refusal = (e as Error).message;
    }
    expect(refusal).not.toBe("");
    await page.selectOption("#build select[name=op]", "fma");
    await poll(() => page.textContent("#refusal")).toBe(`refused: ${refusal}`);
    expect(pageErrors()).toEqual([]);
  });

  it("picks copy on the default form: it adapts (one source, no dtype) and builds the copy at once", async () => {
    const copy = { arch: "trn2", op: "copy", sources: ["0x1000"], dests: ["0x8000"], size: 4096 };
    const result = runBuildRequest(parseBuildRequest(JSON.stringify(copy)));
    if ("status" in result) throw new Error("the copy was refused in Node");
    await open("view=build"); // the form's defaults: a 3-source bf16 ADD
    await page.selectOption("#build select[name=op]", "copy");
    const summaries = page.locator("#build-out details.desc > summary");
    await poll(() => summaries.allTextContents()).toEqual(result.written.map(describeLine));
    expect(await page.locator("#build-out .error").count()).toBe(0);
    expect(await page.textContent("#build-out p.mono")).toBe(`sdmakit build '${JSON.stringify(copy)}'`);
    expect(await page.inputValue("#build input[name=sources]")).toBe("0x1000");
    expect(await page.isDisabled("#build select[name=inDtype]")).toBe(true);
    expect(await page.inputValue("#build select[name=inDtype]")).toBe("bf16"); // kept for the ADD
    await shot("build-copy");
    // Back to add: the three sources and the dtype return, and the ADD builds again.
    await page.selectOption("#build select[name=op]", "add");
    expect(await page.inputValue("#build input[name=sources]")).toBe("0x1000, 0x2000, 0x3000");
    await poll(() => page.locator('#build-out details[data-ring="tx"]').count()).toBe(3);
    expect(pageErrors()).toEqual([]);
  });

  it("runs an 8-rank all-reduce in a worker: the table, the plot and the timeline, 0 wrong", async () => {
    await open("view=run"); // the form's defaults: allr, 8 ranks, bf16, 8 B … 64 KiB ×4, checked exactly
    await page.click("#run-button");
    await poll(() => page.textContent("#run-status"), 100_000).toBe("done");
    const table = (await page.textContent("#run-table")) ?? "";
    const rows = table.split("\n").filter((l) => /^\s+\d+\s+\d+\s+bf16/.test(l));
    expect(rows.map((r) => Number(r.trim().split(/\s+/)[0]))).toEqual([8, 32, 128, 512, 2048, 8192, 32768]);
    for (const r of rows) expect(r.trim().split(/\s+/).at(-1)).toBe("0");
    expect(await page.textContent("#run-summary")).toContain("0 wrong, 0 guard bytes");
    expect(await page.locator("#busbw-plot circle.point").count()).toBe(7);
    expect(await page.textContent("#trace-head")).toContain("timeline of 32768 B");
    expect(await page.textContent("#timeline-legend")).toMatch(
      /[1-9]\d* queues · [1-9]\d* packets · [1-9]\d* semaphore waits/,
    );
    const span = async () => {
      const [a, b] = ((await page.getAttribute("#timeline", "data-window")) ?? "").split(" ").map(Number);
      return (b as number) - (a as number);
    };
    const whole = await span();
    await page.click("#tl-zoom-in");
    expect(await span()).toBeCloseTo(whole / 2, 6);
    await page.click("#tl-reset");
    expect(await span()).toBeCloseTo(whole, 6);
    // the wheel zooms around the pointer, a drag pans by the distance dragged
    const box = (await page.locator("#timeline").boundingBox()) as { x: number; y: number; width: number };
    await page.mouse.move(box.x + box.width / 2, box.y + 40);
    await page.mouse.wheel(0, 100);
    await poll(span).toBeCloseTo(whole * 1.25, 6);
    const start = async () =>
      Number(((await page.getAttribute("#timeline", "data-window")) ?? "").split(" ")[0]);
    const before = await start();
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 100, box.y + 40, { steps: 4 });
    await page.mouse.up();
    expect(await start()).toBeGreaterThan(before);
    expect(await span()).toBeCloseTo(whole * 1.25, 6);
    await page.click("#tl-reset");
    await shot("run-allr-r8");
    expect(pageErrors()).toEqual([]);
  }, 120_000);

  it("stays responsive while a run is going (the run is in the worker)", async () => {
    // 24 sizes, 8 B … 64 MiB: seconds of work, so the run is still going when Stop is clicked (a
    // 4 MiB sweep takes half a second and could end first, leaving Stop disabled)
    await open("view=run&r_max=64mb&r_factor=2");
    await page.click("#run-button");
    await page.waitForSelector("#run-table[data-rows]");
    // While the worker runs, the page takes input: switch views and decode a pasted descriptor.
    await page.click('nav [data-view="decode"]');
    await page.selectOption("select[name=layout]", "guess");
    await page.fill("textarea[name=hex]", FMA_HEX);
    await poll(() => page.textContent("#decoded-layout")).toBe("fma-desc");
    const rowsMeanwhile = Number(await page.getAttribute("#run-table", "data-rows"));
    const statusMeanwhile = await page.textContent("#run-status");
    expect(statusMeanwhile).toMatch(/^running/);
    expect(rowsMeanwhile).toBeLessThan(24);
    await page.click('nav [data-view="run"]');
    await page.click("#stop-button");
    expect(await page.textContent("#run-status")).toMatch(/^stopped/);
    expect(pageErrors()).toEqual([]);
  });

  it("works from a plain static HTTP server too (the build is one self-contained file)", async () => {
    const html = readFileSync(join(outDir, "index.html"));
    const server: Server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(html),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      await page.goto(`http://127.0.0.1:${port}/index.html#view=decode&hex=${FMA_HEX}`);
      await poll(() => page.textContent("#decoded-layout")).toBe("fma-desc");
    } finally {
      server.close();
    }
  });
});
