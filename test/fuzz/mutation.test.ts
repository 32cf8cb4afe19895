/**
 * The engine-chain fuzz target sees every path the engine writes memory by (issue 27 item 5): each
 * write path of DeviceMemory in turn gets a one-byte overrun — the byte just past the span it was
 * asked for is changed — and the target, run on its usual seed, must report a write outside the
 * packet's destinations. A path the chains never take would pass unseen: it fails here instead.
 * The engine's paths are these four (`fill` is the host's): `writeU32` is the embedded-semaphore
 * write, which the target allows only the four bytes the descriptor resolves to, one region of them
 * pointed into watched HBM so the overrun byte is compared.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DeviceMemory } from "../../src/engine/index.js";
import { fuzzChains } from "./targets/engine-chains.js";

type Method = (...args: unknown[]) => unknown;
const proto = DeviceMemory.prototype as unknown as Record<string, Method>;
const PATHS = ["write", "poke", "pageToOverwrite", "writeU32"] as const;
const original: Record<string, Method> = Object.fromEntries(
  [...PATHS, "read"].map((k) => [k, proto[k] as Method]),
);

/** Change the byte at `addr` (when it is mapped memory): the overrun, made with the unwrapped methods. */
function corrupt(mem: DeviceMemory, addr: bigint): void {
  try {
    const b = (Reflect.apply(original.read as Method, mem, [addr, 1]) as Uint8Array)[0] as number;
    Reflect.apply(original.write as Method, mem, [addr, Uint8Array.of(b ^ 0xff)]);
  } catch {
    // Past the end of a region: no byte there to overrun into.
  }
}

/** Wrap method `name` so that `after` sees each call's arguments and result. */
function wrap(name: string, after: (mem: DeviceMemory, args: unknown[], result: unknown) => void): void {
  proto[name] = function (this: DeviceMemory, ...args: unknown[]) {
    const result = Reflect.apply(original[name] as Method, this, args);
    after(this, args, result);
    return result;
  };
}

/** Each write path, wrapped to overrun its span by one byte. */
const MUTANTS: Record<(typeof PATHS)[number], () => void> = {
  write: () =>
    wrap("write", (m, [addr, data]) => corrupt(m, (addr as bigint) + BigInt((data as Uint8Array).length))),
  poke: () =>
    wrap("poke", (m, [addr, len], view) => {
      if (view !== undefined) corrupt(m, (addr as bigint) + BigInt(len as number));
    }),
  writeU32: () => wrap("writeU32", (m, [addr]) => corrupt(m, (addr as bigint) + 4n)),
  pageToOverwrite: () =>
    wrap("pageToOverwrite", (_, [, offset, len], page) => {
      const at = (offset as number) + (len as number);
      if (page instanceof Uint8Array && at < page.length) page[at] = (page[at] as number) ^ 0xff;
    }),
};

/**
 * Each mutant's run: the fuzz suite's own seed (test/fuzz/fuzz.test.ts runs 600 clean), ended at the
 * first failure — the rest of the budget would only find the same overrun again. The first two
 * archs' chains as that suite runs them; embedded semaphores are trn3's, so writeU32 runs trn3's
 * chains alone. The budget bounds a mutant the target misses.
 */
const ARCHES: Record<(typeof PATHS)[number], readonly string[]> = {
  write: ["trn1", "trn2"],
  poke: ["trn1", "trn2"],
  pageToOverwrite: ["trn1", "trn2"],
  writeU32: ["trn3"],
};
const BUDGET = 400;

afterEach(() => {
  for (const k of Object.keys(MUTANTS)) proto[k] = original[k] as Method;
});

describe("the engine-chain fuzz target catches a one-byte overrun on every write path", () => {
  for (const [path, mutate] of Object.entries(MUTANTS)) {
    it(path, () => {
      mutate();
      const arches = ARCHES[path as (typeof PATHS)[number]];
      const r = fuzzChains(16, BUDGET, { arches, untilFailure: true });
      expect(r.failures.length, `${path}: ${JSON.stringify(r.stats)}`).toBeGreaterThan(0);
      expect(r.failures.join("\n")).toMatch(/outside the packet's destinations|faulting packet wrote/);
    });
  }
});
