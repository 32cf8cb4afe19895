/** What the page sends the run worker and what the worker sends back. */
import type { ReportRow, traceOf } from "../../src/collectives/index.js";

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
}

/** One Chrome trace event as `traceOf` writes it. */
export type TraceEvent = ReturnType<typeof traceOf>["traceEvents"][number];

export type RunMessage =
  | { readonly type: "start"; readonly sizes: readonly number[]; readonly header: string }
  | { readonly type: "progress"; readonly fraction: number; readonly label: string }
  | { readonly type: "row"; readonly row: ReportRow; readonly algorithm: string }
  | { readonly type: "trace"; readonly size: number; readonly events: readonly TraceEvent[] }
  | { readonly type: "trace-skipped"; readonly size: number; readonly reason: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "done" };
