/**
 * The device pages of a run split over threads (threaded-execute.ts): those its legs write, which
 * are allocated before it and shared (engine DeviceMemory.sharePages), and among them those a leg
 * overwrites whole before any leg reads them, which need not be set to the byte they read as first.
 */
import { PAGE_BYTES } from "../../engine/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { type DeviceMachine, legQueue, RING_SLOTS, ringBaseOf } from "../device/device-machine.js";

/** Bytes of a queue's TX and RX rings (device-machine.ts ringBaseOf: the RX ring right after). */
const RING_PAIR_BYTES = 2 * RING_SLOTS * 16;

/** Pages [lo, hi) of device memory touches, added to `pages`. */
function addPages(pages: Set<number>, lo: number, hi: number): void {
  for (let p = Math.floor(lo / PAGE_BYTES); p * PAGE_BYTES < hi; p++) pages.add(p);
}

/** The device pages a run of the plan writes: its legs' destinations and their queues' rings. */
export function writtenPages(machine: DeviceMachine): Set<number> {
  const { plan, profile, layout } = machine;
  const eb = dtypeBytes(plan.dtype);
  const pages = new Set<number>();
  const queues = new Set<bigint>();
  for (const leg of plan.legs) {
    queues.add(ringBaseOf(profile, legQueue(profile, plan.lnc, leg.rank, leg.queue)));
    for (const d of leg.dsts) {
      const at = Number(layout.addr(d, 0));
      addPages(pages, at, at + leg.count * eb);
    }
  }
  for (const base of queues) addPages(pages, Number(base), Number(base) + RING_PAIR_BYTES);
  return pages;
}

/** Add [lo, hi) to the sorted, disjoint spans `spans` (flat pairs), merging what meets. */
function cover(spans: number[], lo: number, hi: number): void {
  let i = 0;
  while (i < spans.length && (spans[i + 1] as number) < lo) i += 2;
  let j = i;
  while (j < spans.length && (spans[j] as number) <= hi) {
    lo = Math.min(lo, spans[j] as number);
    hi = Math.max(hi, spans[j + 1] as number);
    j += 2;
  }
  spans.splice(i, j - i, lo, hi);
}

/** Whether [lo, hi) lies inside one of the sorted, disjoint spans `spans` (flat pairs). */
function inside(spans: readonly number[] | undefined, lo: number, hi: number): boolean {
  if (spans === undefined) return false;
  for (let i = 0; i < spans.length; i += 2)
    if ((spans[i] as number) <= lo && hi <= (spans[i + 1] as number)) return true;
  return false;
}

/**
 * The pages of legs' destinations whose every byte some leg writes before any leg reads it (plan
 * order; a leg reads its sources before it writes). Whatever such a page holds before the run is
 * never seen: not by a leg, nor by the checks after it (every byte is written).
 */
export function overwrittenPages(machine: DeviceMachine): Set<number> {
  const { plan, layout } = machine;
  const eb = dtypeBytes(plan.dtype);
  const written = new Map<number, number[]>();
  const read = new Set<number>();
  const whole = new Set<number>();
  for (const leg of plan.legs) {
    const bytes = leg.count * eb;
    for (const s of leg.srcs) {
      const at = Number(layout.addr(s.ref, 0));
      for (let p = Math.floor(at / PAGE_BYTES); p * PAGE_BYTES < at + bytes; p++) {
        const base = p * PAGE_BYTES;
        const lo = Math.max(at, base) - base;
        const hi = Math.min(at + bytes, base + PAGE_BYTES) - base;
        if (!whole.has(p) && !inside(written.get(p), lo, hi)) read.add(p);
      }
    }
    for (const d of leg.dsts) {
      const at = Number(layout.addr(d, 0));
      for (let p = Math.floor(at / PAGE_BYTES); p * PAGE_BYTES < at + bytes; p++) {
        if (read.has(p) || whole.has(p)) continue;
        const base = p * PAGE_BYTES;
        const spans = written.get(p) ?? [];
        written.set(p, spans);
        cover(spans, Math.max(at, base) - base, Math.min(at + bytes, base + PAGE_BYTES) - base);
        if (spans[0] === 0 && spans[1] === PAGE_BYTES) {
          whole.add(p);
          written.delete(p);
        }
      }
    }
  }
  return whole;
}
