// The core and the collectives run in a browser: the public entry bundled by vite for the browser
// platform (no Node built-ins resolved), then run in a fresh V8 context that has only what a browser
// page has (no Buffer, no process, no require): encode / decode a descriptor and run an all-reduce.
import { runInNewContext } from "node:vm";
import { build } from "vite";
import { describe, expect, it } from "vitest";

const ENTRY = new URL("../../src/index.ts", import.meta.url).pathname;

describe("browser bundle", () => {
  it("bundles without Node built-ins and runs collectives with no Buffer", { timeout: 120_000 }, async () => {
    const out = (await build({
      configFile: false,
      logLevel: "silent",
      build: {
        write: false,
        minify: false,
        lib: { entry: ENTRY, formats: ["iife"], name: "sdmakit" },
      },
    })) as { output: { type: string; code?: string }[] }[];
    const code = out[0]!.output.find((o) => o.type === "chunk")!.code!;
    expect(code).not.toMatch(/\bBuffer\.|from "node:|require\("node:/);
    const page = {
      atob,
      btoa,
      TextEncoder,
      TextDecoder,
      WebAssembly: (globalThis as { WebAssembly?: unknown }).WebAssembly,
      console,
      performance,
    };
    const result = runInNewContext(
      `${code}
       const bytes = sdmakit.encode("fma-desc", { a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 });
       const r = sdmakit.runCollective({ collective: "allr", ranks: 4, size: 4096 });
       ({ scale: sdmakit.decode("fma-desc", bytes).scale, wrong: r.row.wrong, count: r.row.count,
          hasBuffer: typeof Buffer !== "undefined" });`,
      page,
    );
    expect(result).toEqual({ scale: 0.5, wrong: 0, count: 2048, hasBuffer: false });
  });
});
