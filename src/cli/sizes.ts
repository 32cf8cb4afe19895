/**
 * Byte sizes as the command line writes them (`-b 8`, `-e 64MB`, `--max-memory 16gb`): text to a
 * number of bytes, the error naming the flag. The library takes numbers; the web page's form reads
 * its size fields with this parser too.
 */
import { UsageError } from "../bits/errors.js";

const GiB = 1024 ** 3;

const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: GiB,
  gb: GiB,
  gib: GiB,
};

/**
 * A byte size: a number with an optional k / kb / kib / m / mb / mib / g / gb / gib suffix, any case
 * (all powers of 1024, as nccom-test and nccl-tests read them).
 * @throws UsageError naming the option and the accepted form.
 * @example parseSize("-e", "64MB"); // 67108864
 */
export function parseSize(option: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = m ? UNITS[(m[2] ?? "").toLowerCase()] : undefined;
  if (!m || unit === undefined)
    throw new UsageError(`${option} ${JSON.stringify(text)}: expected bytes like 8, 4kb, 64MB, 32MiB, 1gb`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes)) throw new UsageError(`${option} ${text}: too large`);
  return bytes;
}
