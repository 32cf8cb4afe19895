/**
 * Compare with hardware: a measured report (nccom-test's `--report-to-json-file`, or sdmakit's own)
 * dropped on the Run view or chosen with the file button is read with the reader `sdmakit calibrate`
 * uses (collectives/report/measured-report.ts); the run then sweeps the report's sizes and each row
 * shows measured against the model, with the error.
 */
import { parseJsonText } from "../../src/bits/index.js";
import {
  collectiveDtype,
  compareMeasured,
  type HardwareReport,
  type MeasuredRow,
  parseMeasuredReport,
  type ReportRow,
} from "../../src/collectives/index.js";
import { el } from "./dom.js";
import { errorText } from "./error-text.js";

const f2 = (v: number | undefined) => (v === undefined ? "—" : v.toFixed(2));

export class CompareBox {
  readonly root: HTMLElement;
  private readonly status = el("p", { id: "compare-status", class: "muted", "aria-live": "polite" });
  private readonly table = el("table", { id: "compare-table", class: "compare" });
  private readonly file = el("input", { type: "file", id: "compare-file", accept: ".json,application/json" });
  private report: HardwareReport | undefined;

  /** `onReport`: a report was read (its sizes and what its config says), or cleared (undefined). */
  constructor(
    dropTarget: HTMLElement,
    private readonly onReport: (report: HardwareReport | undefined) => void,
  ) {
    const clear = el("button", { type: "button", id: "compare-clear" }, "clear");
    clear.addEventListener("click", () => this.set(undefined, "no report: the sweep runs min … max"));
    this.root = el(
      "section",
      { class: "compare-box", id: "compare-box", "aria-label": "compare with hardware" },
      el("h3", {}, "compare with hardware"),
      el(
        "p",
        {},
        "Drop an nccom-test ",
        el("code", {}, "--report-to-json-file"),
        " report on this view, or ",
        el("label", {}, "choose one ", this.file),
        " ",
        clear,
      ),
      this.status,
      this.table,
    );
    this.status.textContent = "no report: the sweep runs min … max";
    this.file.addEventListener("change", () => {
      const f = this.file.files?.[0];
      if (f !== undefined) void this.read(f);
    });
    dropTarget.addEventListener("dragover", (e) => e.preventDefault());
    dropTarget.addEventListener("drop", (e) => {
      e.preventDefault();
      const f = e.dataTransfer?.files[0];
      if (f !== undefined) void this.read(f);
    });
  }

  /** The measured rows (for the plot), when a report is loaded. */
  measured(): readonly MeasuredRow[] {
    return this.report?.rows ?? [];
  }

  private async read(file: File): Promise<void> {
    try {
      const report = parseMeasuredReport(parseJsonText(file.name, await file.text()), file.name);
      // The report says a dtype name; that it is a collective's is checked as calibrate checks it.
      if (report.config.dtype !== undefined) collectiveDtype(report.config.dtype);
      const sizes = report.rows.map((r) => r.size);
      this.set(
        report,
        `${file.name}: ${report.rows.length} measured rows (${sizes[0]} … ${sizes.at(-1)} B); Run sweeps these sizes`,
      );
    } catch (e) {
      this.set(undefined, `${file.name} not read: ${errorText(e)}`);
      this.status.className = "error";
    }
  }

  private set(report: HardwareReport | undefined, text: string): void {
    this.report = report;
    this.status.textContent = text;
    this.status.className = "muted";
    this.table.replaceChildren();
    this.onReport(report);
  }

  /** The comparison with the model's rows so far. */
  update(model: readonly ReportRow[]): void {
    if (this.report === undefined) return;
    const rows = compareMeasured(this.report, model);
    const head = ["size (B)", "measured µs", "model µs", "error %", "measured busbw", "model busbw"];
    this.table.replaceChildren(
      el("caption", {}, "measured against the model (error = (model − measured) / measured)"),
      el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h))),
      ...rows.map((r) =>
        el(
          "tr",
          { "data-size": String(r.size) },
          ...[
            String(r.size),
            f2(r.measuredUs),
            f2(r.modelUs),
            r.errorPct.toFixed(1),
            f2(r.measuredBusbw),
            f2(r.modelBusbw),
          ].map((t) => el("td", {}, t)),
        ),
      ),
    );
    if (rows.length > 0) {
      const mean = rows.reduce((a, r) => a + Math.abs(r.errorPct), 0) / rows.length;
      this.status.textContent = `${rows.length} of ${this.report.rows.length} rows compared; mean |error| ${mean.toFixed(1)} %`;
    }
  }
}
