/**
 * Run: a collective swept over sizes in a Web Worker (the page stays responsive), with a progress
 * bar, the nccom-test table as it fills (the library's `formatTable`), busbw against size, and the
 * timeline of the largest size. Every choice is the library's list (collectives, algorithms,
 * arches, each arch's LNCs, the node counts the topology takes); a run the admission refuses is
 * refused here too, with its estimate and a timing-only run offered; a measured report dropped on
 * the view is compared with the model row by row; a timing profile (`sdmakit calibrate`'s file)
 * replaces the shipped timing. A link of a run (`r_run=on`, set by Run, cleared by an edit) runs it
 * again when opened.
 */
import {
  ALGORITHMS,
  buildTopology,
  COLLECTIVE_DTYPES,
  COLLECTIVES,
  type CollectiveName,
  formatTable,
  lncChoices,
  REDUCE_OPS,
  type ReportRow,
} from "../../src/collectives/index.js";
import { archProfile, PROFILES } from "../../src/hal/index.js";
import { dtypeName } from "../../src/spec/index.js";
import { CompareBox } from "./compare-box.js";
import { el, input, labelled, select } from "./dom.js";
import { shareKernels, startKernels } from "./kernels-share.js";
import { busbwPlot } from "./plot.js";
import { type NamedProfile, ProfileBox, profileUrlValue } from "./profile-box.js";
import type { RunInput, RunMessage } from "./run-protocol.js";
import RunWorker from "./run-worker.ts?worker&inline";
import { Timeline } from "./timeline.js";
import { keepInUrl, readState, writeState } from "./url-state.js";

/** The form's fields: every input but the sizes of a measured report and the timing profile. */
type Field = Exclude<keyof RunInput, "sizes" | "timingProfile" | "profileName">;

/** The form's first values: a quick 8-rank bf16 all-reduce. */
const FORM: Readonly<Record<Field, string>> = {
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
  timing: "off",
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

/**
 * The worker of the mounted view's run: a remount (Back / Forward, or a link to other inputs, which
 * may run at once) ends it, so a run of a view no longer shown does not go on using the machine.
 */
let running: Worker | undefined;

/** Build the Run view into `root`. */
export function mountRun(root: HTMLElement): void {
  running?.terminate();
  running = undefined;
  const state = readState();
  const value = (k: Field) => state.get(`r_${k}`) ?? FORM[k];
  const controls: Record<Field, HTMLInputElement | HTMLSelectElement> = {
    collective: select(
      "collective",
      COLLECTIVES.map((c) => [c, LABELS[c]] as const),
      value("collective"),
      FORM.collective,
    ),
    ranks: input("ranks", value("ranks"), { class: "narrow" }),
    nodes: select("nodes", [value("nodes")], value("nodes"), FORM.nodes),
    arch: select(
      "arch",
      PROFILES.map((p) => p.name),
      value("arch"),
      FORM.arch,
    ),
    lnc: select("lnc", ["auto"], value("lnc"), FORM.lnc),
    algo: select("algo", ["auto", ...ALGORITHMS], value("algo"), FORM.algo),
    dtype: select("dtype", COLLECTIVE_DTYPES.map(dtypeName), value("dtype"), FORM.dtype),
    op: select("op", REDUCE_OPS, value("op"), FORM.op),
    min: input("min", value("min"), { class: "narrow" }),
    max: input("max", value("max"), { class: "narrow" }),
    factor: input("factor", value("factor"), { class: "narrow" }),
    check: select("check", ["exact", "reference", "none"], value("check"), FORM.check),
    timing: select(
      "timing",
      [
        ["off", "off"],
        ["on", "on (the CLI's --timing-only)"],
      ],
      value("timing"),
      FORM.timing,
    ),
  };
  const writeForm = keepInUrl("r_", controls);
  syncChoices(controls, value("lnc"), value("nodes"));
  for (const k of ["ranks", "arch", "lnc"] as const)
    controls[k].addEventListener("change", () => {
      syncChoices(controls, controls.lnc.value, controls.nodes.value);
      writeForm();
    });
  const runButton = el("button", { type: "button", id: "run-button" }, "Run");
  const timingButton = el("button", { type: "button", id: "run-timing-only", hidden: "" }, "Run timing-only");
  const stopButton = el("button", { type: "button", id: "stop-button", disabled: "" }, "Stop");
  const form = el("div", { class: "controls" });
  for (const [k, c] of Object.entries(controls)) form.append(labelled(k, c));
  // `r_run=on`: the link re-runs what it shows; an edit after the run leaves a link of inputs only.
  const edited = () => writeState({ r_run: undefined });
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  form.append(runButton, stopButton, timingButton);
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
  let sizesOverride: readonly number[] | undefined;
  let reportName: string | undefined;
  const urlNote = el("p", { class: "muted", id: "run-url-note", hidden: "" });
  const profileBox = new ProfileBox((p) => {
    writeState({ r_profile: p === undefined ? undefined : profileUrlValue(p), r_run: undefined });
    noteUrl(urlNote, p, reportName);
  });
  const compare = new CompareBox(root, (report) => {
    sizesOverride = report?.rows.map((r) => r.size);
    reportName = report?.name;
    noteUrl(urlNote, profileBox.profile, reportName);
    // A report that says what it ran (sdmakit's config) sets those fields.
    const c = report?.config ?? {};
    const set = (k: Field, v: string | number | undefined) => {
      if (v !== undefined) controls[k].value = String(v);
    };
    set("collective", c.collective);
    set("arch", c.arch);
    set("ranks", c.ranks);
    set("dtype", c.dtype);
    syncChoices(controls, String(c.lnc ?? controls.lnc.value), String(c.nodes ?? controls.nodes.value));
    writeForm();
    edited();
  });
  const summary = el("p", { id: "run-summary" });
  const plotBox = el("div", { id: "plot-box" }, busbwPlot([]));
  const timeline = new Timeline();
  const traceHead = el("h3", { id: "trace-head" }, "timeline");
  root.append(
    form,
    profileBox.root,
    urlNote,
    el("div", { class: "controls" }, bar, status),
    el("div", { class: "run-grid" }, el("div", {}, table, summary), plotBox),
    compare.root,
    traceHead,
    timeline.root,
  );

  const linked = state.get("r_profile");
  if (linked !== null && linked !== "") profileBox.fromLink(linked);

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
        plotBox.replaceChildren(busbwPlot(rows, compare.measured()));
        compare.update(rows);
        break;
      }
      case "trace":
        traceHead.textContent = `timeline of ${m.size} B (largest size; model built in the worker in ${Math.round(m.buildMs)} ms)`;
        timeline.show(m.model);
        break;
      case "refused":
        finish(`refused: ${m.message}`, "error");
        timingButton.hidden = false;
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
    writeState({ r_run: "on" });
    const typed = Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, c.value.trim()]));
    const p = profileBox.profile;
    const v = {
      ...typed,
      ...(sizesOverride === undefined ? {} : { sizes: sizesOverride.join(",") }),
      ...(p === undefined ? {} : { timingProfile: p.profile, profileName: p.name }),
    } as unknown as RunInput;
    timingButton.hidden = true;
    rows = [];
    compare.update([]);
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
    running = worker;
    shareKernels(worker);
    worker.onmessage = (e: MessageEvent<RunMessage>) => onMessage(e.data);
    worker.onerror = (e) => finish(`error: ${e.message}`, "error");
    worker.postMessage(v);
  });
  // Stop ends the worker: the run and all the memory it held go with it.
  stopButton.addEventListener("click", () => {
    finish("stopped (the worker is ended, its memory freed)", "muted");
    edited();
  });
  timingButton.addEventListener("click", () => {
    controls.timing.value = "on";
    writeForm();
    runButton.click();
  });
  // A link of a run runs it again, through the same admission: one too big is refused, as on Run.
  if (state.get("r_run") === "on") void startKernels().then(() => runButton.click());
}

/** What the link carries besides the form: the timing profile's parameters, not a measured report. */
function noteUrl(note: HTMLElement, profile: NamedProfile | undefined, report: string | undefined): void {
  const parts = [
    ...(profile === undefined
      ? []
      : [`The link carries the timing profile's parameters (from ${profile.name}), not its fit notes.`]),
    ...(report === undefined
      ? []
      : [`The measured report ${report} is not in the link: opened, it sweeps min … max.`]),
  ];
  note.hidden = parts.length === 0;
  note.textContent = parts.join(" ");
}

/** The LNC and node choices of the arch and rank count, from the library (kept where still valid). */
function syncChoices(
  controls: Readonly<Record<Field, HTMLInputElement | HTMLSelectElement>>,
  lnc: string,
  nodes: string,
): void {
  const replace = (s: HTMLSelectElement, options: readonly (readonly [string, string])[], keep: string) => {
    s.replaceChildren(...options.map(([v, label]) => el("option", { value: v }, label)));
    s.value = options.some(([v]) => v === keep) ? keep : (options[0]?.[0] ?? "");
  };
  let profile: ReturnType<typeof archProfile>;
  try {
    profile = archProfile(controls.arch.value);
  } catch {
    return; // the worker names the bad arch on Run
  }
  const lncs = lncChoices(profile).map((n) => [String(n), String(n)] as const);
  replace(controls.lnc as HTMLSelectElement, [["auto", "auto (the arch's default)"], ...lncs], lnc);
  const ranks = Number(controls.ranks.value);
  const lncValue = controls.lnc.value === "auto" ? undefined : Number(controls.lnc.value);
  const counts: (readonly [string, string])[] = [];
  for (let n = 1; Number.isInteger(ranks) && n <= ranks && counts.length < 64; n++) {
    if (ranks % n !== 0) continue;
    try {
      buildTopology(profile, ranks, n, { lnc: lncValue });
      counts.push([String(n), String(n)]);
    } catch {
      // a node count the topology refuses is not offered
    }
  }
  replace(controls.nodes as HTMLSelectElement, counts.length > 0 ? counts : [[nodes, nodes]], nodes);
}
