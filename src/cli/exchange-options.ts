/**
 * The exchange collectives' files read into the library's options: `--custom-src-target-pairs FILE`
 * (permute) and `--alltoallv-metadata FILE` / `--variable-size-op-metadata FILE` (alltoallv, allgv).
 *
 * File formats. Pairs as nccom-test's guide shows them: `{"src_target_pairs": [[[0, 1], [1, 0], …]]}`
 * — a list of pair lists, all of whose pairs the permute takes — or the bare pair list. Metadata as
 * the guide's alltoallv example: `{"alltoallv_metadata": [{"send_counts": […], "send_displs": […],
 * "recv_counts": […], "recv_displs": […]}]}`, one entry for every rank or one per rank, in elements.
 * MODEL: the guide's allgv metadata file is not in our sources; it is read in the same shape, under
 * `allgv_metadata`, `variable_size_op_metadata` or `alltoallv_metadata`, or as the bare list.
 */
import { UsageError } from "../bits/errors.js";
import type { CollectiveName, CollectiveOptions } from "../collectives/index.js";
import { readJsonFile } from "./json-file.js";
import type { OptionTable } from "./options.js";

export const EXCHANGE_OPTIONS = {
  "custom-src-target-pairs": {
    type: "string",
    value: "FILE",
    help: 'permute\'s [source, target] rank pairs: JSON {"src_target_pairs": [[[0,1],[1,0],…]]}; default r → r + 1',
  },
  "alltoallv-metadata": {
    type: "string",
    value: "FILE",
    help: 'alltoallv\'s per-rank counts: JSON {"alltoallv_metadata": [{"send_counts": […], "send_displs": […], "recv_counts": […], "recv_displs": […]}]}',
  },
  "variable-size-op-metadata": {
    type: "string",
    value: "FILE",
    help: "allgv's (or alltoallv's) per-rank counts, in the same JSON shape; default uniform",
  },
} as const satisfies OptionTable;

/** What the three options give a run: its pairs or metadata. */
export type ExchangeChoice = Pick<CollectiveOptions, "pairs" | "metadata">;

const METADATA_KEYS = ["alltoallv_metadata", "allgv_metadata", "variable_size_op_metadata"] as const;

/** The list under one of `keys` of a parsed file, or the file itself when it is a list. */
function listIn(option: string, path: string, json: unknown, keys: readonly string[]): unknown[] {
  if (Array.isArray(json)) return json;
  if (typeof json === "object" && json !== null) {
    const key = keys.find((k) => k in json);
    const list = key === undefined ? undefined : (json as Record<string, unknown>)[key];
    if (Array.isArray(list)) return list;
  }
  throw new UsageError(`${option} ${path}: expected {"${keys.join('" | "')}": [ … ]} or a bare list`);
}

/** The pairs of a pairs file: its pair lists joined (a list of pairs is taken as is). */
function pairsOf(path: string): NonNullable<ExchangeChoice["pairs"]> {
  const option = "--custom-src-target-pairs";
  const lists = listIn(option, path, readJsonFile(option, path), ["src_target_pairs"]);
  const nested = lists.every((l) => Array.isArray(l) && l.every(Array.isArray));
  return (nested ? lists.flat() : lists) as NonNullable<ExchangeChoice["pairs"]>;
}

/** Which collectives each option is for. */
const TAKES: Readonly<Record<keyof typeof EXCHANGE_OPTIONS, readonly CollectiveName[]>> = {
  "custom-src-target-pairs": ["permute"],
  "alltoallv-metadata": ["alltoallv"],
  "variable-size-op-metadata": ["allgv", "alltoallv"],
};

/**
 * The pairs or metadata the options name, files read; the library checks them against the ranks and
 * each size (messages name `pairs[k]`, `metadata[k].field[j]`).
 * @throws UsageError for an option the collective does not take, a file that cannot be read or parsed.
 */
export function exchangeChoice(
  collective: CollectiveName,
  v: { readonly [K in keyof typeof EXCHANGE_OPTIONS]?: string | undefined },
): ExchangeChoice {
  for (const option of Object.keys(TAKES) as (keyof typeof EXCHANGE_OPTIONS)[])
    if (v[option] !== undefined && !TAKES[option].includes(collective))
      throw new UsageError(`--${option}: for ${TAKES[option].join(" and ")}, not ${collective}`);
  const pairsFile = v["custom-src-target-pairs"];
  const metadataFile = v["alltoallv-metadata"] ?? v["variable-size-op-metadata"];
  if (v["alltoallv-metadata"] !== undefined && v["variable-size-op-metadata"] !== undefined)
    throw new UsageError("--alltoallv-metadata and --variable-size-op-metadata exclude each other");
  const option =
    v["alltoallv-metadata"] !== undefined ? "--alltoallv-metadata" : "--variable-size-op-metadata";
  return {
    ...(pairsFile === undefined ? {} : { pairs: pairsOf(pairsFile) }),
    ...(metadataFile === undefined
      ? {}
      : {
          metadata: listIn(
            option,
            metadataFile,
            readJsonFile(option, metadataFile),
            METADATA_KEYS,
          ) as NonNullable<ExchangeChoice["metadata"]>,
        }),
  };
}
