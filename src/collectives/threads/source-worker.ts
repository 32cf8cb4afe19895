/**
 * How a worker starts when the library runs from its TypeScript source (the tests, tsx): the code
 * pool.ts evaluates in it. worker.ts and all it imports are bundled once a process, with the
 * esbuild that tsx brings, into one module (a data: URL) which each worker loads — ≈ 0.1 s, where
 * tsx's loader took ≈ 1 s of CPU a worker (compiling the graph module by module, on a hooks thread of
 * the worker's own), and a run on 7 threads starts 6 workers. A load that fails answers every task
 * with why: no thread is left waiting.
 */

/* The slices of Node's modules used here (reached at run time, not imported: pool.ts says why). */
interface NodeBuiltins {
  module: { createRequire(from: string | URL): { (id: string): unknown; resolve(id: string): string } };
  url: { fileURLToPath(url: URL): string };
}
interface NodeProcess {
  getBuiltinModule(id: string): unknown;
}
interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles: { text: string }[] };
}

/** The bundle of this process as a data: URL, made on first use. */
let bundle: string | undefined;

/**
 * The code a worker evaluates to load `script` (worker.ts) from the source.
 * @throws what esbuild throws when it cannot bundle it (tsx, which runs the source, brings esbuild).
 */
export function sourceWorkerBoot(script: URL): string {
  bundle ??= bundleOf(script);
  // getBuiltinModule, not require: the browser bundle's test refuses any Node import in its text.
  return `const wt = process.getBuiltinModule("worker_threads");
import(${JSON.stringify(bundle)}).catch((e) => {
  const { port, flag } = wt.workerData;
  wt.parentPort.on("message", () => {
    port.postMessage({ error: String(e && e.stack || e) });
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});`;
}

/**
 * `script` and its imports in one module, as a data: URL — nothing written to a disk (a file would
 * have to be placed where no other user could have put one first, and removed by a process vitest
 * ends with a signal). The bundle imports only Node's builtins, which a data: module may.
 */
function bundleOf(script: URL): string {
  const proc = (globalThis as { process: NodeProcess }).process;
  const node = Object.fromEntries(
    ["module", "url"].map((id) => [id, proc.getBuiltinModule(`node:${id}`)]),
  ) as unknown as NodeBuiltins;
  const tsx = node.module.createRequire(script).resolve("tsx");
  const esbuild = node.module.createRequire(tsx)("esbuild") as Esbuild;
  const { text } = esbuild.buildSync({
    entryPoints: [node.url.fileURLToPath(script)],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  }).outputFiles[0] as { text: string };
  // Named, or V8 writes the whole URL (≈ 1.3 MB) into each frame of a worker's stack.
  const named = `${text}\n//# sourceURL=${script.href}.bundle.js\n`;
  return `data:text/javascript,${encodeURIComponent(named)}`;
}
