/**
 * nccom-test's replica-group and multistream options read into the library's options:
 * `--custom-replica-groups FILE`, `--data-parallel-dimension D`, `--streams-json FILE`.
 *
 * File formats. A replica-groups file is JSON: the groups, `[[0, 1], [2, 3]]`, or an object
 * `{"replica_groups": [[0, 1], [2, 3]]}` (the key named as the permute file's `src_target_pairs`).
 * A streams file is `{"streams": [stream, …]}` (or the bare list); a stream is an object with the
 * collective's command-line option names as keys — `operation` (allr, all_reduce, …; required),
 * `datatype`, `op`, `algo`, `minbytes`, `maxbytes`, `stepfactor`, `stepbytes` (sizes as numbers or
 * `"1kb"`), and `replica_groups` (inline) or `data_parallel_dimension`; `-` and `_` alike. What a
 * stream leaves out is the command line's. MODEL: the guide's example file is not in our sources;
 * these are the names its command line uses.
 */
import { UsageError } from "../bits/errors.js";
import {
  ALGORITHMS,
  type AlgorithmName,
  COLLECTIVES,
  type CollectiveName,
  type GroupOptions,
  MAX_RANKS,
  REDUCE_OPS,
  type ReduceOp,
  type StreamOptions,
} from "../collectives/index.js";
import { dtypeOf, factorOf } from "./collective-options.js";
import type { CollectiveValues } from "./collective-table.js";
import { COLLECTIVE_COMMANDS } from "./commands/collective-names.js";
import { readJsonFile } from "./json-file.js";
import { choiceOption, integerOption } from "./options.js";
import { parseSize } from "./sizes.js";

/** What the three options ask for (undefined: none was given). */
export interface ConcurrentChoice extends GroupOptions {
  readonly streams?: readonly StreamOptions[];
}

/** The groups of a replica-groups value: the list, or an object's `replica_groups`. */
function groupsIn(option: string, value: unknown): number[][] {
  const list =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>).replica_groups
      : value;
  if (!Array.isArray(list))
    throw new UsageError(`${option}: expected [[rank, …], …] or {"replica_groups": …}`);
  return list as number[][];
}

/** A collective by any of its names (allr, all_reduce, all_reduce_perf). */
function collectiveNamed(field: string, text: unknown): CollectiveName {
  const name = COLLECTIVES.find((c) => c === text || COLLECTIVE_COMMANDS[c].aliases.includes(String(text)));
  if (name === undefined) {
    const all = COLLECTIVES.flatMap((c) => [c, ...COLLECTIVE_COMMANDS[c].aliases]);
    throw new UsageError(`${field} ${JSON.stringify(text)}: expected one of ${all.join(", ")}`);
  }
  return name;
}

/** A size field: bytes as a number or a size text. */
function sizeField(field: string, v: unknown): number {
  if (typeof v === "number") return integerOption(field, String(v), 1, Number.MAX_SAFE_INTEGER);
  if (typeof v === "string") return parseSize(field, v);
  throw new UsageError(`${field} ${JSON.stringify(v)}: expected bytes, like 1024 or "1kb"`);
}

/** A text field (what the command line would have typed). */
function textField(field: string, v: unknown): string {
  if (typeof v === "string" || typeof v === "number") return String(v);
  throw new UsageError(`${field} ${JSON.stringify(v)}: expected a string`);
}

type Reader = (field: string, v: unknown) => Partial<StreamOptions>;

/** Each key a stream may have, and what it sets. */
const STREAM_KEYS: Readonly<Record<string, Reader>> = {
  operation: (f, v) => ({ collective: collectiveNamed(f, v) }),
  datatype: (f, v) => ({ dtype: inOption(f, () => dtypeOf(textField(f, v))) }),
  op: (f, v) => ({ op: choiceOption<ReduceOp>(f, textField(f, v), REDUCE_OPS) }),
  algo: (f, v) => ({
    algorithm: choiceOption<AlgorithmName | "auto">(f, textField(f, v), ["auto", ...ALGORITHMS]),
  }),
  minbytes: (f, v) => ({ minBytes: sizeField(f, v) }),
  maxbytes: (f, v) => ({ maxBytes: sizeField(f, v) }),
  stepfactor: (f, v) => ({ factor: inOption(f, () => factorOf(textField(f, v))) }),
  stepbytes: (f, v) => ({ step: sizeField(f, v) }),
  replica_groups: (f, v) => ({ replicaGroups: groupsIn(f, v) }),
  data_parallel_dimension: (f, v) => ({
    dataParallelDimension: integerOption(f, textField(f, v), 1, MAX_RANKS),
  }),
};

/** Run `f`, naming `field` for a UsageError that names a command-line option instead. */
function inOption<T>(field: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(`${field}: ${e.message.replace(/^-\w /, "")}`);
    throw e;
  }
}

/** One stream of a streams file. @throws UsageError naming `streams[k].key`. */
function streamOf(k: number, value: unknown): StreamOptions {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`streams[${k}]: expected an object like {"operation": "allr", …}`);
  let out: Partial<StreamOptions> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = key.replaceAll("-", "_");
    const read = STREAM_KEYS[name];
    if (read === undefined)
      throw new UsageError(
        `streams[${k}].${key}: unknown key; expected ${Object.keys(STREAM_KEYS).join(", ")}`,
      );
    out = { ...out, ...read(`streams[${k}].${key}`, v) };
  }
  if (out.collective === undefined) throw new UsageError(`streams[${k}]: no "operation" (allr, allg, …)`);
  return out as StreamOptions;
}

/**
 * What `--custom-replica-groups`, `--data-parallel-dimension` and `--streams-json` ask for, files
 * read; undefined when none is given.
 * @throws UsageError naming the option, the file or the stream's key.
 */
export function concurrentChoice(v: CollectiveValues): ConcurrentChoice | undefined {
  const groupsFile = v["custom-replica-groups"];
  const d = v["data-parallel-dimension"];
  const streamsFile = v["streams-json"];
  if (groupsFile === undefined && d === undefined && streamsFile === undefined) return undefined;
  if (groupsFile !== undefined && d !== undefined)
    throw new UsageError("--custom-replica-groups and --data-parallel-dimension exclude each other");
  const groups: GroupOptions =
    groupsFile !== undefined
      ? {
          replicaGroups: groupsIn(
            "--custom-replica-groups",
            readJsonFile("--custom-replica-groups", groupsFile),
          ),
        }
      : d !== undefined
        ? { dataParallelDimension: integerOption("--data-parallel-dimension", d, 1, MAX_RANKS) }
        : {};
  if (streamsFile === undefined) return groups;
  const json = readJsonFile("--streams-json", streamsFile);
  const list =
    typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as { streams?: unknown }).streams
      : json;
  if (!Array.isArray(list))
    throw new UsageError(`--streams-json ${streamsFile}: expected {"streams": [ … ]}`);
  return { ...groups, streams: list.map((s, k) => streamOf(k, s)) };
}
