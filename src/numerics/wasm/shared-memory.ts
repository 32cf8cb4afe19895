/**
 * The kernels module with a shared memory: the same code, its one memory declared `shared` with a
 * maximum, so an arena's buffer is a SharedArrayBuffer that worker threads read and write in place
 * (collectives/threads). Made by rewriting the module's memory section rather than shipping a second
 * binary: the kernels never use atomics, so their code is valid over either memory, and the bits
 * they compute do not depend on which.
 */

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

/**
 * `module` (a WebAssembly binary defining one memory) with that memory shared, up to
 * {@link SHARED_MAX_PAGES}; undefined when it has no memory section of exactly one memory.
 */
export function withSharedMemory(module: Uint8Array): Uint8Array | undefined {
  let at = 8;
  while (at < module.length) {
    const id = module[at] as number;
    const size = readLeb(module, at + 1);
    const end = size.end + size.value;
    if (id === MEMORY_SECTION) {
      const count = readLeb(module, size.end);
      if (count.value !== 1) return undefined;
      const min = readLeb(module, count.end + 1);
      const body = [1, SHARED_LIMITS, ...leb(min.value), ...leb(SHARED_MAX_PAGES)];
      const section = [MEMORY_SECTION, ...leb(body.length), ...body];
      const out = new Uint8Array(at + section.length + module.length - end);
      out.set(module.subarray(0, at));
      out.set(section, at);
      out.set(module.subarray(end), at + section.length);
      return out;
    }
    at = end;
  }
  return undefined;
}
