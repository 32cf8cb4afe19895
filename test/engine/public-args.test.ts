// Every public call of the engine refuses a wrong argument from plain JavaScript (issue 27, review
// N7: `dev.queue(0.5, 0)` returned queue 8, `writeU32(a, 2 ** 32)` and `fill(a, n, 300)` wrapped):
// a wrong type, a non-integer or a value out of range is a FieldError naming the call, the
// argument and the value. The tables enumerate the classes' prototypes and the index's functions,
// so a public method or function added without a row here (or a reason it takes no number) fails.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/bits/index.js";
import * as engine from "../../src/engine/index.js";
import {
  Device,
  DeviceMemory,
  DmaQueue,
  HBM_BASE,
  PAGE_BYTES,
  PageKeep,
  ProfileCostModel,
  Ring,
  SemaphoreBlock,
} from "../../src/engine/index.js";
import { archProfile } from "../../src/hal/index.js";
import { thrown } from "../helpers/thrown.js";

const TRN2 = archProfile("trn2");
const A = HBM_BASE + 0x1000n;
const BYTES = new Uint8Array(4);
/** Values no numeric argument takes, with the type each breaks. */
const NOT_INTEGERS = [0.5, -1, Number.NaN, Number.POSITIVE_INFINITY, "1", null, 1n];
const NOT_ADDRESSES = [1, -1n, 1n << 64n, "0x1000", null];

/** One bad call: its arguments and the argument the error must name. */
interface Bad {
  readonly args: readonly unknown[];
  readonly field: string;
}

/** Each value of `values` at position `at` of `args`, all naming `field`. */
/** A table of no pages, as sharePages gives it. */
const SHARED = { handles: [], pages: [], owed: [], filled: [] };

function each(field: string, at: number, args: readonly unknown[], values: readonly unknown[]): Bad[] {
  return values.map((v) => ({ args: args.map((a, i) => (i === at ? v : a)), field }));
}

/** A class's instance maker and its public methods' bad calls; `constructor`: `new` with the args. */
interface ClassTable {
  readonly make: () => object;
  readonly context: string;
  readonly cls: abstract new (...args: never[]) => object;
  readonly calls: Readonly<Record<string, readonly Bad[]>>;
  /** Public members that take no number, each with why. */
  readonly noNumbers: Readonly<Record<string, string>>;
}

const ringOf = () => new Device("trn2").queue(0, 0).tx;

/** Bad calls of a number fast path's page, offset in it and length (DeviceMemory.pageAt and kin). */
const PAGE_SPAN: readonly Bad[] = [
  ...each("pageNo", 0, [0, 4096, 4], [...NOT_INTEGERS, 2 ** 44 + 1]),
  ...each("offset", 1, [0, 4096, 4], [...NOT_INTEGERS, PAGE_BYTES]),
  ...each("len", 2, [0, 4096, 4], NOT_INTEGERS),
];

const CLASSES: readonly ClassTable[] = [
  {
    cls: Device,
    context: "Device",
    make: () => new Device("trn2"),
    calls: {
      constructor: [
        ...each("arch", 0, ["trn2"], [null, undefined, {}, true]),
        ...each("options", 1, ["trn2", {}], [null, 5]),
        { args: ["trn2", { packetBudget: 0 }], field: "packetBudget" },
        { args: ["trn2", { packetBudget: 1.5 }], field: "packetBudget" },
        { args: ["trn2", { memoryBudget: -1 }], field: "memoryBudget" },
        { args: ["trn2", { registerLog: -1 }], field: "registerLog" },
        { args: ["trn2", { overflow: "__proto__" }], field: "overflow" },
        { args: ["trn2", { keepEvents: "no" }], field: "keepEvents" },
        { args: ["trn2", { sharedMemory: 1 }], field: "sharedMemory" },
        { args: ["trn2", { costModel: {} }], field: "costModel" },
        { args: ["trn2", { onSemaphore: 1 }], field: "onSemaphore" },
        { args: ["trn2", { regs: {} }], field: "regs" },
        { args: ["trn2", { bogus: 1 }], field: "bogus" },
      ],
      queue: [
        ...each("engine", 0, [0, 0], [...NOT_INTEGERS, 1e6]),
        ...each("queue", 1, [0, 0], [...NOT_INTEGERS, TRN2.queuesPerEngine]),
      ],
      semaphore: [
        ...each("block", 0, [0, 0], [0.5, -1, 99, "0"]),
        ...each("index", 1, [0, 0], [...NOT_INTEGERS, 256, 1e9]),
      ],
      engineTime: each("engine", 0, [0], [...NOT_INTEGERS, 1e6]),
      advanceEngine: [
        ...each("engine", 0, [0, 0], [...NOT_INTEGERS, 1e6]),
        ...each("ns", 1, [0, 0], [-1, Number.NaN, Number.POSITIVE_INFINITY, "5", null]),
      ],
      run: each("packetBudget", 0, [1], [0, 0.5, -1, Number.NaN, "1", null]),
      runCount: each("packetBudget", 0, [1], [0, 0.5, -1, Number.NaN, "1", null]),
    },
    noNumbers: { step: "no arguments" },
  },
  {
    cls: DeviceMemory,
    context: "DeviceMemory",
    make: () => new Device("trn2").memory,
    calls: {
      constructor: [
        ...each("options", 0, [{}], [null, 5]),
        { args: [{ budgetBytes: -1 }], field: "budgetBytes" },
        { args: [{ budgetBytes: 0.5 }], field: "budgetBytes" },
        { args: [{ budget: 1 }], field: "budget" },
        { args: [{ shared: "yes" }], field: "shared" },
      ],
      map: [
        ...each("spec", 0, [{}], [null, 5]),
        { args: [{ name: 1, base: 0n, bytes: 1n, kind: "hbm" }], field: "name" },
        { args: [{ name: "r", base: 5, bytes: 1n, kind: "hbm" }], field: "base" },
        { args: [{ name: "r", base: 1n << 70n, bytes: 1n, kind: "hbm" }], field: "base" },
        { args: [{ name: "r", base: 0n, bytes: 0n, kind: "hbm" }], field: "r.bytes" },
        { args: [{ name: "r", base: 0n, bytes: 1n << 65n, kind: "hbm" }], field: "r.bytes" },
        { args: [{ name: "r", base: 0n, bytes: 1n, kind: "dram" }], field: "r.kind" },
        { args: [{ name: "r", base: 0n, bytes: 1n, kind: "mmio", onWrite32: 1 }], field: "r.onWrite32" },
      ],
      mapAll: [
        ...each("specs", 0, [[]], [null, {}]),
        { args: [[{ name: "r", base: 0n, bytes: -4n, kind: "hbm" }]], field: "r.bytes" },
      ],
      regionOf: [
        ...each("addr", 0, [A, 4], NOT_ADDRESSES),
        ...each("len", 1, [A, 4], [...NOT_INTEGERS, 2 ** 33]),
        ...each("what", 2, [A, 4, "x"], [5, null]),
      ],
      read: [
        ...each("addr", 0, [A, 4], NOT_ADDRESSES),
        ...each("len", 1, [A, 4], [...NOT_INTEGERS, 2 ** 33]),
      ],
      readInto: [
        ...each("addr", 0, [A, BYTES], NOT_ADDRESSES),
        ...each("out", 1, [A, BYTES], [new Uint16Array(2), [0, 0], null, 4]),
      ],
      peek: [...each("addr", 0, [A, 4], NOT_ADDRESSES), ...each("len", 1, [A, 4], NOT_INTEGERS)],
      sharePages: [
        ...each("pageNos", 0, [[]], [null, 5, [-1], [0.5], ["1"]]),
        { args: [[0]], field: "shared" },
      ],
      arenaHandles: [{ args: [], field: "shared" }],
      arenaIndexOf: each("buffer", 0, [new ArrayBuffer(4)], [null, 5, "x", new Uint8Array(4)]),
      adoptPages: [
        ...each("shared", 0, [SHARED, 1], [null, {}, { ...SHARED, pages: [1] }]),
        ...each("slot", 1, [SHARED, 1], [...NOT_INTEGERS, 0, 8]),
      ],
      setPages: [
        ...each("shared", 0, [SHARED, 0, 0], [null, {}]),
        ...each("from", 1, [SHARED, 0, 0], [...NOT_INTEGERS, 1]),
        ...each("to", 2, [SHARED, 0, 0], [...NOT_INTEGERS, 1]),
      ],
      spansOf: [
        ...each("addr", 0, [A, 4, false], NOT_ADDRESSES),
        ...each("len", 1, [A, 4, false], NOT_INTEGERS),
        ...each("write", 2, [A, 4, false], ["yes", 1, undefined]),
      ],
      pageAt: PAGE_SPAN,
      pageToOverwrite: PAGE_SPAN,
      overwritten: PAGE_SPAN,
      keptPageAt: [
        ...each("keep", 0, [new PageKeep(), 4096, 4], [null, {}, "keep"]),
        ...each("a", 1, [new PageKeep(), 4096, 4], [...NOT_INTEGERS, 2 ** 65]),
        ...each("len", 2, [new PageKeep(), 4096, 4], NOT_INTEGERS),
      ],
      write: [
        ...each("addr", 0, [A, BYTES], NOT_ADDRESSES),
        ...each("data", 1, [A, BYTES], [new Uint32Array(1), [1, 2], "ab", null]),
      ],
      fill: [
        ...each("addr", 0, [A, 4, 0], NOT_ADDRESSES),
        ...each("len", 1, [A, 4, 0], NOT_INTEGERS),
        ...each("byte", 2, [A, 4, 0], [...NOT_INTEGERS, 256, 300]),
      ],
      poke: [
        ...each("addr", 0, [A, 4], NOT_ADDRESSES),
        ...each("len", 1, [A, 4], NOT_INTEGERS),
        ...each("overwrite", 3, [A, 4, "write", false], ["yes", 1]),
      ],
      readU32: each("addr", 0, [A], NOT_ADDRESSES),
      writeU32: [
        ...each("addr", 0, [A, 0], NOT_ADDRESSES),
        ...each("value", 1, [A, 0], [...NOT_INTEGERS, 2 ** 32]),
      ],
    },
    noNumbers: {
      mapped: "a getter",
      allocatedBytes: "a getter",
      release: "no arguments",
      unseal: "no arguments",
    },
  },
  {
    cls: DmaQueue,
    context: "DmaQueue",
    make: () => new Device("trn2").queue(0, 0),
    calls: {
      constructor: [...each("engine", 0, [0, 0], NOT_INTEGERS), ...each("queue", 1, [0, 0], NOT_INTEGERS)],
    },
    noNumbers: { runnable: "a getter", status: "a getter" },
  },
  {
    cls: PageKeep,
    context: "PageKeep",
    make: () => new PageKeep(),
    // No arguments: a PageKeep is a record DeviceMemory.keptPageAt fills (its fields are its own).
    calls: { constructor: [] },
    noNumbers: {},
  },
  {
    cls: Ring,
    context: "Ring",
    make: () => {
      const ring = ringOf();
      ring.slots = 64;
      ring.posted = 2;
      return ring;
    },
    calls: {
      constructor: [
        ...each("engine", 0, [0, 0, "tx"], NOT_INTEGERS),
        ...each("queue", 1, [0, 0, "tx"], NOT_INTEGERS),
        ...each("name", 2, [0, 0, "tx"], ["m2s", null]),
      ],
      baseLo: each("value", 0, [0], [...NOT_INTEGERS, 2 ** 32]),
      baseHi: each("value", 0, [0], [...NOT_INTEGERS, 2 ** 32]),
      slotDescriptor: [
        ...each("n", 0, [0, 0, new Uint8Array(PAGE_BYTES), 0], [...NOT_INTEGERS, 64]),
        ...each("slot", 1, [0, 0, new Uint8Array(PAGE_BYTES), 0], [...NOT_INTEGERS, 64]),
        ...each("page", 2, [0, 0, new Uint8Array(PAGE_BYTES), 0], [null, [1]]),
        ...each("at", 3, [0, 0, new Uint8Array(PAGE_BYTES), 0], [...NOT_INTEGERS, PAGE_BYTES]),
      ],
      slotOf: each("k", 0, [0], NOT_INTEGERS),
      phaseOf: each("k", 0, [0], NOT_INTEGERS),
      consume: each("n", 0, [0], [...NOT_INTEGERS, 3]),
    },
    noNumbers: {
      base: "a getter",
      baseNumber: "a getter",
      tail: "a getter",
      reset: "no arguments",
      misconfiguration: "no arguments",
    },
  },
  {
    cls: ProfileCostModel,
    context: "ProfileCostModel",
    make: () => new ProfileCostModel(TRN2),
    calls: {
      constructor: [
        { args: [TRN2, { descriptorLatencyNs: -1 }], field: "descriptorLatencyNs" },
        { args: [TRN2, { descriptorLatencyNs: Number.NaN }], field: "descriptorLatencyNs" },
        { args: [TRN2, { bytesPerNs: 0 }], field: "bytesPerNs" },
        { args: [TRN2, { bytesPerNs: "64" }], field: "bytesPerNs" },
        { args: [TRN2, { rate: 1 }], field: "rate" },
      ],
    },
    noNumbers: { durationNs: "the engine's own Work of a packet it ran" },
  },
  {
    cls: SemaphoreBlock,
    context: "SemaphoreBlock",
    make: () => new Device("trn2").semaphores.get(0) as SemaphoreBlock,
    calls: {
      constructor: [
        ...each("block", 0, [0, 0n, () => {}], [...NOT_INTEGERS, 256]),
        ...each("base", 1, [0, 0n, () => {}], NOT_ADDRESSES),
        ...each("listener", 2, [0, 0n, () => {}], [null, 1]),
      ],
      write32: [...each("value", 1, [0n, 0], [...NOT_INTEGERS, 2 ** 32])],
      refusal: each("addr", 0, [0n], NOT_ADDRESSES),
      read32: each("addr", 0, [0n], NOT_ADDRESSES),
    },
    noNumbers: {},
  },
];

/** Members declared `private` in src/engine (TypeScript's, on the prototype all the same). */
const PRIVATE = (() => {
  const dir = join(import.meta.dirname, "../../src/engine");
  const names = new Set<string>();
  for (const f of readdirSync(dir, { recursive: true })
    .map(String)
    .filter((n) => n.endsWith(".ts"))) {
    const text = readFileSync(join(dir, f), "utf8");
    for (const m of text.matchAll(/^\s+private (?:readonly )?(?:get |set )?(\w+)\(/gm))
      names.add(m[1] as string);
  }
  return names;
})();

/** Exported classes that take no number, each with why. */
const CLASSES_WITHOUT_NUMBERS: Readonly<Record<string, string>> = {
  PlanCache: "plans fetched descriptor chains; every field is checked as a descriptor fault",
  DescriptorFault: "an error the engine raises",
  WatchdogFault: "an error the engine raises",
  MemoryFault: "an error the engine raises",
  MemoryBudgetError: "an error the engine raises",
};

/** A prototype's public members besides `constructor`, as get / set / method. */
function members(cls: ClassTable["cls"]): string[] {
  return Object.getOwnPropertyNames(cls.prototype).filter((k) => k !== "constructor" && !PRIVATE.has(k));
}

/** Call `name` of `table` (a constructor, a setter or a method) with `args`. */
function invoke(table: ClassTable, name: string, args: readonly unknown[]): unknown {
  const Cls = table.cls as unknown as new (...a: unknown[]) => object;
  if (name === "constructor") return new Cls(...args);
  const target = table.make() as Record<string, unknown>;
  const d = Object.getOwnPropertyDescriptor(table.cls.prototype, name);
  if (d?.set !== undefined) {
    target[name] = args[0];
    return undefined;
  }
  return (target[name] as (...a: unknown[]) => unknown)(...args);
}

/** The context a call's error names: `Device` for its constructor, else `Device.queue`. */
const contextOf = (table: ClassTable, name: string) =>
  name === "constructor" ? table.context : `${table.context}.${name}`;

describe("engine classes refuse bad arguments", () => {
  it("every exported class has a table", () => {
    const isClass = (f: unknown) =>
      typeof f === "function" && /^class\b/.test(Function.prototype.toString.call(f));
    const classes = Object.entries(engine)
      .filter(([, v]) => isClass(v))
      .map(([k]) => k);
    const listed = new Set([...CLASSES.map((t) => t.cls.name), ...Object.keys(CLASSES_WITHOUT_NUMBERS)]);
    expect(classes.filter((c) => !listed.has(c))).toEqual([]);
  });

  it.each(CLASSES.map((t) => [t.context, t] as const))("%s: every public member has a row", (_, t) => {
    const listed = new Set([...Object.keys(t.calls), ...Object.keys(t.noNumbers)]);
    expect(members(t.cls).filter((m) => !listed.has(m))).toEqual([]);
    expect(Object.keys(t.calls)).toContain("constructor");
  });

  const cases = CLASSES.flatMap((t) =>
    Object.entries(t.calls).flatMap(([name, bads]) =>
      bads.map((bad, k) => [`${contextOf(t, name)} #${k} (${bad.field})`, t, name, bad] as const),
    ),
  );
  it.each(cases)("%s is a FieldError naming the argument", (_, t, name, bad) => {
    const e = thrown(() => invoke(t, name, bad.args));
    expect(e, String(e)).toBeInstanceOf(FieldError);
    expect(e).toMatchObject({ field: bad.field });
    expect((e as FieldError).context.startsWith(contextOf(t, name))).toBe(true);
  });
});

describe("the review's silent wraps are refused", () => {
  it("queue(0.5, 0), semaphore(0, 1e9), writeU32(a, 2^32), fill(a, n, 300)", () => {
    const dev = new Device("trn2");
    expect(() => dev.queue(0.5, 0)).toThrow("Device.queue(engine): 0.5 is out of range: an integer 0..");
    expect(() => dev.semaphore(0, 1e9)).toThrow("Device.semaphore(index): 1000000000 is out of range");
    expect(() => dev.memory.writeU32(A, 2 ** 32)).toThrow(
      "DeviceMemory.writeU32(value): 4294967296 is out of range: an integer 0..4294967295",
    );
    expect(() => dev.memory.fill(A, 4, 300)).toThrow(
      "DeviceMemory.fill(byte): 300 is out of range: an integer 0..255",
    );
    expect(() => dev.memory.read(A, "4" as unknown as number)).toThrow(
      'DeviceMemory.read(len): "4" (string) is not',
    );
    expect(dev.memory.allocatedBytes).toBe(0);
  });

  it("good calls still work at the bounds", () => {
    const dev = new Device("trn2");
    dev.memory.writeU32(A, 2 ** 32 - 1);
    expect(dev.memory.readU32(A)).toBe(2 ** 32 - 1);
    dev.memory.fill(A, 4, 255);
    expect(dev.memory.read(A, 4)).toEqual(new Uint8Array(4).fill(255));
    expect(dev.queue(0, TRN2.queuesPerEngine - 1).queue).toBe(TRN2.queuesPerEngine - 1);
    expect(dev.semaphore(0, 255)).toBe(0);
    dev.advanceEngine(0, 12.5);
    expect(dev.engineTime(0)).toBe(12.5);
  });
});

/**
 * The index's functions: bad calls of those that take numbers, and why the others need none. A new
 * export lands in one of the two lists, or this fails.
 */
const FUNCTIONS: Readonly<Record<string, readonly Bad[]>> = {
  adoptArenas: [
    ...each("handles", 0, [[], 1], [null, 5, "x"]),
    ...each("slot", 1, [[], 1], [...NOT_INTEGERS, 0, 8]),
  ],
  gceCompress: [
    ...each("blockLog2", 1, [new Float32Array(4), 2, {}, new Uint8Array(8)], [16, -1, 0.5]),
    ...each("values", 0, [new Float32Array(4), 2, {}, new Uint8Array(8)], [[1, 2, 3, 4], null]),
    ...each("payload.length", 3, [new Float32Array(4), 2, {}, new Uint8Array(8)], [new Uint8Array(7)]),
  ],
  gceDecompress: [
    ...each("count", 1, [new Uint8Array(8), 4, 2, new Float32Array(4)], [5, -1, 0.5, "4"]),
    ...each("blockLog2", 2, [new Uint8Array(8), 4, 2, new Float32Array(4)], [16, 1.5]),
    ...each("payload", 0, [new Uint8Array(8), 4, 2, new Float32Array(4)], [[0], null]),
    ...each("values", 3, [new Uint8Array(8), 4, 2, new Float32Array(4)], [new Float64Array(4), null]),
  ],
  readGceHeader: each("bytes", 0, [new Uint8Array(16)], [[0], null, "GCE1"]),
  psumAddress: each("core", 1, [TRN2, 0, 0, 0], [0.5, -1, 99]),
  semaphoreAddress: each("index", 3, [TRN2, 0, "increment", 0], [0.5, 256]),
  sbufAddress: each("partition", 2, [TRN2, 0, 0, 0], [0.5, 128]),
  engineCsrBase: each("engine", 1, [TRN2, 0], [0.5, -1, 1e6]),
  hbmAddress: each("offset", 1, [TRN2, 0n], [-1n, 1n << 60n, 5, "0"]),
  toDescriptor: each(
    "bytes",
    1,
    [{ engine: 0, queue: 0, ring: "tx", slot: 0 }, new Uint8Array(16)],
    [[0], null],
  ).concat(
    each(
      "bytes.length",
      1,
      [{ engine: 0, queue: 0, ring: "tx", slot: 0 }, new Uint8Array(16)],
      [new Uint8Array(15)],
    ),
  ),
};

const FUNCTIONS_WITHOUT_NUMBERS: Readonly<Record<string, string>> = {
  planPacket: "fetched descriptor chains; every field is checked as a descriptor fault",
  resolveEmbeddedSem: "the engine's own packet path, given the engine it runs",
  describeRef: "formats a ref for a message",
  describeAddress: "never throws: names what any value is (tested below)",
  deviceMemoryMap: "a profile",
  engineCount: "a profile",
  eventBlocks: "a profile",
  gceHeader: "its fields are encoded through the GCE header layout, which refuses each",
  hexAddr: "formats an address",
  hostBlockOf: "a look-up by buffer: any other value is no arena, undefined",
  pageNumber: "arithmetic on a Number, the fast path's",
  pageOffset: "arithmetic on a Number, the fast path's",
  pooledArenaBytes: "no arguments",
  releaseFreeArenas: "no arguments",
};

describe("engine functions refuse bad arguments", () => {
  const isClass = (f: unknown) =>
    typeof f === "function" && /^class\b/.test(Function.prototype.toString.call(f));
  it("every exported function has a row", () => {
    const fns = Object.entries(engine)
      .filter(([, v]) => typeof v === "function" && !isClass(v))
      .map(([k]) => k);
    const listed = new Set([...Object.keys(FUNCTIONS), ...Object.keys(FUNCTIONS_WITHOUT_NUMBERS)]);
    expect(fns.filter((f) => !listed.has(f))).toEqual([]);
  });

  const cases = Object.entries(FUNCTIONS).flatMap(([name, bads]) =>
    bads.map((bad, k) => [`${name} #${k} (${bad.field})`, name, bad] as const),
  );
  it.each(cases)("%s is a FieldError naming the argument", (_, name, bad) => {
    const f = (engine as unknown as Record<string, (...a: unknown[]) => unknown>)[name] as (
      ...a: unknown[]
    ) => unknown;
    const e = thrown(() => f(...bad.args));
    expect(e, String(e)).toBeInstanceOf(FieldError);
    expect(e).toMatchObject({ field: bad.field });
  });
});

describe("describeAddress names what any value is", () => {
  it("a Number or a string is said not to be an address, not a TypeError", () => {
    expect(engine.describeAddress(TRN2, 5 as unknown as bigint)).toBe("5 is not an address (a bigint)");
    expect(engine.describeAddress(TRN2, -1n)).toBe("outside the device memory map");
  });
});
