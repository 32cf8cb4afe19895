/**
 * The timeline of a traced size on a canvas: a lane per DMA queue, packets as slices coloured by
 * leg kind. It draws only what is in view — the lanes scrolled to and the slices in the time window,
 * found by binary search in the model's sorted columns — at the detail the pixels hold: slices under
 * a pixel wide merge into one pixel column per lane, so a frame costs the pixels, not the trace.
 * Semaphore waits are drawn for the hovered or selected slice's leg only. Redraws are coalesced to
 * one per animation frame. The wheel zooms around the pointer, dragging pans, a click selects and
 * the keys (W/S or +/−, A/D or ←/→, ↑/↓, [ ], 0, Esc) do all of it; the selected slice's details
 * are written as text. The canvas takes the page's theme colours (style.css's variables), read again
 * when prefers-color-scheme changes. Drawn in the page from the worker's model — nothing is sent
 * anywhere.
 */
import { niceStep } from "./axis.js";
import { el } from "./dom.js";
import { firstEndingAfter, firstStartingAt, sliceArgs, type TraceModel } from "./trace-model.js";

const LANE_H = 16;
/** The lane-name gutter at least; wider when the names need it (`rank 255 · DMA queue 31`). */
const MIN_GUTTER = 110;
const LANE_FONT = "10px system-ui, sans-serif";
const AXIS_H = 22;
const PALETTE = ["#4c7df0", "#f08a4c", "#3fb37f", "#b85cd6", "#d6b13f", "#d64c6b"];
/** The narrowest window (1 ns) and the widest (4 × the trace) a zoom may reach. */
const MIN_SPAN_US = 1e-3;
const MAX_SPAN_FACTOR = 4;
/** The waits listed in a selected slice's details, at most. */
const LISTED_WAITS = 8;
/** The canvas's colours: the page's theme variables. */
interface Colours {
  /** The axis strip. */
  readonly panel: string;
  /** Every other lane. */
  readonly stripe: string;
  /** Grid lines. */
  readonly rule: string;
  /** Lane names and tick labels. */
  readonly label: string;
  /** The selected slice and its waits. */
  readonly selected: string;
  /** The hovered slice and its waits. */
  readonly hovered: string;
}

function themeColours(): Colours {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    panel: v("--panel", "#fff"),
    stripe: v("--stripe", "#f4f6f9"),
    rule: v("--rule", "#e3e6ec"),
    label: v("--label", "#4a5468"),
    selected: v("--fg", "#1d2330"),
    hovered: v("--muted", "#6a7385"),
  };
}

const KEYS_HELP =
  "keys: W/S or +/− zoom · A/D or ←/→ pan · ↑/↓ lanes · [ ] previous/next slice · 0 reset · Esc";

export class Timeline {
  readonly root: HTMLElement;
  private readonly canvas = el("canvas", {
    id: "timeline",
    tabindex: "0",
    role: "img",
    "aria-label": `timeline of the traced size; ${KEYS_HELP}`,
  });
  private readonly spacer = el("div", { class: "tl-spacer" }, this.canvas);
  // The scrolled box is a focusable region (a scrollable region must be reachable by keyboard).
  private readonly wrap = el(
    "div",
    { class: "timeline-wrap", tabindex: "0", role: "region", "aria-label": "timeline lanes" },
    this.spacer,
  );
  private readonly tip = el("div", { class: "tip", hidden: "" });
  private readonly legend = el("div", { class: "muted", id: "timeline-legend" });
  private readonly details = el(
    "pre",
    { id: "timeline-details", "aria-live": "polite" },
    "no slice selected",
  );
  private model: TraceModel | undefined;
  /** The visible window in µs. */
  private v0 = 0;
  private v1 = 1;
  private selected = -1;
  private hovered = -1;
  private pending = false;
  private gutter = MIN_GUTTER;
  /** Read at the first draw and again after the colour scheme changes. */
  private colours: Colours | undefined;

  constructor() {
    const zoom = (f: number) => () => this.zoomAt(f, 0.5);
    const button = (text: string, id: string, on: () => void) => {
      const b = el("button", { type: "button", id }, text);
      b.addEventListener("click", on);
      return b;
    };
    this.wrap.append(this.tip);
    this.canvas.style.height = `${AXIS_H}px`; // empty until a trace is shown
    this.root = el(
      "div",
      {},
      el(
        "div",
        { class: "controls" },
        button("zoom in", "tl-zoom-in", zoom(0.5)),
        button("zoom out", "tl-zoom-out", zoom(2)),
        button("reset", "tl-reset", () => this.reset()),
        this.legend,
      ),
      this.wrap,
      el("p", { class: "muted" }, KEYS_HELP),
      this.details,
    );
    this.listen();
    new ResizeObserver(() => this.schedule()).observe(this.wrap);
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
      this.colours = undefined;
      this.schedule();
    });
  }

  private listen(): void {
    this.canvas.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    this.wrap.addEventListener("scroll", () => this.schedule());
    let drag: { x: number; v0: number; v1: number; moved: boolean } | undefined;
    this.canvas.addEventListener("pointerdown", (e) => {
      drag = { x: e.offsetX, v0: this.v0, v1: this.v1, moved: false };
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener("pointerup", (e) => {
      if (drag !== undefined && !drag.moved) this.select(this.sliceAt(e.offsetX, e.offsetY));
      drag = undefined;
    });
    this.canvas.addEventListener("pointermove", (e) => {
      if (drag !== undefined && Math.abs(e.offsetX - drag.x) >= 3) drag.moved = true;
      if (drag?.moved === true) {
        const dt = ((e.offsetX - drag.x) / this.plotWidth()) * (drag.v1 - drag.v0);
        this.setWindow(drag.v0 - dt, drag.v1 - dt);
      } else if (drag === undefined) this.hover(e.offsetX, e.offsetY);
    });
    this.canvas.addEventListener("pointerleave", () => {
      this.tip.hidden = true;
      this.hovered = -1;
      this.schedule();
    });
    this.canvas.addEventListener("keydown", (e) => {
      if (this.onKey(e.key)) e.preventDefault();
    });
  }

  private onWheel(e: WheelEvent): void {
    if (e.shiftKey) return; // shift + wheel scrolls the lanes (the browser's own scroll)
    e.preventDefault();
    if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) this.pan(e.deltaX > 0 ? 0.1 : -0.1);
    else this.zoomAt(e.deltaY > 0 ? 1.25 : 0.8, this.fractionAt(e.offsetX));
  }

  /** A key's action; false when the key is not the timeline's. */
  private onKey(key: string): boolean {
    const k = key.length === 1 ? key.toLowerCase() : key;
    const actions: Readonly<Record<string, () => void>> = {
      w: () => this.zoomAt(0.8, 0.5),
      "+": () => this.zoomAt(0.8, 0.5),
      "=": () => this.zoomAt(0.8, 0.5),
      s: () => this.zoomAt(1.25, 0.5),
      "-": () => this.zoomAt(1.25, 0.5),
      a: () => this.pan(-0.1),
      ArrowLeft: () => this.pan(-0.1),
      d: () => this.pan(0.1),
      ArrowRight: () => this.pan(0.1),
      ArrowUp: () => this.wrap.scrollBy(0, -LANE_H),
      ArrowDown: () => this.wrap.scrollBy(0, LANE_H),
      PageUp: () => this.wrap.scrollBy(0, -this.wrap.clientHeight),
      PageDown: () => this.wrap.scrollBy(0, this.wrap.clientHeight),
      "0": () => this.reset(),
      Home: () => this.reset(),
      "]": () => this.step(1),
      "[": () => this.step(-1),
      Escape: () => this.select(-1),
    };
    const act = actions[k];
    act?.();
    return act !== undefined;
  }

  /** Show a trace, zoomed out to all of it. */
  show(model: TraceModel): void {
    this.model = model;
    this.selected = -1;
    this.hovered = -1;
    this.spacer.style.height = `${AXIS_H + model.lanes.length * LANE_H + 4}px`;
    this.gutter = gutterFor(model.lanes);
    this.legend.replaceChildren(
      `${model.queues} queues · ${model.packets} packets · ${model.arrowToLane.length} semaphore waits (drawn for the hovered or selected slice) · `,
      ...model.kinds.flatMap((k, i) => [
        el("span", { style: `color: ${PALETTE[i % PALETTE.length]}` }, "■"),
        ` ${k}  `,
      ]),
    );
    this.details.textContent = "no slice selected";
    this.wrap.scrollTop = 0;
    this.reset();
  }

  private reset(): void {
    if (this.model === undefined) return;
    const pad = (this.model.t1 - this.model.t0) * 0.01;
    this.setWindow(this.model.t0 - pad, this.model.t1 + pad);
  }

  /** Move the window (clamped to MIN_SPAN_US … MAX_SPAN_FACTOR × the trace) and draw soon. */
  private setWindow(v0: number, v1: number): void {
    const m = this.model;
    const whole = m === undefined ? 1 : m.t1 - m.t0;
    const span = Math.min(Math.max(v1 - v0, MIN_SPAN_US), whole * MAX_SPAN_FACTOR);
    const mid = (v0 + v1) / 2;
    this.v0 = v1 - v0 === span ? v0 : mid - span / 2;
    this.v1 = this.v0 + span;
    this.canvas.dataset.window = `${this.v0} ${this.v1}`;
    this.schedule();
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  private plotWidth(): number {
    return Math.max(1, this.canvas.clientWidth - this.gutter);
  }

  private fractionAt(px: number): number {
    return Math.min(1, Math.max(0, (px - this.gutter) / this.plotWidth()));
  }

  private zoomAt(factor: number, fraction: number): void {
    const at = this.v0 + fraction * (this.v1 - this.v0);
    this.setWindow(at - (at - this.v0) * factor, at + (this.v1 - at) * factor);
  }

  private pan(fraction: number): void {
    const dt = fraction * (this.v1 - this.v0);
    this.setWindow(this.v0 + dt, this.v1 + dt);
  }

  private x(t: number): number {
    return this.gutter + ((t - this.v0) / (this.v1 - this.v0)) * this.plotWidth();
  }

  private t(x: number): number {
    return this.v0 + ((x - this.gutter) / this.plotWidth()) * (this.v1 - this.v0);
  }

  /** The lanes in view: first and last index, and the y of lane 0 (after the scroll). */
  private view(cssH: number): { first: number; last: number; y0: number } {
    const n = this.model?.lanes.length ?? 0;
    const top = this.wrap.scrollTop;
    const first = Math.max(0, Math.floor(top / LANE_H));
    const last = Math.min(n - 1, Math.ceil((top + cssH - AXIS_H) / LANE_H));
    return { first, last, y0: AXIS_H - top };
  }

  private draw(): void {
    const m = this.model;
    if (m === undefined) return;
    const began = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const cssW = this.canvas.clientWidth || 800;
    const total = AXIS_H + m.lanes.length * LANE_H + 4;
    const cssH = Math.max(AXIS_H + LANE_H, Math.min(total, this.wrap.clientHeight || total));
    this.canvas.style.height = `${cssH}px`;
    if (this.canvas.width !== Math.round(cssW * dpr) || this.canvas.height !== Math.round(cssH * dpr)) {
      this.canvas.width = Math.round(cssW * dpr);
      this.canvas.height = Math.round(cssH * dpr);
    }
    const g = this.canvas.getContext("2d");
    if (g === null) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, cssW, cssH);
    g.font = LANE_FONT;
    this.colours ??= themeColours();
    const c = this.colours;
    const v = this.view(cssH);
    for (let l = v.first; l <= v.last; l++) {
      const y = v.y0 + l * LANE_H;
      if (l % 2 === 1) {
        g.fillStyle = c.stripe;
        g.fillRect(0, y, cssW, LANE_H);
      }
      g.fillStyle = c.label;
      g.fillText(m.lanes[l] as string, 4, y + 11);
    }
    g.save();
    g.beginPath();
    g.rect(this.gutter, AXIS_H, cssW - this.gutter, cssH - AXIS_H);
    g.clip();
    const rects = this.drawSlices(g, m, v);
    this.drawWaits(g, m, v.y0, c);
    g.restore();
    this.drawAxis(g, cssW, cssH, c);
    // What the frame cost and how many frames were drawn, read by the bench and the tests.
    this.canvas.dataset.rects = String(rects);
    this.canvas.dataset.lanes = String(v.last - v.first + 1);
    this.canvas.dataset.frameMs = (performance.now() - began).toFixed(2);
    this.canvas.dataset.frames = String(Number(this.canvas.dataset.frames ?? 0) + 1);
  }

  /** The slices of the lanes in view, one path per kind; returns the rectangles drawn. */
  private drawSlices(g: CanvasRenderingContext2D, m: TraceModel, v: ReturnType<Timeline["view"]>): number {
    const paths = m.kinds.map(() => new Path2D());
    let rects = 0;
    for (let l = v.first; l <= v.last; l++) {
      const y = v.y0 + l * LANE_H + 2;
      let kind = -1;
      let rx0 = 0;
      let rx1 = 0;
      const flush = () => {
        if (kind >= 0) (paths[kind] as Path2D).rect(rx0, y, Math.max(1, rx1 - rx0 - 0.5), LANE_H - 4);
        rects += kind >= 0 ? 1 : 0;
      };
      const hi = m.laneFirst[l + 1] as number;
      let i = firstEndingAfter(m, l, this.v0);
      while (i < hi && (m.start[i] as number) <= this.v1) {
        let x0 = this.x(m.start[i] as number);
        let x1 = this.x(m.end[i] as number);
        const k = m.kind[i] as number;
        if (x1 - x0 < 1) {
          // Under a pixel: this pixel column stands for every slice that starts in it.
          x0 = Math.floor(x0);
          x1 = x0 + 1;
          i = firstStartingAt(m, i + 1, hi, this.t(x1));
        } else i++;
        if (k === kind && x0 <= rx1 + 0.5) rx1 = Math.max(rx1, x1);
        else {
          flush();
          kind = k;
          rx0 = x0;
          rx1 = x1;
        }
      }
      flush();
    }
    paths.forEach((p, k) => {
      g.fillStyle = PALETTE[k % PALETTE.length] as string;
      g.fill(p);
    });
    return rects;
  }

  /** The time span of the leg slice `i` belongs to (its packets are neighbours in its lane). */
  private legSpan(m: TraceModel, i: number): { lane: number; from: number; to: number } {
    const lane = m.lane[i] as number;
    const legCol = m.args[m.argKeys.indexOf("leg")];
    let a = i;
    let b = i;
    if (legCol !== undefined) {
      const leg = legCol[i];
      const lo = m.laneFirst[lane] as number;
      const hi = m.laneFirst[lane + 1] as number;
      while (a > lo && legCol[a - 1] === leg) a--;
      while (b + 1 < hi && legCol[b + 1] === leg) b++;
    }
    return { lane, from: m.start[a] as number, to: m.end[b] as number };
  }

  /** The waits into and out of a slice's leg: arrow indexes. */
  private waitsOf(m: TraceModel, i: number): { into: number[]; out: number[] } {
    const { lane, from, to } = this.legSpan(m, i);
    const into: number[] = [];
    const out: number[] = [];
    const eps = 0.002;
    for (let k = 0; k < m.arrowToLane.length; k++) {
      const tt = m.arrowToTime[k] as number;
      if (m.arrowToLane[k] === lane && tt >= from - eps && tt <= to + eps) into.push(k);
      const ft = m.arrowFromTime[k] as number;
      if (m.arrowFromLane[k] === lane && ft >= from - eps && ft <= to + eps) out.push(k);
    }
    return { into, out };
  }

  private drawWaits(g: CanvasRenderingContext2D, m: TraceModel, y0: number, c: Colours): void {
    for (const [i, colour] of [
      [this.selected, c.selected],
      [this.hovered, c.hovered],
    ] as const) {
      if (i < 0) continue;
      const y = y0 + (m.lane[i] as number) * LANE_H;
      g.strokeStyle = colour;
      g.lineWidth = 1.5;
      const x0 = this.x(m.start[i] as number);
      g.strokeRect(x0 - 1, y + 1, Math.max(2, this.x(m.end[i] as number) - x0 + 2), LANE_H - 2);
      const { into, out } = this.waitsOf(m, i);
      g.fillStyle = colour;
      g.lineWidth = 1;
      for (const k of [...into, ...out]) {
        const ay0 = y0 + (m.arrowFromLane[k] as number) * LANE_H + LANE_H / 2;
        const ay1 = y0 + (m.arrowToLane[k] as number) * LANE_H + LANE_H / 2;
        arrow(g, this.x(m.arrowFromTime[k] as number), ay0, this.x(m.arrowToTime[k] as number), ay1);
      }
    }
  }

  private drawAxis(g: CanvasRenderingContext2D, w: number, h: number, c: Colours): void {
    g.fillStyle = c.panel;
    g.fillRect(0, 0, w, AXIS_H);
    const step = niceStep(this.v1 - this.v0, 8);
    g.strokeStyle = c.rule;
    g.fillStyle = c.label;
    for (let t = Math.ceil(this.v0 / step) * step; t <= this.v1; t += step) {
      const x = this.x(t);
      if (x < this.gutter || x > w - 90) continue;
      g.beginPath();
      g.moveTo(x, AXIS_H - 4);
      g.lineTo(x, h);
      g.stroke();
      g.fillText(`${+t.toFixed(4)} µs`, x + 2, 12);
    }
    g.fillText("time →", w - 44, 12);
  }

  /** The slice under a point (within 2 px), or -1. */
  private sliceAt(px: number, py: number): number {
    const m = this.model;
    if (m === undefined || px < this.gutter || py < AXIS_H) return -1;
    const lane = Math.floor((py - AXIS_H + this.wrap.scrollTop) / LANE_H);
    if (lane < 0 || lane >= m.lanes.length) return -1;
    const tol = (2 / this.plotWidth()) * (this.v1 - this.v0);
    const t = this.t(px);
    const i = firstEndingAfter(m, lane, t - tol);
    const hi = m.laneFirst[lane + 1] as number;
    return i < hi && (m.start[i] as number) <= t + tol ? i : -1;
  }

  private hover(px: number, py: number): void {
    const m = this.model;
    const i = this.sliceAt(px, py);
    if (i !== this.hovered) {
      this.hovered = i;
      this.schedule();
    }
    if (m === undefined || i < 0) {
      this.tip.hidden = true;
      return;
    }
    this.tip.hidden = false;
    this.tip.textContent = this.describe(m, i, false);
    this.tip.style.left = `${Math.min(px + 12, this.canvas.clientWidth - 220)}px`;
    this.tip.style.top = `${py + 12 + this.wrap.scrollTop}px`;
  }

  /** Select slice `i` (-1: none) and write its details. */
  private select(i: number): void {
    const m = this.model;
    this.selected = i;
    this.details.textContent = m === undefined || i < 0 ? "no slice selected" : this.describe(m, i, true);
    this.schedule();
  }

  /** Select the next (+1) or previous (-1) slice of the selected slice's lane (else the first in view). */
  private step(dir: 1 | -1): void {
    const m = this.model;
    if (m === undefined || m.start.length === 0) return;
    if (this.selected < 0) {
      const lane = this.view(this.wrap.clientHeight).first;
      const i = firstEndingAfter(m, lane, this.v0);
      this.select(Math.min(i, (m.laneFirst[lane + 1] as number) - 1));
      return;
    }
    const lane = m.lane[this.selected] as number;
    const next = this.selected + dir;
    if (next < (m.laneFirst[lane] as number) || next >= (m.laneFirst[lane + 1] as number)) return;
    this.select(next);
    const s = m.start[next] as number;
    const e = m.end[next] as number;
    if (e < this.v0 || s > this.v1) this.setWindow(s - (this.v1 - this.v0) / 2, s + (this.v1 - this.v0) / 2);
  }

  /** A slice in words: name, lane, times, arguments and (in full) the waits of its leg. */
  private describe(m: TraceModel, i: number, full: boolean): string {
    const s = m.start[i] as number;
    const e = m.end[i] as number;
    const lines = [
      `${m.names[m.name[i] as number]} — ${m.lanes[m.lane[i] as number]}`,
      `${s.toFixed(3)}–${e.toFixed(3)} µs (${(e - s).toFixed(4)} µs)`,
      sliceArgs(m, i)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(" · "),
    ];
    if (!full) return lines.join("\n");
    const { into, out } = this.waitsOf(m, i);
    const at = (lane: number, t: number) => `${m.lanes[lane]} at ${t.toFixed(3)} µs`;
    const list = (ks: number[], side: "from" | "to") =>
      ks
        .slice(0, LISTED_WAITS)
        .map((k) =>
          side === "from"
            ? at(m.arrowFromLane[k] as number, m.arrowFromTime[k] as number)
            : at(m.arrowToLane[k] as number, m.arrowToTime[k] as number),
        )
        .join("; ") + (ks.length > LISTED_WAITS ? `; … ${ks.length - LISTED_WAITS} more` : "");
    lines.push(`its leg waits on ${into.length} leg(s)${into.length > 0 ? `: ${list(into, "from")}` : ""}`);
    lines.push(`${out.length} leg(s) wait on it${out.length > 0 ? `: ${list(out, "to")}` : ""}`);
    return lines.join("\n");
  }
}

/** A gutter wide enough for every lane's name, so none is cut under the slices. */
function gutterFor(lanes: readonly string[]): number {
  const g = document.createElement("canvas").getContext("2d");
  if (g === null) return MIN_GUTTER;
  g.font = LANE_FONT;
  let widest = 0;
  for (const name of new Set(lanes)) widest = Math.max(widest, g.measureText(name).width);
  return Math.max(MIN_GUTTER, Math.ceil(widest) + 10);
}

function arrow(g: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.stroke();
  const a = Math.atan2(y1 - y0, x1 - x0);
  g.beginPath();
  g.moveTo(x1, y1);
  g.lineTo(x1 - 6 * Math.cos(a - 0.4), y1 - 6 * Math.sin(a - 0.4));
  g.lineTo(x1 - 6 * Math.cos(a + 0.4), y1 - 6 * Math.sin(a + 0.4));
  g.fill();
}
