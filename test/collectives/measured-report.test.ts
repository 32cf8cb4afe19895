// A measured report read back (nccom-test's --report-to-json-file, the user guide's example) by the
// one reader `sdmakit calibrate` and the web page's compare share, and compared with the model's
// rows: the error is the model's time against the measured time.
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import {
  compareMeasured,
  parseMeasuredReport,
  type ReportRow,
  readReport,
} from "../../src/collectives/index.js";

const GUIDE = {
  results: [
    {
      "size(B)": 1024,
      "count(elems)": 256,
      type: "fp32",
      "busbw(GB/s)": 0.16036372821419553,
      "time:avg(us)": 6.19,
    },
    {
      "size(B)": 8192,
      "count(elems)": 2048,
      type: "fp32",
      "busbw(GB/s)": 1.21102527420124,
      "time:avg(us)": 6.55,
    },
  ],
};

describe("measured report", () => {
  it("reads nccom-test's rows, older time(us) keys and sdmakit's config", () => {
    const r = parseMeasuredReport(GUIDE);
    expect(r.rows).toEqual([
      { size: 1024, timeUs: 6.19, busbw: 0.16036372821419553 },
      { size: 8192, timeUs: 6.55, busbw: 1.21102527420124 },
    ]);
    expect(r.config).toEqual({});
    const old = parseMeasuredReport({
      results: [{ "size(B)": 8, "time(us)": 520 }],
      config: { operation: "allr", nworkers: 64, nnodes: 2, datatype: "fp32", arch: "trn1" },
    });
    expect(old.rows[0]?.timeUs).toBe(520);
    expect(old.config).toEqual({ collective: "allr", ranks: 64, nodes: 2, dtype: "fp32", arch: "trn1" });
  });

  it("reads numbers written as strings, other time statistics, and the settings of a command line", () => {
    const r = parseMeasuredReport({
      args: ["allg", "-r", "32", "-N=2", "-d", "fp32", "--lnc", "1"],
      results: [{ "size(B)": "1024", "time:p50(us)": "6.5", "busbw(GB/s)": "0.25" }],
    });
    expect(r.rows).toEqual([{ size: 1024, timeUs: 6.5, busbw: 0.25 }]);
    expect(r.config).toEqual({ collective: "allg", ranks: 32, nodes: 2, dtype: "fp32", lnc: 1 });
  });

  it("is the reader calibrate uses: the same rows, the settings the report says", () => {
    const doc = {
      config: { operation: "allg", nworkers: 32, datatype: "fp32", arch: "trn1" },
      results: GUIDE.results,
    };
    const mine = parseMeasuredReport(doc, "g.json");
    const cal = readReport(doc, "g.json");
    expect(cal.rows).toEqual(mine.rows);
    expect(cal).toMatchObject({ ...mine.config, lnc: 1, nodes: 1, name: "g.json" });
  });

  it("names the field of a bad report", () => {
    const fails = (v: unknown) => {
      try {
        parseMeasuredReport(v);
      } catch (e) {
        expect(e).toBeInstanceOf(FieldError);
        return (e as FieldError).field;
      }
      throw new Error("accepted");
    };
    const row = { "size(B)": 8, "time:avg(us)": 1 };
    expect(fails([])).toBe("the document");
    expect(fails({})).toBe("results");
    expect(fails({ results: [] })).toBe("results");
    expect(fails({ results: [{ "size(B)": -1, "time:avg(us)": 1 }] })).toBe("results[0].size(B)");
    expect(fails({ results: [{ "size(B)": 8, "time:avg(us)": 0 }] })).toBe("results[0].time:avg(us)");
    expect(fails({ results: [{ "size(B)": 8 }] })).toBe("results[0].time:avg(us)");
    expect(fails({ results: [row], config: { nworkers: 0 } })).toBe("config.nworkers");
    expect(fails({ results: [row], args: ["-r", "x"] })).toBe("args -r");
    expect(fails({ results: [row], config: { arch: "trn9" } })).toBe("config.arch");
    expect(fails({ results: [row], config: { operation: "bcast" } })).toBe("config.operation");
  });

  it("compares row by row, leaving out sizes the model did not run", () => {
    const model = [{ size: 1024, timeUs: 6.07, busbw: 0.16 }] as unknown as ReportRow[];
    const rows = compareMeasured(parseMeasuredReport(GUIDE), model);
    expect(rows.length).toBe(1);
    expect(rows[0]?.errorPct).toBeCloseTo((100 * (6.07 - 6.19)) / 6.19, 12);
  });
});
