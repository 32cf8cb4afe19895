/** What the page sends the run worker and what the worker sends back. */
import type { ReportRow, TimingProfile, TraceEvent } from "../../src/collectives/index.js";
import type { TraceModel } from "./trace-model.js";

export type { TraceEvent };

/** The Run form's values, as typed (the worker parses them with the library's parsers). */
export interface RunInput {
  readonly collective: string;
  readonly ranks: string;
  readonly nodes: string;
  readonly arch: string;
  /** `auto` (the arch's default, as nccom-test), `1` or `2`. */
  readonly lnc: string;
  readonly algo: string;
  readonly dtype: string;
  readonly op: string;
  readonly min: string;
  readonly max: string;
  readonly factor: string;
  readonly check: string;
  /** `on`: the CLI's --timing-only (the same times, no data moved, not checked). */
  readonly timing: string;
  /** Exact sizes to run instead of min … max (a measured report's sizes), comma-separated. */
  readonly sizes?: string;
  /** A timing profile (the page checked it; the worker checks it again) and its file's name. */
  readonly timingProfile?: TimingProfile;
  readonly profileName?: string;
}

export type RunMessage =
  | { readonly type: "start"; readonly sizes: readonly number[]; readonly header: string }
  | { readonly type: "progress"; readonly fraction: number; readonly label: string }
  | { readonly type: "row"; readonly row: ReportRow; readonly algorithm: string }
  | { readonly type: "trace"; readonly size: number; readonly model: TraceModel; readonly buildMs: number }
  | { readonly type: "trace-skipped"; readonly size: number; readonly reason: string }
  /** The admission refused the functional run before anything ran: its estimate. */
  | { readonly type: "refused"; readonly message: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "done" };
