/**
 * Admission control: how much host memory a functional run will take, known before any buffer is
 * built, and the refusal when that is more than the run may use (issue 16, reliability D1).
 *
 * The estimate follows the allocator (engine/memory/memory.ts, engine/memory/page-arenas.ts): device memory is
 * backed in 1 MiB pages on first write, and a run may write every byte of every rank's buffers and
 * guards (inputs generated in, outputs and scratch pre-filled) and its queues' rings; each arena
 * touches its kernel scratch block. An upper bound: a page the pre-fill sets whole takes memory only
 * once the plan writes it (a plan without scratch never does). The check adds: nothing of a buffer's size with exact data
 * (tile by tile), and with the scalar reference a copy of every rank's input, output and scratch
 * plus the inputs read back for it. test/collectives/host-memory.test.ts holds the device and check
 * terms to the bytes the run allocates.
 */
import { UsageError } from "../../bits/errors.js";
import { ARENA_SCRATCH_BYTES, FIRST_ARENA_BYTES, MAX_ARENA_BYTES, PAGE_BYTES } from "../../engine/index.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { DESCRIPTOR_BYTES } from "../../spec/packet-model.js";
import type { Plan } from "../plan/plan.js";
import { formatBytes } from "../report/format-bytes.js";
import type { BufferLayout } from "./buffer-layout.js";
import { legQueue, RING_SLOTS, ringBaseOf } from "./device-machine.js";

/**
 * MODEL: host bytes per leg of a materialised plan (the leg, its schedule entry) and per packet
 * (the engine event the device machine keeps). Heap growth (node --expose-gc) over plan, schedule
 * and run of 8- and 16-rank plans gave 0.5–1.3 KiB a leg with one packet each and ≈ 0.7 KiB a
 * packet on an 8-rank kangaring plan with seven a leg; rounded up.
 */
export const LEG_HOST_BYTES = 1536;
export const PACKET_HOST_BYTES = 768;
/** MODEL: the process before any run (Node, the modules, the wasm kernels). */
export const BASE_HOST_BYTES = 96 << 20;

export interface HostEstimate {
  /** Device pages the run writes (the allocator's page size over the layout; rings: every channel). */
  readonly pageBytes: number;
  /** The pages and each arena's kernel scratch block. */
  readonly deviceBytes: number;
  /** What the check holds: the scalar reference's buffers, or nothing with exact data. */
  readonly checkBytes: number;
  /** Plan, schedule and engine events (MODEL: {@link LEG_HOST_BYTES}, {@link PACKET_HOST_BYTES}). */
  readonly planBytes: number;
  /** All of the above and {@link BASE_HOST_BYTES}. */
  readonly totalBytes: number;
}

/** Pages of [from, to) not already counted (spans come in address order; `last` is the last page counted). */
function newPages(from: bigint, to: bigint, last: { page: bigint }): number {
  const P = BigInt(PAGE_BYTES);
  let first = from / P;
  const end = (to - 1n) / P;
  if (first <= last.page) first = last.page + 1n;
  if (end < first) return 0;
  last.page = end;
  return Number(end - first + 1n);
}

/** A region of device memory, [from, to). */
type Region = readonly [bigint, bigint];

/**
 * Pages of the rings of these device ranks' queues: each queue's pair in its engine's stack
 * (ringBaseOf), every channel of the rank (lnc cores' engines, as the device machine maps them).
 * (An upper bound: a run may use fewer channels than the core has engines.)
 */
function ringPages(profile: ArchProfile, lnc: 1 | 2, deviceRanks: Iterable<number>): number {
  const ringBytes = BigInt(2 * RING_SLOTS * DESCRIPTOR_BYTES);
  const P = BigInt(PAGE_BYTES);
  const pages = new Set<bigint>();
  for (const r of deviceRanks) {
    for (let c = 0; c < lnc * profile.dmaEnginesPerCore; c++) {
      const at = ringBaseOf(profile, legQueue(profile, lnc, r, c));
      pages.add(at / P).add((at + ringBytes - 1n) / P);
    }
  }
  return pages.size;
}

/** Each rank's region of the layout: its first guard to the end of its last. */
function rankRegions(layout: BufferLayout): Region[] {
  return Array.from({ length: layout.plan.ranks }, (_, r) => {
    const g = layout.guards(r);
    const end = g[g.length - 1]!;
    return [g[0]!.addr, end.addr + BigInt(end.bytes)] as const;
  });
}

/** Pages the regions cover, each page once (regions in address order; stacks are apart). */
function regionPages(regions: Region[]): number {
  const sorted = [...regions].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const last = { page: -1n };
  let pages = 0;
  for (const [from, to] of sorted) pages += newPages(from, to, last);
  return pages;
}

/** Device pages written by a run of this layout: every rank's guarded buffers and the rings its queues use. */
function devicePages(layout: BufferLayout, profile: ArchProfile): number {
  const ranks = Array.from({ length: layout.plan.ranks }, (_, r) => r);
  return regionPages(rankRegions(layout)) + ringPages(profile, layout.plan.lnc, ranks);
}

/** A group of a concurrent run as the shared device places it (concurrent-machine.ts). */
export interface PlacedGroup {
  readonly layout: BufferLayout;
  /** Per group rank: the device rank whose queues it drives. */
  readonly deviceRank: readonly number[];
  readonly check: "exact" | "reference" | "none";
}

/** Arenas holding `pageBytes` of pages (page-arenas.ts: 16 MiB, then 1 GiB each, a scratch block in each). */
function arenaCount(pageBytes: number): number {
  const first = FIRST_ARENA_BYTES - ARENA_SCRATCH_BYTES;
  if (pageBytes <= first) return 1;
  const per = Math.floor((MAX_ARENA_BYTES - ARENA_SCRATCH_BYTES) / PAGE_BYTES) * PAGE_BYTES;
  return 1 + Math.ceil((pageBytes - Math.floor(first / PAGE_BYTES) * PAGE_BYTES) / per);
}

/** How many legs and packets a run's plan holds while it runs (0 where not known yet). */
export interface PlanCounts {
  readonly legs: number;
  readonly packets: number;
}

const planHostBytes = (c: PlanCounts): number => c.legs * LEG_HOST_BYTES + c.packets * PACKET_HOST_BYTES;

/**
 * The host memory of a functional run of the layout's plan (its legs are not read: `counts` are
 * their numbers, 0 where not known yet).
 * @example estimateHostMemory(deviceLayout(plan, profile), profile, "exact", { legs: 1792, packets: 99328 }).totalBytes;
 */
export function estimateHostMemory(
  layout: BufferLayout,
  profile: ArchProfile,
  check: "exact" | "reference" | "none",
  counts: PlanCounts,
): HostEstimate {
  const plan: Plan = layout.plan;
  return totalOf(devicePages(layout, profile), referenceBytes(plan, check), planHostBytes(counts));
}

/** What the scalar reference holds for a plan: every rank's input, output and scratch, and the inputs read back. */
function referenceBytes(plan: Plan, check: "exact" | "reference" | "none"): number {
  const s = plan.sizes;
  return check === "reference"
    ? plan.ranks * (2 * s.input + s.output + s.scratch) * dtypeBytes(plan.dtype)
    : 0;
}

/** The estimate of a run writing `pages` device pages. */
function totalOf(pages: number, checkBytes: number, planBytes: number): HostEstimate {
  const pageBytes = pages * PAGE_BYTES;
  const deviceBytes = pageBytes + arenaCount(pageBytes) * ARENA_SCRATCH_BYTES;
  const totalBytes = deviceBytes + checkBytes + planBytes + BASE_HOST_BYTES;
  return { pageBytes, deviceBytes, checkBytes, planBytes, totalBytes };
}

/**
 * The host memory of a concurrent run on one shared device: every group's guarded buffers where
 * the device places them, the rings of every device rank's queues, and the largest group's check
 * (groups are checked one after another, each check's buffers dropped before the next).
 * @example estimateSharedHostMemory(groups, profile, 1, { legs: 0, packets: 0 }).totalBytes;
 */
export function estimateSharedHostMemory(
  groups: readonly PlacedGroup[],
  profile: ArchProfile,
  lnc: 1 | 2,
  counts: PlanCounts,
): HostEstimate {
  const regions = groups.flatMap((g) => rankRegions(g.layout));
  const deviceRanks = new Set(groups.flatMap((g) => g.deviceRank));
  const pages = regionPages(regions) + ringPages(profile, lnc, deviceRanks);
  const checkBytes = Math.max(0, ...groups.map((g) => referenceBytes(g.layout.plan, g.check)));
  return totalOf(pages, checkBytes, planHostBytes(counts));
}

/** How much host memory a run may use, and where that number comes from (for the message). */
export interface HostBudget {
  readonly bytes: number;
  /** e.g. "--max-memory", "half the free memory". */
  readonly source: string;
}

/**
 * MODEL: the budget of a run given none (the library, the web page): 4 GiB, what a browser tab or a
 * small machine can hold; the CLI gives half the free memory or --max-memory. `{ bytes: Infinity }`
 * lifts it.
 */
export const DEFAULT_HOST_BUDGET: HostBudget = Object.freeze({
  bytes: 4 * 2 ** 30,
  source: "the library's default; give hostBudget",
});

/**
 * Refuse a run whose estimate exceeds the budget.
 * @throws UsageError naming the estimate, the budget and its source, and what to do instead.
 */
export function admit(
  what: string,
  estimate: HostEstimate,
  budget: HostBudget | undefined = DEFAULT_HOST_BUDGET,
): void {
  if (estimate.totalBytes <= budget.bytes) return;
  const parts = [`device buffers ${formatBytes(estimate.deviceBytes)}`];
  if (estimate.checkBytes > 0) parts.push(`check ${formatBytes(estimate.checkBytes)}`);
  throw new UsageError(
    `${what} needs ≈ ${formatBytes(estimate.totalBytes)} of host memory (${parts.join(", ")}); ` +
      `the budget is ${formatBytes(budget.bytes)} (${budget.source}): use --timing-only, fewer ranks, ` +
      "a smaller size or --max-memory",
  );
}
