/**
 * The explorer's build: one self-contained `index.html` (script, style and the run worker inlined)
 * so the folder works from any static host and from file:// — where Chrome refuses module scripts
 * and workers loaded by URL (file:// is an opaque origin), but runs inline scripts and blob workers.
 */
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import { KERNELS_WASM_BASE64 } from "../src/numerics/wasm/gen/kernels-binary.js";

/** Where `npm run build:web` writes the static folder. */
export const WEB_OUT_DIR = fileURLToPath(new URL("../dist-web", import.meta.url));

/** Inline the entry chunk and the stylesheet into index.html and drop them as files. */
function singleFile(): Plugin {
  return {
    name: "sdmakit-single-file",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((f) => f.type === "asset" && f.fileName === "index.html");
      if (html === undefined || html.type !== "asset") return;
      let text = String(html.source);
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type === "chunk" && file.isEntry) {
          // `</script` inside the code would end the element early; split it in every string.
          const code = file.code.replaceAll("</script", "<\\/script");
          text = text.replace(
            new RegExp(`<script type="module" crossorigin src="[^"]*${escapeRegExp(name)}"></script>`),
            () => `<script type="module">${code}</script>`,
          );
          delete bundle[name];
        } else if (file.type === "asset" && name.endsWith(".css")) {
          text = text.replace(
            new RegExp(`<link rel="stylesheet" crossorigin href="[^"]*${escapeRegExp(name)}">`),
            () => `<style>${String(file.source)}</style>`,
          );
          delete bundle[name];
        }
      }
      html.source = text;
    },
  };
}

const STUB = "\0sdmakit-kernels-stub";
const DEFLATED = "\0sdmakit-kernels-deflated";

/**
 * One copy of the wasm kernels: the library's embedded base64 module (≈ 500 KB, which the page and
 * the worker would each carry) is left out of both bundles, and the page carries it once,
 * deflate-compressed (≈ 24 KB: the kernels are very regular), as `virtual:sdmakit-kernels`. The
 * page inflates and compiles it once and hands the compiled module to each run worker.
 */
function oneKernelCopy(): Plugin {
  return {
    name: "sdmakit-one-kernel-copy",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "virtual:sdmakit-kernels") return DEFLATED;
      if (source === "./gen/kernels-binary.js" && importer?.replaceAll("\\", "/").includes("/numerics/wasm/"))
        return STUB;
      return null;
    },
    load(id) {
      if (id === STUB) return 'export const KERNELS_WASM_BASE64 = "";';
      if (id === DEFLATED) {
        const deflated = deflateRawSync(Buffer.from(KERNELS_WASM_BASE64, "base64"), { level: 9 });
        return `export const KERNELS_DEFLATED_BASE64 = ${JSON.stringify(deflated.toString("base64"))};`;
      }
      return null;
    },
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [oneKernelCopy(), singleFile()],
  worker: { format: "iife", plugins: () => [oneKernelCopy()] },
  build: {
    outDir: WEB_OUT_DIR,
    emptyOutDir: true,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
