/** The page's deflated copy of the wasm kernels (vite.config.ts, oneKernelCopy). */
declare module "virtual:sdmakit-kernels" {
  export const KERNELS_DEFLATED_BASE64: string;
}
