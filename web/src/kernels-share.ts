/**
 * The page's one copy of the wasm kernels (vite.config.ts leaves the library's embedded copy out of
 * both bundles): inflated and compiled once when the page loads, given to the page's library, and
 * posted to each run worker (a WebAssembly.Module is shared, not copied, with a worker). Until it
 * is ready — or where WebAssembly or DecompressionStream is missing — the JS loops run: the same bits.
 */

import { KERNELS_DEFLATED_BASE64 } from "virtual:sdmakit-kernels";
import { provideWasmKernelModule } from "../../src/numerics/index.js";

/** The message that hands a worker the compiled kernels (kernels-worker.ts takes it). */
export interface KernelsMessage {
  readonly type: "kernels";
  readonly module: WebAssembly.Module;
}

async function compileKernels(): Promise<WebAssembly.Module | undefined> {
  if (typeof WebAssembly === "undefined" || typeof DecompressionStream === "undefined") return undefined;
  const deflated = Uint8Array.from(atob(KERNELS_DEFLATED_BASE64), (c) => c.charCodeAt(0));
  const stream = new Blob([deflated]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const module = await WebAssembly.compile(await new Response(stream).arrayBuffer());
  provideWasmKernelModule(module);
  document.documentElement.dataset.kernels = "wasm";
  return module;
}

let compiled: WebAssembly.Module | undefined;
let ready: Promise<WebAssembly.Module | undefined> | undefined;
/** Start compiling the kernels (once; the page calls it as it loads): resolves when they are ready. */
export function startKernels(): Promise<WebAssembly.Module | undefined> {
  ready ??= compileKernels().then(
    (m) => {
      compiled = m;
      return m;
    },
    () => undefined,
  );
  return ready;
}

/** Hand `worker` the compiled kernels, when they are ready (else it runs the JS loops). */
export function shareKernels(worker: Worker): void {
  if (compiled !== undefined)
    worker.postMessage({ type: "kernels", module: compiled } satisfies KernelsMessage);
}
