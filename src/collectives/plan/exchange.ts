/**
 * The exchange collectives — all-to-all, all-to-allv, all-gatherv and permute — as one geometry:
 * which block of which rank's input lands where in each rank's output. Nothing is reduced: every
 * block is a plain copy (add_dma_packet), so these collectives take any dtype and ignore the op.
 *
 * - alltoall: rank s's input block d (count / n elements) into rank d's output block s.
 * - alltoallv: nccom-test's `--alltoallv-metadata` (NKI all_to_all_v's metadata rows): rank s sends
 *   send_counts[d] elements from send_displs[d] to rank d, which places them at its recv_displs[s]
 *   — or, without recv_displs, packed in source-rank order. MODEL: what moves is the smaller of the
 *   sender's send_counts[d] and the receiver's recv_counts[s] (the receiver's count bounds what
 *   lands, as MPI's recvcounts does); nccom-test's own example gives counts that differ.
 * - allgv: NKI all_gather_v: rank s sends the one chunk send_counts[0] at send_displs[0] to every
 *   rank, which places it in slot s (count / n elements each) or at its recv_displs[s]; the same
 *   min rule with recv_counts[s].
 * - permute: nccom-test's `--custom-src-target-pairs`: for each pair [s, t], rank s's whole input into
 *   rank t's output. A rank no pair targets keeps its output as it was.
 * Without metadata alltoallv is the all-to-all and allgv the all-gather; without pairs permute is
 * the ring shift s → s + 1.
 */
import { UsageError } from "../../bits/errors.js";
import type { CollectiveName } from "./plan.js";

export const EXCHANGES = [
  "alltoall",
  "alltoallv",
  "allgv",
  "permute",
] as const satisfies readonly CollectiveName[];
export type ExchangeName = (typeof EXCHANGES)[number];

export function isExchange(collective: CollectiveName): collective is ExchangeName {
  return (EXCHANGES as readonly CollectiveName[]).includes(collective);
}

/** One rank's metadata, in elements, as nccom-test's JSON spells it (one entry per peer). */
export interface VariableEntry {
  readonly send_counts: readonly number[];
  readonly send_displs: readonly number[];
  readonly recv_counts?: readonly number[];
  readonly recv_displs?: readonly number[];
}

/** What an exchange needs beyond its count: permute's pairs, alltoallv / allgv's metadata. */
export interface ExchangeSpec {
  /** permute: [source, target] rank pairs. */
  readonly pairs?: readonly (readonly [number, number])[];
  /** alltoallv / allgv: one entry for every rank, or one per rank. */
  readonly metadata?: readonly VariableEntry[];
}

/** What a geometry is made from: a plan request's fields. */
export interface ExchangeRequest {
  readonly collective: CollectiveName;
  readonly topology: { readonly ranks: number };
  readonly count: number;
  readonly exchange?: ExchangeSpec | undefined;
}

/** Called once per block a rank receives: `count` elements of `src`'s input at `srcElem` to `dstElem`. */
export type BlockVisitor = (src: number, srcElem: number, dstElem: number, count: number) => void;

/** The blocks of an exchange, per receiving rank. */
export interface ExchangeGeometry {
  /** Input and output elements per rank. */
  readonly input: number;
  readonly output: number;
  /** Whether moving every rank by P ranks (and its blocks by P · count / n) maps the exchange onto itself. */
  readonly symmetric: boolean;
  /** The blocks rank `dst` receives, in pull order: its own first, then dst + 1, dst + 2, … . */
  forEachReceive(dst: number, visit: BlockVisitor): void;
}

/** The most elements a metadata count or displacement may name (NKI's metadata is uint32). */
const MAX_METADATA_VALUE = 0xffffffff;

/** The metadata's bytes that nccom-test counts in an alltoallv's size: 4 rows of n uint32. */
export function metadataBytes(collective: CollectiveName, ranks: number): number {
  return collective === "alltoallv" ? 4 * ranks * 4 : 0;
}

/** Elements a count must be a multiple of (one block per rank where blocks are uniform). */
export function exchangeUnit(
  collective: ExchangeName,
  ranks: number,
  spec: ExchangeSpec | undefined,
): number {
  if (collective === "alltoall" || collective === "allgv") return ranks;
  if (collective === "alltoallv") return spec?.metadata === undefined ? ranks : 1;
  return 1;
}

const geometries = new WeakMap<ExchangeSpec, Map<string, ExchangeGeometry>>();
const NO_SPEC: ExchangeSpec = {};

/**
 * The geometry of an exchange request, checked (made once per spec, rank count and count).
 * @throws UsageError naming the field (`pairs[k]`, `metadata[k].send_counts[j]`), its value and
 *   the allowed range; or a count that is not a multiple of {@link exchangeUnit}.
 */
export function exchangeGeometry(
  req: ExchangeRequest & { readonly collective: ExchangeName },
): ExchangeGeometry {
  const spec = req.exchange ?? NO_SPEC;
  const n = req.topology.ranks;
  const key = `${req.collective}:${n}:${req.count}`;
  let byKey = geometries.get(spec);
  const known = byKey?.get(key);
  if (known !== undefined) return known;
  const unit = exchangeUnit(req.collective, n, spec);
  if (req.count % unit !== 0)
    throw new UsageError(`${req.collective} count ${req.count} must be a multiple of the rank count ${n}`);
  checkSpecFits(req.collective, spec);
  const g = makeGeometry(req.collective, n, req.count, spec);
  if (byKey === undefined) {
    byKey = new Map();
    geometries.set(spec, byKey);
  }
  byKey.set(key, g);
  return g;
}

function checkSpecFits(collective: ExchangeName, spec: ExchangeSpec): void {
  if (spec.pairs !== undefined && collective !== "permute")
    throw new UsageError(`pairs: only permute takes source-target pairs, not ${collective}`);
  if (spec.metadata !== undefined && collective !== "alltoallv" && collective !== "allgv")
    throw new UsageError(`metadata: only alltoallv and allgv take metadata, not ${collective}`);
}

function makeGeometry(
  collective: ExchangeName,
  n: number,
  count: number,
  spec: ExchangeSpec,
): ExchangeGeometry {
  if (collective === "permute") return permuteGeometry(n, count, spec.pairs);
  if (collective === "allgv")
    return spec.metadata === undefined ? uniformGather(n, count) : variableGather(n, count, spec.metadata);
  return spec.metadata === undefined ? uniformAllToAll(n, count) : variableAllToAll(n, count, spec.metadata);
}

/** Visit the ranks in pull order from `dst`: dst, dst + 1, … (mod n). */
function pullOrder(n: number, dst: number, visit: (src: number) => void): void {
  for (let k = 0; k < n; k++) visit(dst + k < n ? dst + k : dst + k - n);
}

function uniformAllToAll(n: number, count: number): ExchangeGeometry {
  const c = count / n;
  return {
    input: count,
    output: count,
    symmetric: true,
    forEachReceive: (dst, visit) => pullOrder(n, dst, (src) => visit(src, dst * c, src * c, c)),
  };
}

function uniformGather(n: number, count: number): ExchangeGeometry {
  const slot = count / n;
  return {
    input: slot,
    output: count,
    symmetric: true,
    forEachReceive: (dst, visit) => pullOrder(n, dst, (src) => visit(src, 0, src * slot, slot)),
  };
}

function permuteGeometry(n: number, count: number, given: ExchangeSpec["pairs"]): ExchangeGeometry {
  const pairs = given ?? Array.from({ length: n }, (_, s) => [s, (s + 1) % n] as const);
  const sourceOf = new Array<number | undefined>(n).fill(undefined);
  const targetOf = new Array<number | undefined>(n).fill(undefined);
  pairs.forEach((pair, k) => {
    const [s, t] = checkPair(pair, k, n);
    if (targetOf[s] !== undefined)
      throw new UsageError(
        `pairs[${k}] [${s}, ${t}]: rank ${s} already sends (to ${targetOf[s]}); each rank sends at most once`,
      );
    if (sourceOf[t] !== undefined)
      throw new UsageError(
        `pairs[${k}] [${s}, ${t}]: rank ${t} already receives (from ${sourceOf[t]}); each rank receives at most once`,
      );
    targetOf[s] = t;
    sourceOf[t] = s;
  });
  return {
    input: count,
    output: count,
    symmetric: false,
    forEachReceive: (dst, visit) => {
      const src = sourceOf[dst];
      if (src !== undefined) visit(src, 0, 0, count);
    },
  };
}

function checkPair(pair: unknown, k: number, n: number): readonly [number, number] {
  const ok =
    Array.isArray(pair) &&
    pair.length === 2 &&
    pair.every((r) => Number.isInteger(r) && (r as number) >= 0 && (r as number) < n);
  if (!ok)
    throw new UsageError(`pairs[${k}] ${JSON.stringify(pair)}: expected [source, target], ranks 0..${n - 1}`);
  return pair as [number, number];
}

/** The metadata, one entry per rank (a single entry stands for every rank), checked field by field. */
function entriesOf(metadata: readonly VariableEntry[], n: number): readonly VariableEntry[] {
  if (metadata.length !== 1 && metadata.length !== n)
    throw new UsageError(
      `metadata: ${metadata.length} entries; expected 1 (for every rank) or one per rank (${n})`,
    );
  metadata.forEach((e, k) => {
    checkEntry(e, k, n);
  });
  return metadata.length === 1 ? new Array<VariableEntry>(n).fill(metadata[0] as VariableEntry) : metadata;
}

const ENTRY_FIELDS = ["send_counts", "send_displs", "recv_counts", "recv_displs"] as const;

function checkEntry(e: VariableEntry, k: number, n: number): void {
  if (typeof e !== "object" || e === null)
    throw new UsageError(`metadata[${k}]: expected an object of count and displacement arrays`);
  for (const key of Object.keys(e))
    if (!(ENTRY_FIELDS as readonly string[]).includes(key))
      throw new UsageError(`metadata[${k}].${key}: unknown field; expected ${ENTRY_FIELDS.join(", ")}`);
  for (const field of ENTRY_FIELDS) {
    const values = e[field];
    if (values === undefined && (field === "recv_counts" || field === "recv_displs")) continue;
    const where = `metadata[${k}].${field}`;
    if (!Array.isArray(values) || values.length !== n)
      throw new UsageError(`${where}: expected an array of ${n} element counts (one per rank of the group)`);
    values.forEach((v, j) => {
      if (!Number.isInteger(v) || v < 0 || v > MAX_METADATA_VALUE)
        throw new UsageError(
          `${where}[${j}] ${JSON.stringify(v)}: expected an integer 0..${MAX_METADATA_VALUE}`,
        );
    });
  }
}

/** One block before placement: what moves from `src`, and where it lands (undefined: packed). */
interface VariableBlock {
  readonly srcElem: number;
  readonly count: number;
  readonly dstElem: number | undefined;
  /** The metadata fields the block came from, for messages. */
  readonly from: string;
}

/** A block where it lands. */
interface PlacedBlock {
  readonly srcElem: number;
  readonly dstElem: number;
  readonly count: number;
}

/** A receiver's blocks placed and checked: inside both buffers, no two overlapping. */
function placeBlocks(
  dst: number,
  n: number,
  input: number,
  output: number,
  blockOf: (src: number) => VariableBlock,
): PlacedBlock[] {
  let packed = 0;
  const placed: PlacedBlock[] = [];
  for (let src = 0; src < n; src++) {
    const b = blockOf(src);
    if (b.srcElem + b.count > input)
      throw new UsageError(
        `${b.from}: rank ${src} sends elements ${b.srcElem}..${b.srcElem + b.count - 1}, past its input of ${input} elements`,
      );
    const dstElem = b.dstElem ?? packed;
    packed = dstElem + b.count;
    if (dstElem + b.count > output)
      throw new UsageError(
        `${b.from}: rank ${dst} receives elements ${dstElem}..${dstElem + b.count - 1} from rank ${src}, past its output of ${output} elements`,
      );
    placed.push({ srcElem: b.srcElem, dstElem, count: b.count });
  }
  checkDisjoint(dst, placed);
  return placed;
}

function checkDisjoint(dst: number, blocks: readonly { dstElem: number; count: number }[]): void {
  const order = blocks.map((_, s) => s).filter((s) => blocks[s]!.count > 0);
  order.sort((a, b) => blocks[a]!.dstElem - blocks[b]!.dstElem);
  for (let i = 1; i < order.length; i++) {
    const prev = blocks[order[i - 1]!]!;
    const cur = blocks[order[i]!]!;
    if (cur.dstElem < prev.dstElem + prev.count)
      throw new UsageError(
        `metadata: rank ${dst} receives from ranks ${order[i - 1]} and ${order[i]} into overlapping elements (${cur.dstElem} < ${prev.dstElem + prev.count}); recv_displs must keep blocks apart`,
      );
  }
}

/** A geometry from every receiver's blocks, placed and checked at once. */
function placedGeometry(
  n: number,
  input: number,
  output: number,
  blockOf: (src: number, dst: number) => VariableBlock,
): ExchangeGeometry {
  const placed = Array.from({ length: n }, (_, dst) =>
    placeBlocks(dst, n, input, output, (src) => blockOf(src, dst)),
  );
  return {
    input,
    output,
    symmetric: false,
    forEachReceive: (dst, visit) =>
      pullOrder(n, dst, (src) => {
        const b = (placed[dst] as PlacedBlock[])[src] as PlacedBlock;
        visit(src, b.srcElem, b.dstElem, b.count);
      }),
  };
}

function variableAllToAll(n: number, count: number, metadata: readonly VariableEntry[]): ExchangeGeometry {
  const entries = entriesOf(metadata, n);
  const k = (r: number) => (metadata.length === 1 ? 0 : r);
  return placedGeometry(n, count, count, (src, dst) => {
    const se = entries[src] as VariableEntry;
    const de = entries[dst] as VariableEntry;
    const send = se.send_counts[dst] as number;
    const recv = de.recv_counts?.[src];
    return {
      srcElem: se.send_displs[dst] as number,
      count: recv === undefined ? send : Math.min(send, recv),
      dstElem: de.recv_displs?.[src],
      from: `metadata[${k(src)}].send_counts[${dst}]`,
    };
  });
}

function variableGather(n: number, count: number, metadata: readonly VariableEntry[]): ExchangeGeometry {
  const entries = entriesOf(metadata, n);
  const slot = count / n;
  const k = (r: number) => (metadata.length === 1 ? 0 : r);
  return placedGeometry(n, slot, count, (src, dst) => {
    const se = entries[src] as VariableEntry;
    const de = entries[dst] as VariableEntry;
    const send = se.send_counts[0] as number;
    const recv = de.recv_counts?.[src];
    return {
      srcElem: se.send_displs[0] as number,
      count: recv === undefined ? send : Math.min(send, recv),
      dstElem: de.recv_displs?.[src] ?? src * slot,
      from: `metadata[${k(src)}].send_counts[0]`,
    };
  });
}
