import { describe, expect, it } from "vitest";
import {
  fitArch,
  type MeasuredReport,
  modelTimes,
  readReport,
  reportError,
  shippedTiming,
} from "../../src/collectives/index.js";
import { guideReport, guideTables } from "../../tools/calibration.js";

// `sdmakit calibrate`'s fit (src/collectives/calibrate.ts) on the guide's own reports and on a
// report the model made with moved parameters (issue 25).
const tables = guideTables();
const report = (name: string): MeasuredReport =>
  readReport(guideReport(tables.find((t) => t.name === name)!), name);
const within = (x: number, want: number, tol: number) => Math.abs(x / want - 1) <= tol;

describe("calibrate: the fit", () => {
  // The shipped values were fitted on every calibration table of their arch; the 2-node table pins
  // only the node message cost (the next test), so the one-node tables give back the rest.
  const ONE_NODE = { launchNs: 0, packetNs: 0 };
  const keys = Object.keys(ONE_NODE) as (keyof typeof ONE_NODE)[];
  it.each([
    ["trn1", ["sdk25-allg-r32-fp32-ioSize", "sdk25-allg-r32-fp32-json", "sdk23-allr-r2-fp32"]],
    ["trn2", ["sdk26-allg-r8-fp32-stats", "sdk26-allr-r16-fp32-algo"]],
  ] as const)(
    "on the guide's %s reports recovers the shipped launch and per-packet cost within 5 %",
    (arch, names) => {
      const fit = fitArch(arch, names.map(report), { keys });
      const shipped = shippedTiming(arch);
      for (const k of keys)
        expect(within(fit.fitted[k], shipped[k], 0.05), `${k} ${fit.fitted[k]}`).toBe(true);
      const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(mean(fit.after)).toBeLessThanOrEqual(mean(fit.before) + 1e-9);
    },
  );
  it("on the guide's 2-node report recovers the shipped node message cost within 5 %", () => {
    // The shipped value is this fit at 0.4 % steps (about 30 s of model runs); steps of 4 % and then
    // 2 % — the resolution the claim needs — try four neighbours: none may beat the shipped value.
    const shipped = shippedTiming("trn1").nodeMessageNs;
    const fit = fitArch("trn1", [report("sdk23-allr-r64-N2-fp32")], {
      keys: ["nodeMessageNs"],
      firstStep: 0.04,
      minStep: 0.02,
    });
    expect(within(fit.fitted.nodeMessageNs, shipped, 0.05), `${fit.fitted.nodeMessageNs}`).toBe(true);
  });
  it("refuses search steps that are not numbers > 0 or a smallest step past the first", () => {
    const r = [report("sdk23-allr-r2-fp32")];
    expect(() => fitArch("trn1", r, { firstStep: Number.NaN })).toThrow(/fitArch\(firstStep\): NaN is out/);
    expect(() => fitArch("trn1", r, { minStep: 0 })).toThrow(/fitArch\(minStep\): 0 is out of range/);
    expect(() => fitArch("trn1", r, { firstStep: 0.01, minStep: 0.02 })).toThrow(
      /fitArch\(minStep\): 0\.02 is out of range \(0, firstStep = 0\.01\]/,
    );
  });
  it("on a report the model made with both parameters +30 % recovers them within 5 %", () => {
    const r = report("sdk25-allg-r32-fp32-ioSize");
    const shipped = shippedTiming("trn1");
    const moved = { launchNs: shipped.launchNs * 1.3, packetNs: shipped.packetNs * 1.3 };
    const times = modelTimes(r, moved);
    const made = { ...r, rows: r.rows.map((row, k) => ({ size: row.size, timeUs: times[k]! })) };
    expect(reportError(made, moved)).toBeLessThan(1e-12);
    const fit = fitArch("trn1", [made], { keys });
    for (const k of keys) expect(within(fit.fitted[k], moved[k], 0.05), `${k} ${fit.fitted[k]}`).toBe(true);
    expect(fit.after[0]).toBeLessThan(0.01);
  });
  it("on a 2-node report the model made with the node message cost +30 % recovers it within 5 %", () => {
    const rows = [1 << 20, 8 << 20].map((size) => ({ size, timeUs: 1 }));
    const r = {
      ...report("sdk25-allg-r32-fp32-ioSize"),
      collective: "allr",
      ranks: 4,
      nodes: 2,
      rows,
    } as const;
    const moved = { nodeMessageNs: shippedTiming("trn1").nodeMessageNs * 1.3 };
    const times = modelTimes(r, moved);
    const made = { ...r, rows: rows.map((row, k) => ({ size: row.size, timeUs: times[k]! })) };
    const fit = fitArch("trn1", [made], { keys: ["nodeMessageNs"] });
    expect(within(fit.fitted.nodeMessageNs, moved.nodeMessageNs, 0.05), `${fit.fitted.nodeMessageNs}`).toBe(
      true,
    );
  });
});

describe("calibrate: reading reports", () => {
  const doc = guideReport(tables.find((t) => t.name === "sdk26-allg-r8-fp32-stats")!);
  it("takes the configuration from config, else the nccom-test command line, else the defaults", () => {
    expect(readReport(doc, "a.json")).toMatchObject({
      arch: "trn2",
      lnc: 2,
      ranks: 8,
      nodes: 1,
      collective: "allg",
    });
    // nccom-test's own report: no arch; ranks and dtype from its command line.
    const nccom = { args: doc.args, results: doc.results };
    expect(() => readReport(nccom, "n.json")).toThrow(/n\.json\(config\.arch\): missing/);
    expect(readReport(nccom, "n.json", { arch: "trn2" })).toMatchObject({ ranks: 8, dtype: "fp32", lnc: 2 });
  });
  it("takes rank counts up to the library's cap, 16384, and refuses one more", () => {
    const at = (nworkers: number) => ({ ...doc, config: { ...doc.config, nworkers } });
    expect(readReport(at(16384), "big.json").ranks).toBe(16384);
    expect(() => readReport(at(16385), "big.json")).toThrow(
      /big\.json\(config\.nworkers\): "16385": expected an integer 1\.\.16384/,
    );
  });
  it("reads numbers written as strings, and a time under nccom-test's other keys", () => {
    const results = [{ "size(B)": "1024", "time(us)": "10.5" }];
    expect(readReport({ ...doc, results }, "s.json").rows).toEqual([{ size: 1024, timeUs: 10.5 }]);
    expect(() => readReport({ ...doc, results: [{ "size(B)": "1kb", "time(us)": 1 }] }, "s.json")).toThrow(
      /s\.json\(results\[0\]\.size\(B\)\): "1kb": expected an integer ≥ 1/,
    );
  });
  it("refuses a bad report naming the field and its value", () => {
    const bad: [unknown, RegExp][] = [
      [[], /r\.json\(the document\): \[\]: expected a JSON object/],
      [{ ...doc, results: [] }, /r\.json\(results\): \[\]: expected a non-empty array/],
      [
        { ...doc, results: [{ "size(B)": 0, "time:avg(us)": 1 }] },
        /r\.json\(results\[0\]\.size\(B\)\): 0: expected an integer ≥ 1/,
      ],
      [
        { ...doc, results: [{ "size(B)": 8, "time:avg(us)": -1 }] },
        /r\.json\(results\[0\]\.time:avg\(us\)\): -1: expected a number > 0/,
      ],
      [
        { ...doc, config: { ...doc.config, operation: "bcast" } },
        /r\.json\(config\.operation\): "bcast": expected one of allr/,
      ],
      [
        { ...doc, config: { ...doc.config, nworkers: 0 } },
        /r\.json\(config\.nworkers\): "0": expected an integer 1\.\.16384/,
      ],
      [{ ...doc, config: { ...doc.config, lnc: 3 } }, /r\.json\(config\.lnc\): "3": expected 1 or 2 on trn2/],
      [
        { ...doc, config: { ...doc.config, arch: "trn1", lnc: 2 } },
        /r\.json\(config\.lnc\): "2": expected 1 on trn1/,
      ],
      [{ ...doc, config: { ...doc.config, datatype: "fp64" } }, /r\.json\(config\.datatype\): dtype "fp64"/],
    ];
    for (const [v, re] of bad) expect(() => readReport(v, "r.json")).toThrow(re);
  });
});
