#!/usr/bin/env node
// The installed entry point: a shim over the built CLI (run `npm run build` first in a checkout).
import { main } from "../dist/cli/main.js";

// `sdmakit layouts | head` closes the pipe early: that ends the output, it is not a crash.
process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
