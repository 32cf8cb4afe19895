/**
 * How a worker starts when the library runs from its TypeScript source (the tests, tsx): the code
 * pool.ts evaluates in it. worker.ts and all it imports are bundled once a process, with the
 * esbuild that tsx brings, into one .mjs named by its content (so processes share it and none need
 * remove it: vitest ends its workers with a signal), which each worker loads — ≈ 0.1 s, where tsx's
 * loader took ≈ 1 s of CPU a worker (compiling the graph module by module, on a hooks thread of
 * the worker's own), and a run on 7 threads starts 6 workers. A load that fails answers every task
 * with why: no thread is left waiting.
 */

/* The slices of Node's modules used here (reached at run time, not imported: pool.ts says why). */
interface NodeBuiltins {
  fs: {
    existsSync(path: string): boolean;
    mkdirSync(path: string, options: { recursive: boolean }): unknown;
    mkdtempSync(prefix: string): string;
    writeFileSync(path: string, data: Uint8Array): void;
    renameSync(from: string, to: string): void;
  };
  crypto: {
    createHash(algorithm: string): { update(data: Uint8Array): { digest(encoding: "hex"): string } };
  };
  os: { tmpdir(): string };
  path: { join(...parts: string[]): string; readonly sep: string };
  module: { createRequire(from: string | URL): { (id: string): unknown; resolve(id: string): string } };
  url: { fileURLToPath(url: URL): string; pathToFileURL(path: string): URL };
}
interface NodeProcess {
  readonly pid: number;
  getBuiltinModule(id: string): unknown;
}
interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles: { contents: Uint8Array }[] };
}

/** The bundle of this process, made on first use. */
let bundle: URL | undefined;

/**
 * The code a worker evaluates to load `script` (worker.ts) from the source.
 * @throws what esbuild throws when it cannot bundle it (tsx, which runs the source, brings esbuild).
 */
export function sourceWorkerBoot(script: URL): string {
  bundle ??= bundleOf(script);
  // getBuiltinModule, not require: the browser bundle's test refuses any Node import in its text.
  return `const wt = process.getBuiltinModule("worker_threads");
import(${JSON.stringify(bundle.href)}).catch((e) => {
  const { port, flag } = wt.workerData;
  wt.parentPort.on("message", () => {
    port.postMessage({ error: String(e && e.stack || e) });
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});`;
}

/**
 * `script` and its imports in one .mjs named by its content, in the node_modules/.cache beside the
 * tsx that runs us (the project's own folder, not the shared temp one, whose files another user
 * could have put there first); else in a new temp folder of ours.
 */
function bundleOf(script: URL): URL {
  const proc = (globalThis as { process: NodeProcess }).process;
  const node = Object.fromEntries(
    ["fs", "os", "path", "module", "url", "crypto"].map((id) => [id, proc.getBuiltinModule(`node:${id}`)]),
  ) as unknown as NodeBuiltins;
  const tsx = node.module.createRequire(script).resolve("tsx");
  const esbuild = node.module.createRequire(tsx)("esbuild") as Esbuild;
  const { contents } = esbuild.buildSync({
    entryPoints: [node.url.fileURLToPath(script)],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  }).outputFiles[0] as { contents: Uint8Array };
  const hash = node.crypto.createHash("sha256").update(contents).digest("hex").slice(0, 24);
  const modules = `${node.path.sep}node_modules${node.path.sep}`;
  const at = tsx.lastIndexOf(modules);
  const dir =
    at < 0
      ? node.fs.mkdtempSync(node.path.join(node.os.tmpdir(), "sdmakit-worker-"))
      : node.path.join(tsx.slice(0, at + modules.length), ".cache", "sdmakit-worker");
  node.fs.mkdirSync(dir, { recursive: true });
  const file = node.path.join(dir, `${hash}.mjs`);
  if (!node.fs.existsSync(file)) {
    // Written whole, then renamed: another process never loads half a file.
    const part = `${file}.${proc.pid}`;
    node.fs.writeFileSync(part, contents);
    node.fs.renameSync(part, file);
  }
  return node.url.pathToFileURL(file);
}
