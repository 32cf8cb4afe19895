/**
 * Run: a collective swept over sizes in a Web Worker (the page stays responsive), with a progress
 * bar, the nccom-test table as it fills (the library's `formatTable`), busbw against size, and the
 * timeline of the largest size.
 */
import {
  ALGORITHMS,
  COLLECTIVE_DTYPES,
  COLLECTIVES,
  type CollectiveName,
  formatTable,
  REDUCE_OPS,
  type ReportRow,
} from "../../src/collectives/index.js";
import { dtypeName } from "../../src/spec/index.js";
import { el, input, labelled, select } from "./dom.js";
import { shareKernels } from "./kernels-share.js";
import { busbwPlot } from "./plot.js";
import type { RunInput, RunMessage } from "./run-protocol.js";
import RunWorker from "./run-worker.ts?worker&inline";
import { Timeline } from "./timeline.js";
import { traceModel } from "./trace-model.js";
import { keepInUrl, readState } from "./url-state.js";

/** The form's first values: a quick 8-rank bf16 all-reduce. */
const FORM: RunInput = {
  collective: "allr",
  ranks: "8",
  nodes: "1",
  arch: "trn2",
  lnc: "auto",
  algo: "auto",
  dtype: "bf16",
  op: "sum",
  min: "8",
  max: "64kb",
  factor: "4",
  check: "exact",
};

/** Each collective's name in the select. */
const LABELS: Readonly<Record<CollectiveName, string>> = {
  allr: "all-reduce",
  allg: "all-gather",
  redsct: "reduce-scatter",
  sendrecv: "send-recv",
  alltoall: "all-to-all",
  alltoallv: "all-to-allv (uniform)",
  allgv: "all-gatherv (uniform)",
  permute: "permute (r → r + 1)",
};

/** Build the Run view into `root`. */
export function mountRun(root: HTMLElement): void {
  const state = readState();
  const value = (k: keyof RunInput) => state.get(`r_${k}`) ?? FORM[k];
  const controls: Record<keyof RunInput, HTMLInputElement | HTMLSelectElement> = {
    collective: select(
      "collective",
      COLLECTIVES.map((c) => [c, LABELS[c]] as const),
      value("collective"),
      FORM.collective,
    ),
    ranks: input("ranks", value("ranks"), { class: "narrow" }),
    nodes: input("nodes", value("nodes"), { class: "narrow" }),
    arch: select("arch", ["trn1", "trn2", "trn3"], value("arch"), FORM.arch),
    lnc: select("lnc", ["auto", "1", "2"], value("lnc"), FORM.lnc),
    algo: select("algo", ["auto", ...ALGORITHMS], value("algo"), FORM.algo),
    dtype: select("dtype", COLLECTIVE_DTYPES.map(dtypeName), value("dtype"), FORM.dtype),
    op: select("op", REDUCE_OPS, value("op"), FORM.op),
    min: input("min", value("min"), { class: "narrow" }),
    max: input("max", value("max"), { class: "narrow" }),
    factor: input("factor", value("factor"), { class: "narrow" }),
    check: select("check", ["exact", "reference", "none"], value("check"), FORM.check),
  };
  keepInUrl("r_", controls);
  const runButton = el("button", { type: "button", id: "run-button" }, "Run");
  const stopButton = el("button", { type: "button", id: "stop-button", disabled: "" }, "Stop");
  const form = el("div", { class: "controls" });
  for (const [k, c] of Object.entries(controls)) form.append(labelled(k, c));
  form.append(runButton, stopButton);
  const bar = el("progress", { id: "run-progress", max: "1", value: "0", "aria-label": "run progress" });
  // a live region: screen readers hear "running… / done / error" as it changes
  const status = el("span", { id: "run-status", class: "muted", role: "status" }, "idle");
  const table = el("pre", {
    class: "table",
    id: "run-table",
    tabindex: "0",
    role: "region",
    "aria-label": "results table",
  });
  const summary = el("p", { id: "run-summary" });
  const plotBox = el("div", { id: "plot-box" }, busbwPlot([]));
  const timeline = new Timeline();
  const traceHead = el("h3", { id: "trace-head" }, "timeline");
  root.append(
    form,
    el("div", { class: "controls" }, bar, status),
    el("div", { class: "run-grid" }, el("div", {}, table, summary), plotBox),
    traceHead,
    timeline.root,
  );

  let worker: Worker | undefined;
  let rows: ReportRow[] = [];
  let header = "";
  let algorithms = new Set<string>();
  const finish = (text: string, cls: string) => {
    worker?.terminate();
    worker = undefined;
    status.textContent = text;
    status.className = cls;
    runButton.disabled = false;
    stopButton.disabled = true;
  };
  const onMessage = (m: RunMessage) => {
    switch (m.type) {
      case "start":
        header = m.header;
        break;
      case "progress":
        bar.value = m.fraction;
        status.textContent = `running… ${m.label}`;
        break;
      case "row": {
        rows = [...rows, m.row];
        algorithms.add(m.algorithm);
        table.textContent = `${header} algo=${[...algorithms].join(",")}\n${formatTable(rows)}`;
        table.dataset.rows = String(rows.length);
        plotBox.replaceChildren(busbwPlot(rows));
        break;
      }
      case "trace":
        traceHead.textContent = `timeline of ${m.size} B (largest size)`;
        timeline.show(traceModel(m.events));
        break;
      case "trace-skipped":
        traceHead.textContent = `timeline of ${m.size} B not drawn: ${m.reason}`;
        break;
      case "error":
        finish(`error: ${m.message}`, "error");
        break;
      case "done": {
        const wrong = rows.reduce((n, r) => n + Math.max(0, r.wrong), 0);
        const guards = rows.reduce((n, r) => n + r.guardErrors, 0);
        const checked = rows.some((r) => r.wrong >= 0);
        summary.textContent = checked
          ? `checked every element of ${rows.length} sizes: ${wrong} wrong, ${guards} guard bytes overwritten`
          : "not checked";
        summary.className = !checked ? "" : wrong + guards === 0 ? "ok" : "error";
        finish("done", "ok");
        break;
      }
    }
  };
  runButton.addEventListener("click", () => {
    const v = Object.fromEntries(
      Object.entries(controls).map(([k, c]) => [k, c.value.trim()]),
    ) as unknown as RunInput;
    rows = [];
    algorithms = new Set();
    table.textContent = "";
    delete table.dataset.rows;
    summary.textContent = "";
    bar.value = 0;
    runButton.disabled = true;
    stopButton.disabled = false;
    status.className = "muted";
    status.textContent = "starting…";
    worker = new RunWorker();
    shareKernels(worker);
    worker.onmessage = (e: MessageEvent<RunMessage>) => onMessage(e.data);
    worker.onerror = (e) => finish(`error: ${e.message}`, "error");
    worker.postMessage(v);
  });
  stopButton.addEventListener("click", () => finish("stopped", "muted"));
}
