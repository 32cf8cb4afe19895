#!/usr/bin/env node
// The installed entry point: a shim over the built CLI (run `npm run build` first in a checkout).
import { constants } from "node:os";
import { main } from "../dist/cli/main.js";

// `sdmakit layouts | head` closes the pipe early: that ends the output, it is not a crash (a sweep
// sees it between sizes, where it yields to the event loop). Any other output error (a full disk:
// `> /dev/full`, a closed descriptor) is one line and exit 2. Exiting removes the temporaries of
// files not yet written (the output-file module's exit hook).
function outputFailed(e) {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  complain(`sdmakit: cannot write output (${e.code ?? e.message})\n`);
  process.exit(2);
}
process.stdout.on("error", outputFailed);

// A stderr that cannot be written (`2>/dev/full`) loses the message, never the exit code.
function complain(text) {
  try {
    process.stderr.write(text);
  } catch {
    // Nowhere left to say it.
  }
}
process.stderr.on("error", () => {});

function write(text) {
  try {
    process.stdout.write(text);
  } catch (e) {
    outputFailed(e);
  }
}

// Ctrl-C / SIGTERM: a sweep stops after the size it is in, removes its temporary files and prints
// the summary of the rows done; a second signal exits at once (the exit hook still removes them).
let interrupted;
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    if (interrupted !== undefined) process.exit(128 + constants.signals[signal]);
    interrupted = signal;
  });

process.exitCode = await main(process.argv.slice(2), {
  out: write,
  err: complain,
  interrupted: () => interrupted,
});
