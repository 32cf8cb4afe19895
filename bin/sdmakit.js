#!/usr/bin/env node
// The installed entry point: a shim over the built CLI (run `npm run build` first in a checkout).
import { main } from "../dist/cli/main.js";

// `sdmakit layouts | head` closes the pipe early: that ends the output, it is not a crash. Any other
// output error (a full disk: `> /dev/full`, a closed descriptor) is one line and exit 2.
function outputFailed(e) {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`sdmakit: cannot write output (${e.code ?? e.message})\n`);
  process.exit(2);
}
process.stdout.on("error", outputFailed);

function write(text) {
  try {
    process.stdout.write(text);
  } catch (e) {
    outputFailed(e);
  }
}

process.exitCode = await main(process.argv.slice(2), {
  out: write,
  err: (text) => process.stderr.write(text),
});
