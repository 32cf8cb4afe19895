/**
 * A worker's side of kernels-share.ts: the first listener on the worker's messages takes the page's
 * compiled kernels and keeps that message from the worker's own listener. Call it before adding
 * that listener (a call, not a bare import: the package declares no side effects).
 */
import { provideWasmKernelModule } from "../../src/numerics/index.js";
import type { KernelsMessage } from "./kernels-share.js";

export function takeKernels(): void {
  addEventListener("message", (e: MessageEvent<KernelsMessage | { type?: undefined }>) => {
    if (e.data?.type !== "kernels") return;
    e.stopImmediatePropagation();
    provideWasmKernelModule(e.data.module);
  });
}
