/** The explorer page: three views (Decode, Build, Run), the one shown named in the URL. */
import { mountBuild } from "./build-view.js";
import { mountDecode } from "./decode-view.js";
import { startKernels } from "./kernels-share.js";
import { mountRun } from "./run-view.js";
import { readState, writeState } from "./url-state.js";

const VIEWS = { decode: mountDecode, build: mountBuild, run: mountRun } as const;
type View = keyof typeof VIEWS;
const mounted = new Set<View>();

function showView(): void {
  const asked = readState().get("view") ?? "decode";
  const view: View = asked in VIEWS ? (asked as View) : "decode";
  for (const name of Object.keys(VIEWS) as View[]) {
    const section = document.getElementById(name) as HTMLElement;
    section.hidden = name !== view;
    const tab = document.querySelector(`nav [data-view="${name}"]`);
    if (name === view) tab?.setAttribute("aria-current", "page");
    else tab?.removeAttribute("aria-current");
  }
  if (!mounted.has(view)) {
    mounted.add(view);
    VIEWS[view](document.getElementById(view) as HTMLElement);
  }
}

for (const b of document.querySelectorAll<HTMLButtonElement>("nav button")) {
  b.addEventListener("click", () => {
    writeState({ view: b.dataset.view ?? "decode" });
    showView();
  });
}
window.addEventListener("hashchange", () => {
  // A link inside the page (Build → "open in Decode") sets new inputs: remount that view.
  const view = readState().get("view") as View | null;
  if (view !== null && view in VIEWS && mounted.has(view)) {
    mounted.delete(view);
    (document.getElementById(view) as HTMLElement).replaceChildren();
  }
  showView();
});
void startKernels();
showView();
