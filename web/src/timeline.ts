/**
 * The timeline of a traced size on a canvas: a lane per DMA queue, packets as slices coloured by
 * leg kind, semaphore waits as arrows; the wheel zooms around the pointer, dragging pans, hovering
 * names the slice. Drawn in the page from the worker's trace — nothing is sent anywhere.
 */
import { el } from "./dom.js";
import { niceStep } from "./nice-step.js";
import type { Slice, TraceModel } from "./trace-model.js";

const LANE_H = 16;
const GUTTER = 110;
const AXIS_H = 22;
const PALETTE = ["#4c7df0", "#f08a4c", "#3fb37f", "#b85cd6", "#d6b13f", "#d64c6b"];

export class Timeline {
  readonly root: HTMLElement;
  private readonly canvas = el("canvas", { id: "timeline" });
  private readonly tip = el("div", { class: "tip", hidden: "" });
  private readonly legend = el("div", { class: "muted", id: "timeline-legend" });
  private model: TraceModel | undefined;
  /** The visible window in µs. */
  private v0 = 0;
  private v1 = 1;

  constructor() {
    const zoom = (f: number) => () => this.zoomAt(f, 0.5);
    const button = (text: string, id: string, on: () => void) => {
      const b = el("button", { type: "button", id }, text);
      b.addEventListener("click", on);
      return b;
    };
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
      el(
        "div",
        { class: "timeline-wrap", tabindex: "0", role: "region", "aria-label": "timeline" },
        this.canvas,
        this.tip,
      ),
    );
    this.canvas.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        this.zoomAt(e.deltaY > 0 ? 1.25 : 0.8, this.fractionAt(e.offsetX));
      },
      { passive: false },
    );
    let drag: { x: number; v0: number; v1: number } | undefined;
    this.canvas.addEventListener("pointerdown", (e) => {
      drag = { x: e.offsetX, v0: this.v0, v1: this.v1 };
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener("pointerup", () => {
      drag = undefined;
    });
    this.canvas.addEventListener("pointermove", (e) => {
      if (drag !== undefined) {
        const dt = ((e.offsetX - drag.x) / this.plotWidth()) * (drag.v1 - drag.v0);
        this.v0 = drag.v0 - dt;
        this.v1 = drag.v1 - dt;
        this.draw();
      } else this.hover(e.offsetX, e.offsetY);
    });
    this.canvas.addEventListener("pointerleave", () => {
      this.tip.hidden = true;
    });
  }

  /** Show a trace, zoomed out to all of it. */
  show(model: TraceModel): void {
    this.model = model;
    this.legend.replaceChildren(
      `${model.queues} queues · ${model.packets} packets · ${model.arrows.length} semaphore waits · `,
      ...model.kinds.flatMap((k, i) => [
        el("span", { style: `color: ${PALETTE[i % PALETTE.length]}` }, "■"),
        ` ${k}  `,
      ]),
    );
    this.reset();
  }

  private reset(): void {
    if (this.model === undefined) return;
    const pad = (this.model.t1 - this.model.t0) * 0.01;
    this.v0 = this.model.t0 - pad;
    this.v1 = this.model.t1 + pad;
    this.draw();
  }

  private plotWidth(): number {
    return Math.max(1, this.canvas.clientWidth - GUTTER);
  }

  private fractionAt(px: number): number {
    return Math.min(1, Math.max(0, (px - GUTTER) / this.plotWidth()));
  }

  private zoomAt(factor: number, fraction: number): void {
    const at = this.v0 + fraction * (this.v1 - this.v0);
    this.v0 = at - (at - this.v0) * factor;
    this.v1 = at + (this.v1 - at) * factor;
    this.draw();
  }

  private x(t: number): number {
    return GUTTER + ((t - this.v0) / (this.v1 - this.v0)) * this.plotWidth();
  }

  private draw(): void {
    const m = this.model;
    if (m === undefined) return;
    this.canvas.dataset.window = `${this.v0} ${this.v1}`;
    const dpr = window.devicePixelRatio || 1;
    const cssW = this.canvas.clientWidth || 800;
    const cssH = AXIS_H + m.lanes.length * LANE_H + 4;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = cssW * dpr;
    this.canvas.height = cssH * dpr;
    const g = this.canvas.getContext("2d");
    if (g === null) return;
    g.scale(dpr, dpr);
    g.clearRect(0, 0, cssW, cssH);
    g.font = "10px system-ui, sans-serif";
    this.drawAxis(g, cssW, cssH);
    m.lanes.forEach((name, i) => {
      if (i % 2 === 1) {
        g.fillStyle = "#f4f6f9";
        g.fillRect(0, AXIS_H + i * LANE_H, cssW, LANE_H);
      }
      g.fillStyle = "#4a5468";
      g.fillText(name, 4, AXIS_H + i * LANE_H + 11);
    });
    g.save();
    g.beginPath();
    g.rect(GUTTER, 0, cssW - GUTTER, cssH);
    g.clip();
    for (const s of m.slices) {
      const x0 = this.x(s.start);
      const x1 = this.x(s.end);
      if (x1 < GUTTER || x0 > cssW) continue;
      g.fillStyle = PALETTE[m.kinds.indexOf(s.kind) % PALETTE.length] as string;
      g.fillRect(x0, AXIS_H + s.lane * LANE_H + 2, Math.max(1, x1 - x0 - 0.5), LANE_H - 4);
    }
    // Many waits would hide the slices: the more arrows, the fainter each.
    const alpha = Math.min(0.6, Math.max(0.08, 12 / Math.sqrt(m.arrows.length + 1) / 4));
    g.strokeStyle = `rgb(29 35 48 / ${alpha})`;
    g.fillStyle = `rgb(29 35 48 / ${Math.min(0.8, alpha * 1.5)})`;
    g.lineWidth = 0.8;
    for (const a of m.arrows)
      this.arrow(g, this.x(a.fromTime), this.laneY(a.fromLane), this.x(a.toTime), this.laneY(a.toLane));
    g.restore();
  }

  private laneY(lane: number): number {
    return AXIS_H + lane * LANE_H + LANE_H / 2;
  }

  private drawAxis(g: CanvasRenderingContext2D, w: number, h: number): void {
    const step = niceStep(this.v1 - this.v0, 8);
    g.strokeStyle = "#e3e6ec";
    g.fillStyle = "#4a5468";
    for (let t = Math.ceil(this.v0 / step) * step; t <= this.v1; t += step) {
      const x = this.x(t);
      if (x < GUTTER || x > w - 90) continue;
      g.beginPath();
      g.moveTo(x, AXIS_H - 4);
      g.lineTo(x, h);
      g.stroke();
      g.fillText(`${+t.toFixed(3)} µs`, x + 2, 12);
    }
    g.fillText("time →", w - 44, 12);
  }

  private arrow(g: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
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

  private hover(px: number, py: number): void {
    const m = this.model;
    const lane = Math.floor((py - AXIS_H) / LANE_H);
    const t = this.v0 + this.fractionAt(px) * (this.v1 - this.v0);
    const s: Slice | undefined = m?.slices.find((x) => x.lane === lane && x.start <= t && t <= x.end);
    if (m === undefined || s === undefined || px < GUTTER) {
      this.tip.hidden = true;
      return;
    }
    this.tip.hidden = false;
    this.tip.textContent = `${s.name} — ${m.lanes[s.lane]}\n${s.start.toFixed(3)}–${s.end.toFixed(3)} µs\n${Object.entries(
      s.args,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(" · ")}`;
    this.tip.style.left = `${Math.min(px + 12, this.canvas.clientWidth - 220)}px`;
    this.tip.style.top = `${py + 12}px`;
  }
}
