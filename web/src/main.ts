/**
 * The explorer page: three views (Decode, Build, Run), the one shown named in the URL. A tab is a
 * history entry; Back / Forward (or a link inside the page) remount a view whose inputs changed.
 * Link values no select offers are named in an alert above the view, which shows its defaults.
 */
import { mountBuild } from "./build-view.js";
import { mountDecode } from "./decode-view.js";
import { el, takeStaleValues } from "./dom.js";
import { startKernels } from "./kernels-share.js";
import { mountRun } from "./run-view.js";
import { navigation, readState, writeState } from "./url-state.js";

const VIEWS = { decode: mountDecode, build: mountBuild, run: mountRun } as const;
type View = keyof typeof VIEWS;
const mounted = new Set<View>();

/** A view's own inputs in the URL: Build's `b_…`, Run's `r_…`, Decode's the rest. */
function inputsOf(view: View, state: URLSearchParams): string {
  const mine = (k: string) =>
    view === "build" ? k.startsWith("b_") : view === "run" ? k.startsWith("r_") : !/^(b_|r_|view$)/.test(k);
  return [...state].filter(([k]) => mine(k)).join("&");
}

function mount(view: View): void {
  const root = document.getElementById(view) as HTMLElement;
  root.replaceChildren();
  takeStaleValues();
  VIEWS[view](root);
  const stale = takeStaleValues();
  if (stale.length > 0)
    root.prepend(el("p", { class: "error", id: "link-error", role: "alert" }, `link: ${stale.join("; ")}`));
}

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
    mount(view);
  }
}

for (const b of document.querySelectorAll<HTMLButtonElement>("nav button")) {
  b.addEventListener("click", () => {
    writeState({ view: b.dataset.view ?? "decode" }, "push");
    showView();
  });
}
const navigated = () => {
  const nav = navigation();
  if (nav === undefined) return;
  // Back / Forward or a link set other inputs for a view already built: build it again from them.
  for (const view of mounted)
    if (inputsOf(view, nav.before) !== inputsOf(view, nav.after)) mounted.delete(view);
  showView();
};
window.addEventListener("popstate", navigated);
window.addEventListener("hashchange", navigated);
void startKernels();
showView();
