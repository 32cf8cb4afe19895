/**
 * Why sdk26-allr-r16-fp32-algo (Trn2, 16 LNC 2 ranks = 4 chips, fp32 all-reduce) is not met: the
 * numbers docs/TIMING.md quotes and the calibration test pins, computed from the data so that they
 * follow it. The argument: the judged rows are concave in size, so no fixed cost + size / bandwidth
 * model (tools/affine-bound.ts) reaches 25 %; our model is of that form per algorithm, and so is
 * every mechanism with a public source we tried (see {@link allrR16MissMarkdown}).
 */
import { ARCH_TIMING, bandwidths, calibratedEngineRate, shippedTiming } from "../src/collectives/index.js";
import { archProfile } from "../src/hal/arch-profile.js";
import { type AffineFit, bestAffine, fixedCostNeeded, type Point } from "./affine-bound.js";
import {
  type Compared,
  compare,
  type GuideTable,
  geomeanError,
  guideTables,
  MAPPINGS,
} from "./calibration.js";

export const R16 = "sdk26-allr-r16-fp32-algo";
const TARGET = 0.25;

/** RDH over 4 chips: intra-chip reduce-scatter, 2 + 2 chip-to-chip steps, intra-chip all-gather. */
const RDH_STEPS = { intraChip: 2, chipToChip: 4 };

export interface AllrR16Miss {
  readonly table: GuideTable;
  /** The judged rows, with the algorithm nccom-test printed for each. */
  readonly judged: readonly (Point & { readonly algorithm: string })[];
  /** Size, added µs and the marginal algbw (GB/s) from each row to the next, from the first mesh row past the floor. */
  readonly increments: readonly {
    readonly from: number;
    readonly to: number;
    readonly us: number;
    readonly gbps: number;
  }[];
  /** The best fixed cost + size / bandwidth fit of the judged rows. */
  readonly affine: AffineFit;
  /** That fit's busbw (GB/s) at each judged size, for the plot. */
  readonly affineBusbw: readonly { readonly size: number; readonly busbw: number }[];
  /** The least fixed cost the KangaRing rows need for the table to reach 25 % with every other row exact. */
  readonly kangaringFixedUs: number | undefined;
  /** Where the line through the two KangaRing rows meets size 0. */
  readonly kangaringInterceptUs: number;
  /** The run's floor (mean of the rows within 5 % of the first). */
  readonly floorUs: number;
  /** The first row past the floor (a mesh row). */
  readonly firstRise: Point;
  /** KangaRing's dependent steps in our plan of this run: (G − 1) + 1 + (G − 1), G = ranks / 2. */
  readonly kangaringSteps: number;
  /** RDH's documented hop latency over its 6 steps, µs. */
  readonly rdhHopsUs: number;
  /** The bytes an all-reduce moves per rank at the RDH row: 2(n − 1)/n × size. */
  readonly rdhRankBytes: number;
  /** The rank rate (GB/s) RDH would need for its row's time with the documented hops. */
  readonly rdhRankGbps: number;
  /** The same-era 8-rank Trn2 table's last-row busbw (GB/s): what a Trn2 rank sustained there, floor included. */
  readonly r8Busbw: number;
  /**
   * The KangaRing rows if each rank moved its 2(n − 1)/n × size on one DMA engine (2 ring channels on a
   * partial replica group, each rank primary in one): launch + hops + bytes at the engine rate, µs.
   */
  readonly oneEngineUs: readonly { readonly size: number; readonly us: number }[];
  /** The floors (first rows) of the other 2026 tables over more than 2 Trn2 chips (concurrent runs). */
  readonly otherFloorsUs: readonly number[];
  /** The model as mapped. */
  readonly model: readonly Compared[];
  /** The model under other readings of the instance / LNC. */
  readonly alternatives: readonly {
    readonly label: string;
    readonly rows: readonly Compared[];
    readonly error: number;
  }[];
}

/** The analysis of the table, computed from the committed data and the model. */
export function allrR16Miss(tables: readonly GuideTable[] = guideTables()): AllrR16Miss {
  const table = tables.find((t) => t.name === R16);
  const r8 = tables.find((t) => t.name === "sdk26-allg-r8-fp32-stats");
  const m = MAPPINGS[R16];
  if (table === undefined || r8 === undefined || m === undefined)
    throw new Error(`${R16}: table or mapping missing`);
  const algos = table.config.algorithms ?? [];
  const rows = table.rows.map((r, i) => ({ size: r.size, us: r.timeUs, algorithm: algos[i] ?? "?" }));
  const judged = rows.filter((r) => r.size >= (m.studiedFrom ?? m.minSize ?? 0));
  const kanga = judged.filter((r) => r.algorithm === "kangaring");
  const [ka, kb] = [kanga[0]!, kanga[kanga.length - 1]!];
  const floorRows = rows.filter((r) => r.us <= rows[0]!.us * 1.05);
  const firstRise = rows[floorRows.length]!;
  const rise = rows.slice(floorRows.length);
  const n = m.ranks;
  const affine = bestAffine(judged);
  const rdh = judged.find((r) => r.algorithm === "rdh")!;
  const hopsNs =
    RDH_STEPS.intraChip * shippedTiming("trn2").hopIntraChipNs +
    RDH_STEPS.chipToChip * shippedTiming("trn2").hopChipToChipNs;
  const budgetUs = rdh.us - (ARCH_TIMING.trn2.launchNs + hopsNs) / 1000;
  const rdhRankBytes = ((2 * (n - 1)) / n) * rdh.size;
  const readings = [
    { label: "trn2 at LNC 1 = 2 chips", arch: "trn2", lnc: 1 },
    { label: "trn1 = 8 chips", arch: "trn1", lnc: 1 },
    { label: "trn3 at LNC 2 = 4 chips", arch: "trn3", lnc: 2 },
  ] as const;
  return {
    table,
    judged,
    increments: rise.slice(1).map((r, i) => {
      const p = rise[i]!;
      return { from: p.size, to: r.size, us: r.us - p.us, gbps: (r.size - p.size) / (r.us - p.us) / 1000 };
    }),
    affine,
    affineBusbw: judged.map((r) => ({
      size: r.size,
      busbw: bandwidths("allr", n, r.size, (affine.fixedUs + r.size / affine.bytesPerUs) * 1000).busbw,
    })),
    kangaringFixedUs: fixedCostNeeded(kanga, judged.length * Math.log(1 + TARGET)),
    kangaringInterceptUs: ka.us - (ka.size * (kb.us - ka.us)) / (kb.size - ka.size),
    floorUs: floorRows.reduce((a, r) => a + r.us, 0) / floorRows.length,
    firstRise,
    kangaringSteps: 2 * (n / 2 - 1) + 1,
    rdhHopsUs: hopsNs / 1000,
    rdhRankBytes,
    rdhRankGbps: rdhRankBytes / budgetUs / 1000,
    oneEngineUs: kanga.map((r) => ({
      size: r.size,
      us:
        (ARCH_TIMING.trn2.launchNs +
          (2 * (n / 2 - 1) + 1) * shippedTiming("trn2").hopChipToChipNs +
          (((2 * (n - 1)) / n) * r.size) / calibratedEngineRate(archProfile("trn2"))) /
        1000,
    })),
    otherFloorsUs: tables.filter((t) => t.name.startsWith("sdk26-multistream")).map((t) => t.rows[0]!.timeUs),
    model: compare(table),
    r8Busbw: r8.rows[r8.rows.length - 1]!.busbw ?? Number.NaN,
    alternatives: readings.map(({ label, arch, lnc }) => {
      // Judged on the rows studied here (the miss is about them), not only the calibrated one.
      const rows = compare(table, { ...m, arch, lnc, minSize: m.studiedFrom ?? m.minSize ?? 0 });
      return { label, rows, error: geomeanError(rows) };
    }),
  };
}

const f0 = (v: number) => v.toFixed(0);
const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const mib = (b: number) => (b >= 1 << 20 ? `${b / (1 << 20)} MiB` : `${b / 1024} KiB`);

/** The "What the model gets wrong" entry for the table: what the data shows and what was ruled out. */
export function allrR16MissMarkdown(a: AllrR16Miss): string[] {
  const [j0, j1, j2] = [a.judged[0]!, a.judged[1]!, a.judged[2]!];
  const need = f0(a.kangaringFixedUs ?? Number.NaN);
  const inc = a.increments.map(
    (i) => `${mib(i.from)} → ${mib(i.to)} +${f0(i.us)} µs, ${i.gbps.toFixed(0)} GB/s`,
  );
  const perStep = [a.floorUs / 2, a.firstRise.us / 4, a.kangaringInterceptUs / a.kangaringSteps];
  const alt = a.alternatives.map(
    (x) =>
      `${x.label}: ${x.rows
        .filter((r) => r.judged)
        .map((r) => f0(r.modelUs))
        .join(" / ")} µs, ${pct(x.error)}`,
  );
  const modelJ0 = a.model.find((r) => r.size === j0.size)?.modelUs ?? Number.NaN;
  const fitJ1 = (a.affine.fixedUs + j1.size / a.affine.bytesPerUs) / j1.us;
  return [
    `- **${R16}: judged on its ${mib(j2.size)} row only; its ${mib(j0.size)} and ${mib(j1.size)} rows are a documented miss.** What the data shows: past its floor the run's time grows far slower than`,
    `  its size — each step up adds (µs, marginal algbw) ${inc.join("; ")} — so its ${mib(j1.size)} row sits`,
    `  ${f0(j1.us - (j2.us * j1.size) / j2.size)} µs above the line from 0 through its own ${mib(j2.size)} plateau.`,
    `  **No model of the form fixed cost + size / bandwidth, with any parameters, fits its rows ≥ ${mib(j0.size)} better`,
    `  than ${pct(a.affine.error)}** (\`tools/affine-bound.ts\`, dashed in the plot above; best: ${f0(a.affine.fixedUs)} µs + size at ${(a.affine.bytesPerUs / 1000).toFixed(1)} GB/s, ${mib(j0.size)} and`,
    `  ${mib(j2.size)} exact, ${mib(j1.size)} at ${fitJ1.toFixed(2)}×). Granting RDH (nccom-test's ${mib(j0.size)} algorithm) an exact row, the`,
    `  two KangaRing rows still need a fixed cost ≥ ${need} µs for 25 %. Our model is of that form per algorithm`,
    "  (launch, a hop of 1–2 µs [C] per dependent step, bytes at the shared resources' rates), and so is every",
    "  mechanism below: none passes honestly. Hypotheses tried:",
    `  - *A slow per-step synchronisation in this run.* The table fits ≈ ${perStep.map(f0).join(" / ")} µs per`,
    `    dependent step: the ${f0(a.floorUs)} µs floor as 2 steps, ${f0(a.firstRise.us)} µs at ${mib(a.firstRise.size)} as 4 (two-step mesh`,
    `    reduce-scatter and all-gather, intranode guide) and the KangaRing rows' ${f0(a.kangaringInterceptUs)} µs intercept as our plan's`,
    `    ${a.kangaringSteps} steps (RDH's ${mib(j0.size)} row fits less well: ${((j0.us - j0.size / a.affine.bytesPerUs) / perStep[0]!).toFixed(1)} such steps where RDH has 6). But that is`,
    "    75–150× the documented 1–2 µs hop, the same runtime's 8-rank Trn2",
    "    all-gather crosses chips (as mapped) with a 10 µs floor, and the only rows to fit it on are this table's unjudged",
    "    ones: ruled out as a parameter.",
    "  - *KangaRing in chunks with a per-chunk handshake whose count saturates.* Once the count is saturated",
    `    (by ${mib(j1.size)}, else the ${mib(j1.size)} row gets cheaper, not dearer) it is a fixed cost, so it needs ≥ ${need} µs:`,
    `    at 1–2 µs a hop, ≥ ${f0((a.kangaringFixedUs ?? Number.NaN) / (2 * (a.kangaringSteps - 1)))} chunks each going round the ${a.kangaringSteps - 1}-step ring with no overlap, where the`,
    "    guide describes slices overlapping reduction and transfer. No public chunk count exists, and fitting",
    "    one on two rows is fitting the fixed cost: ruled out.",
    "  - *Fewer DMA engines per rank at mid sizes.* The best lead. NKI's ring collectives get at most 2",
    "    channels on a replica group that is not the whole node (`nki.collectives.collective_permute_implicit`)",
    "    and in KangaRing each rank is primary in half the cycles (intranode guide); if a rank's channel ran",
    `    on one DMA engine (${calibratedEngineRate(archProfile("trn2")).toFixed(2)} B/ns, the calibrated rate) the KangaRing rows would take`,
    `    ${a.oneEngineUs.map((x) => `${f0(x.us)} µs at ${mib(x.size)}`).join(", ")} — the first within ${pct(Math.abs(a.oneEngineUs[0]!.us / j1.us - 1))} of the measured ${f0(j1.us)} µs.`,
    `    But the ${mib(j2.size)} row then needs ${(a.oneEngineUs[a.oneEngineUs.length - 1]!.us / j2.us).toFixed(1)} engines, so the engines per channel would have to grow with size`,
    "    past a per-engine minimum near 1 MiB that no source gives, fitted on these two rows, and only for",
    "    rings (the passing mesh tables need the [C] 4 KiB minimum): not built.",
    "  - *Another instance or LNC.* The busbw column recomputes with 2(n − 1)/n at n = 16, so the rank count",
    `    holds. The model under other readings is as linear in size and stays above the bound (${alt.join("; ")}).`,
    "    The printed sizes are half the `-b 4 -f 16` sweep (4, 64, 1K … 1G); at the swept sizes the algorithms",
    "    match the intranode guide's sweet ranges (mesh < 1 MB, RDH 1–56 MB, KangaRing > 56 MB) better than at",
    "    the printed ones (32 MiB KangaRing), but scaling every size by one factor leaves the bound unchanged.",
    `  - *Modelling RDH.* Over 4 chips RDH is 6 dependent steps (${f0(a.rdhHopsUs)} µs of documented hops). For its ${mib(j0.size)}`,
    `    row to take ${f0(j0.us)} µs a rank would move its ${(a.rdhRankBytes / 1e6).toFixed(1)} MB at ${a.rdhRankGbps.toFixed(1)} GB/s, ${(a.r8Busbw / a.rdhRankGbps).toFixed(1)}× below what the`,
    `    8-rank Trn2 table's last row shows a rank sustaining, floor included (${a.r8Busbw.toFixed(1)} GB/s busbw). Modelling`,
    `    RDH would move that row by tens of µs, not the ${f0(j0.us - modelJ0)} µs it misses by.`,
    "  - *A mean spoiled by outliers.* Each row is the mean of 20 iterations; one 40 ms iteration adds 2 ms.",
    "    Not testable from the table.",
    "  What it leaves: every 2026 table spanning more than 2 Trn2 chips has a floor of 100 µs or more (this",
    `  one ${f0(a.floorUs)} µs; the concurrent multistream runs ${a.otherFloorsUs.map(f0).join(" and ")} µs) while the 2-chip one (8 LNC 2 ranks)`,
    "  has 10 µs. A fixed cost that grows with the chips a collective spans, paid per step, would explain the",
    "  floors and most of this shape; no public source gives one, and the only clean table to fit it on is",
    "  this one. The calibration test pins the miss, the plateau (within 25 %) and the bound.",
  ];
}
