/**
 * The files the nccom-test user guide's command lines name, as the guide prints them (its permute
 * pairs and alltoallv metadata), and the two it does not print, as we read them (allgv's uniform
 * counts, a two-stream file): one copy for the guide-lines test, the exchange tests and the
 * calibration tool.
 */

/** `pairs.json` (--custom-src-target-pairs): two swaps and four ranks that keep their own data. */
export const GUIDE_PAIRS: [number, number][] = [
  [0, 1],
  [1, 0],
  [2, 3],
  [3, 2],
  [4, 4],
  [5, 5],
  [6, 6],
  [7, 7],
];

/** `alltoallv_metadata.json`'s one entry, for both ranks: receive counts that differ from the sends. */
export const GUIDE_A2AV_METADATA = [
  { send_counts: [512, 1024], send_displs: [0, 512], recv_counts: [256, 768], recv_displs: [0, 256] },
];

/** Every file by the name the guide's lines give it, as JSON values. */
export const GUIDE_FILES: Readonly<Record<string, unknown>> = {
  "pairs.json": { src_target_pairs: [GUIDE_PAIRS] },
  "alltoallv_metadata.json": { alltoallv_metadata: GUIDE_A2AV_METADATA },
  "allgv_metadata.json": {
    allgv_metadata: [
      {
        send_counts: [256, 256, 256, 256],
        send_displs: [0, 0, 0, 0],
        recv_counts: [256, 256, 256, 256],
        recv_displs: [0, 256, 512, 768],
      },
    ],
  },
  "streams_example.json": {
    streams: [
      { operation: "allr", datatype: "bf16", minbytes: "1kb", maxbytes: "1mb", data_parallel_dimension: 16 },
      { operation: "allg", datatype: "fp32", minbytes: "1kb", maxbytes: "1kb" },
    ],
  },
};
