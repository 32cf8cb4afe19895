/**
 * The one reader of the JSON files options name (`--streams-json`, `--custom-replica-groups`, …):
 * size and nesting bounded before parsing (bits/json.ts). A regular file over the size bound is
 * refused from its size before a byte is read; anything else (a FIFO, `/dev/stdin`, a device) is
 * read only up to the bound plus one byte, so `/dev/zero` is refused instead of filling memory.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { UsageError } from "../bits/errors.js";
import { JSON_LIMITS, JsonLimitError, type JsonLimits, parseJsonText } from "../bits/json.js";

const CHUNK_BYTES = 1 << 16;

/** The bytes of an open file, at most `max + 1` of them (one more says "over the bound"). */
function readAtMost(fd: number, max: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(CHUNK_BYTES, max + 1 - total);
    if (want <= 0) break;
    const chunk = Buffer.alloc(want);
    const n = readSync(fd, chunk, 0, want, null);
    if (n === 0) break;
    chunks.push(n === want ? chunk : chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** The text of the file `option` names, within `maxBytes`. */
function readBounded(option: string, path: string, maxBytes: number): string {
  const source = `${option} ${path}`;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new UsageError(`${source}: cannot read it (${(e as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`${source}: a directory, not a JSON file`);
    if (stat.isFile() && stat.size > maxBytes)
      throw new JsonLimitError({ source, limit: "bytes", max: maxBytes, found: stat.size });
    const bytes = readAtMost(fd, maxBytes);
    if (bytes.length > maxBytes)
      throw new JsonLimitError({ source, limit: "bytes", max: maxBytes, found: bytes.length, cutOff: true });
    return bytes.toString("utf8");
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${source}: cannot read it (${(e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read and parse the JSON file an option names, its size and depth bounded.
 * @param option the option as typed (`--streams-json`); with `path` it starts every error.
 * @throws JsonLimitError naming the option, the path, the limit and the size or depth found;
 * UsageError for a file that cannot be read or is not JSON.
 * @example readJsonFile("--custom-replica-groups", "groups.json") // [[0, 1], [2, 3]]
 */
export function readJsonFile(option: string, path: string, limits: JsonLimits = JSON_LIMITS): unknown {
  return parseJsonText(`${option} ${path}`, readBounded(option, path, limits.maxBytes), limits);
}
