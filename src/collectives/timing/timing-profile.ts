/**
 * A timing profile: timing parameters (timing-params.ts) per arch that replace the shipped ones —
 * what `sdmakit calibrate` writes from a user's own nccom-test reports and `--timing-profile FILE`
 * (the library's `timingProfile` option) reads. The file:
 *
 *     { "format": "sdmakit-timing-profile", "version": 1,
 *       "archs": { "trn2": { "launchNs": 8100, "packetNs": 700 } },
 *       "fit": { ...what calibrate fitted on, free-form } }
 *
 * Any parameter of the registry may be given; the rest stay shipped.
 */
import { UsageError } from "../../bits/errors.js";
import { type ArchName, PROFILES } from "../../hal/arch-profile.js";
import { TIMING_PARAMETERS, type TimingKey, type TimingParams } from "../topology/timing-params.js";

export const TIMING_PROFILE_FORMAT = "sdmakit-timing-profile";
export const TIMING_PROFILE_VERSION = 1;

export interface TimingProfile {
  readonly format: typeof TIMING_PROFILE_FORMAT;
  readonly version: typeof TIMING_PROFILE_VERSION;
  readonly archs: Readonly<Partial<Record<ArchName, Partial<TimingParams>>>>;
  /** What the profile was fitted on (informational). */
  readonly fit?: unknown;
}

/** The largest value a parameter may take: 1 s in ns, or 1 TB/ns. */
const MAX_VALUE = 1e12;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function bad(where: string, field: string, value: unknown, allowed: string): UsageError {
  return new UsageError(`${where}: ${field} ${JSON.stringify(value)}: expected ${allowed}`);
}

/** One arch's parameters, checked. */
function checkArch(where: string, arch: string, v: unknown): Partial<TimingParams> {
  const field = `archs.${arch}`;
  if (!isObject(v)) throw bad(where, field, v, "an object of timing parameters");
  const keys = TIMING_PARAMETERS.map((p) => p.key);
  const out: Partial<Record<TimingKey, number>> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!keys.includes(k as TimingKey)) throw bad(where, `${field}.${k}`, x, `one of ${keys.join(", ")}`);
    const param = TIMING_PARAMETERS.find((p) => p.key === k);
    const positive = param?.unit === "B/ns";
    const ok = typeof x === "number" && Number.isFinite(x) && (positive ? x > 0 : x >= 0) && x <= MAX_VALUE;
    if (!ok) {
      const range = positive ? `a number > 0 and ≤ ${MAX_VALUE}` : `a number 0..${MAX_VALUE}`;
      throw bad(where, `${field}.${k}`, x, `${range} (${param?.unit})`);
    }
    out[k as TimingKey] = x as number;
  }
  return out;
}

/**
 * Check a parsed timing profile.
 * @param where what to name in errors (the file, or the option)
 * @throws UsageError naming the field, its value and what is allowed.
 */
export function checkTimingProfile(v: unknown, where = "timing profile"): TimingProfile {
  if (!isObject(v)) throw bad(where, "the document", v, "a JSON object");
  if (v.format !== TIMING_PROFILE_FORMAT) throw bad(where, "format", v.format, `"${TIMING_PROFILE_FORMAT}"`);
  if (v.version !== TIMING_PROFILE_VERSION)
    throw bad(where, "version", v.version, `${TIMING_PROFILE_VERSION}`);
  const known = new Set(["format", "version", "archs", "fit"]);
  for (const k of Object.keys(v))
    if (!known.has(k)) throw bad(where, k, v[k], "no such field (format, version, archs, fit)");
  if (!isObject(v.archs)) throw bad(where, "archs", v.archs, "an object keyed by arch name");
  const names = PROFILES.map((p) => p.name as string);
  const archs: Partial<Record<ArchName, Partial<TimingParams>>> = {};
  for (const [arch, params] of Object.entries(v.archs)) {
    if (!names.includes(arch))
      throw bad(where, `archs.${arch}`, params, `an arch name (${names.join(", ")})`);
    archs[arch as ArchName] = checkArch(where, arch, params);
  }
  return {
    format: TIMING_PROFILE_FORMAT,
    version: TIMING_PROFILE_VERSION,
    archs,
    ...(v.fit === undefined ? {} : { fit: v.fit }),
  };
}

/**
 * Parse a timing profile file's text.
 * @throws UsageError for text that is not JSON or a profile, naming the field.
 */
export function parseTimingProfile(text: string, where = "timing profile"): TimingProfile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${where}: not JSON (${(e as Error).message})`);
  }
  return checkTimingProfile(v, where);
}

/** A profile's parameters for an arch ({} when it has none). */
export function profileParams(p: TimingProfile | undefined, arch: ArchName): Partial<TimingParams> {
  return p?.archs[arch] ?? {};
}
