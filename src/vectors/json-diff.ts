/** Where two JSON values differ, as dotted paths (`expect.codes.3`), at most `limit` of them. */
import type { Json } from "./vector-set.js";

export interface JsonDifference {
  readonly path: string;
  /** The value in the file and the value this build gives (undefined: the key is missing). */
  readonly file: Json | undefined;
  readonly here: Json | undefined;
}

const isObject = (v: unknown): v is Record<string, Json> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export function diffJson(
  file: Json | undefined,
  here: Json | undefined,
  path: string,
  limit = 16,
): JsonDifference[] {
  const out: JsonDifference[] = [];
  const walk = (a: Json | undefined, b: Json | undefined, at: string): void => {
    if (out.length >= limit) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${at}.${i}`);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${at}.${k}`);
      return;
    }
    if (!Object.is(a, b)) out.push({ path: at, file: a, here: b });
  };
  walk(file, here, path);
  return out;
}
