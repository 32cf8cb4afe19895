// A shared arena another thread takes over (WasmArena.over, a split execution's workers): the
// kernels module taking its memory as an import instantiates over the arena's memory, and its
// kernels run there in place (not the JS loops), on the same bytes.
import { describe, expect, it } from "vitest";
import { aluReduceEncoded } from "../../src/numerics/alu.js";
import { aluAdd, SrStream, WasmArena, wasmKernelsRun } from "../../src/numerics/index.js";
import { withImportedMemory, withSharedMemory } from "../../src/numerics/wasm/shared-memory.js";
import { Dtype } from "../../src/spec/index.js";

describe("a shared arena taken over", () => {
  it("imports the memory instead of defining it, and nothing else changes", () => {
    // A module of a type section, a function section and one memory of 1 page (no import section).
    const module = Uint8Array.of(
      0,
      0x61,
      0x73,
      0x6d,
      1,
      0,
      0,
      0,
      1,
      4,
      1,
      0x60,
      0,
      0,
      3,
      2,
      1,
      0,
      5,
      3,
      1,
      0,
      1,
    );
    const imported = withImportedMemory(module) as Uint8Array;
    const head = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0];
    const entry = [3, 0x65, 0x6e, 0x76, 6, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 2, 3, 1, 0x80, 0x80, 2];
    expect([...imported]).toEqual([...head, 2, entry.length + 1, 1, ...entry, 3, 2, 1, 0]);
    expect(withImportedMemory(imported)).toBeUndefined();
    expect(withSharedMemory(module)).toBeDefined();
  });

  it("runs the kernels in place over the maker's bytes", () => {
    const arena = new WasmArena(1 << 20, true);
    const acc = arena.f32(0, 256).fill(1.5);
    arena.f32(1024, 256).fill(2);
    const taken = WasmArena.over(arena.handle);
    expect(taken.buffer.byteLength).toBe(arena.buffer.byteLength);
    const ran = wasmKernelsRun(() => aluAdd(taken.f32(0, 256), taken.f32(1024, 256), 256));
    expect(ran.length).toBeGreaterThan(0);
    expect([...acc.subarray(0, 4)]).toEqual([3.5, 3.5, 3.5, 3.5]);
    expect(() => WasmArena.over({})).toThrow(/WasmArena.over.*handle/);
  });

  it("keeps its kernels' view of its bytes when another shared arena grows", () => {
    // V8 hands out a new buffer object for a shared memory's bytes once another shared memory has
    // grown: the kernels compare views against the buffer they were made with, not the getter's (a
    // split run's second 1 GiB arena once made the SR words leave their lanes for the kernel's stream).
    const count = (1 << 20) + 12345;
    const span = 2 * count;
    const arena = new WasmArena(3 * span + (1 << 17), true);
    new WasmArena(1 << 30, true); // grows to 1 GiB: address space only
    const sources = [0, 1].map((k) => ({
      dt: Dtype.BFLOAT16,
      bytes: arena.u8((1 << 17) + k * span, span).fill(0x3f + k),
      byteOffset: 0,
    }));
    const out = arena.u8((1 << 17) + 2 * span, span);
    const rounding = { mode: "sr" as const, rng: new SrStream(5) };
    const run = wasmKernelsRun(() =>
      aluReduceEncoded(
        "add",
        arena.f32(0, 1 << 14),
        sources,
        count,
        arena.f32(1 << 16, 1 << 14),
        Dtype.BFLOAT16,
        out,
        0,
        rounding,
      ),
    );
    expect(run).toEqual(["add2_bf16_srw", "add2_bf16_sr"]);
  });
});
