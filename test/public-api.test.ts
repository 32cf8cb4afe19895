// The package's public entry points, imported by name the way a user does (after `npm run build`).
import { expect, it } from "vitest";

it("exposes the front door (encode / decode / runCollective / sweep), one namespace per layer, and each layer by its subpath", async () => {
  const api = await import("sdmakit");
  expect(Object.keys(api).sort()).toEqual([
    "COLLECTIVE_DEFAULTS",
    "bits",
    "collectives",
    "decode",
    "encode",
    "engine",
    "hal",
    "isa",
    "numerics",
    "runCollective",
    "runtime",
    "spec",
    "sweep",
  ]);
  expect(
    api.decode("fma-desc", api.encode("fma-desc", { a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 })).scale,
  ).toBe(0.5);
  const spec = await import("sdmakit/spec");
  expect(api.bits.toHex(spec.FMA_DESC.encode({ a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 }))).toBe(
    "0000800000001002000000090000003f",
  );
  for (const layer of ["bits", "numerics", "hal", "runtime", "engine", "isa", "collectives", "vectors"]) {
    expect(Object.keys(await import(/* @vite-ignore */ `sdmakit/${layer}`)).length).toBeGreaterThan(0);
  }
});
