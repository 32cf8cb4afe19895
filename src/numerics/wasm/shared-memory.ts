/**
 * The kernels module with a shared memory: the same code, its one memory declared `shared` with a
 * maximum, so an arena's buffer is a SharedArrayBuffer that worker threads read and write in place
 * (collectives/threads). Made by rewriting the module's memory section rather than shipping a second
 * binary: the kernels never use atomics, so their code is valid over either memory, and the bits
 * they compute do not depend on which.
 */

/** Whether `b` is shared memory (a browser page without cross-origin isolation has none). */
export const isSharedBuffer = (b: unknown): b is SharedArrayBuffer =>
  typeof SharedArrayBuffer !== "undefined" && b instanceof SharedArrayBuffer;

/** The most pages a shared arena may have: 2 GiB, WasmArena's largest (a shared memory needs a maximum). */
export const SHARED_MAX_PAGES = 32768;

/** Section id of the memory section (WebAssembly binary format). */
const MEMORY_SECTION = 5;
/** Limits flag: minimum and maximum, shared. */
const SHARED_LIMITS = 3;

/** Unsigned LEB128 of `n`. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** The unsigned LEB128 at `at` of `bytes`, and where it ends. */
function readLeb(bytes: Uint8Array, at: number): { value: number; end: number } {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = bytes[at++] as number;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return { value, end: at };
}

/** Where a section starts and ends in a module, its id and the pages of a memory section's one memory. */
interface Section {
  readonly id: number;
  readonly at: number;
  readonly end: number;
  /** The minimum pages of the one memory a memory section declares (undefined: not one). */
  readonly minPages: number | undefined;
}

/** The sections of a WebAssembly binary, in order. */
function sections(module: Uint8Array): Section[] {
  const out: Section[] = [];
  for (let at = 8; at < module.length; ) {
    const id = module[at] as number;
    const size = readLeb(module, at + 1);
    const end = size.end + size.value;
    let minPages: number | undefined;
    if (id === MEMORY_SECTION) {
      const count = readLeb(module, size.end);
      if (count.value === 1) minPages = readLeb(module, count.end + 1).value;
    }
    out.push({ id, at, end, minPages });
    at = end;
  }
  return out;
}

/** `module` with the bytes [at, end) replaced by `bytes`. */
function splice(module: Uint8Array, at: number, end: number, bytes: readonly number[]): Uint8Array {
  const out = new Uint8Array(at + bytes.length + module.length - end);
  out.set(module.subarray(0, at));
  out.set(bytes, at);
  out.set(module.subarray(end), at + bytes.length);
  return out;
}

/** A section of `id` holding `body`. */
const section = (id: number, body: readonly number[]): number[] => [id, ...leb(body.length), ...body];

/** Shared limits from `min` pages to {@link SHARED_MAX_PAGES}. */
const sharedLimits = (min: number): number[] => [SHARED_LIMITS, ...leb(min), ...leb(SHARED_MAX_PAGES)];

/**
 * `module` (a WebAssembly binary defining one memory) with that memory shared, up to
 * {@link SHARED_MAX_PAGES}; undefined when it has no memory section of exactly one memory.
 */
export function withSharedMemory(module: Uint8Array): Uint8Array | undefined {
  const memory = sections(module).find((s) => s.id === MEMORY_SECTION);
  if (memory?.minPages === undefined) return undefined;
  return splice(
    module,
    memory.at,
    memory.end,
    section(MEMORY_SECTION, [1, ...sharedLimits(memory.minPages)]),
  );
}

/** Section id of the import section, and the import kind of a memory. */
const IMPORT_SECTION = 2;
const MEMORY_IMPORT = 2;
/** Where {@link withImportedMemory}'s module takes its memory from: `env.memory`. */
export const MEMORY_IMPORT_NAME = { module: "env", field: "memory" } as const;

/** A WebAssembly name: its UTF-8 length, then its bytes (ASCII here). */
const name = (text: string): number[] => [...leb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

/**
 * `module` (a WebAssembly binary defining one memory and importing nothing) taking a shared memory
 * as its import `env.memory` instead: another thread's instance over an arena made on this one, so
 * both run the kernels on the same bytes (`shared` false: a plain memory, another module's instance
 * over an arena of this thread). Undefined when the module is not of that form.
 */
export function withImportedMemory(module: Uint8Array, shared = true): Uint8Array | undefined {
  const all = sections(module);
  const memory = all.find((s) => s.id === MEMORY_SECTION);
  if (memory?.minPages === undefined || all.some((s) => s.id === IMPORT_SECTION)) return undefined;
  const entry = [
    ...name(MEMORY_IMPORT_NAME.module),
    ...name(MEMORY_IMPORT_NAME.field),
    MEMORY_IMPORT,
    ...(shared ? sharedLimits(memory.minPages) : [0, ...leb(memory.minPages)]),
  ];
  const withoutMemory = splice(module, memory.at, memory.end, []);
  // The import section goes after the type section (id 1), before every other.
  const after = all.find((s) => s.id > IMPORT_SECTION && s.id !== 0)?.at ?? module.length;
  return splice(withoutMemory, after, after, section(IMPORT_SECTION, [1, ...entry]));
}
