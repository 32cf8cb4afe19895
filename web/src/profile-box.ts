/**
 * The Run view's timing profile: the file `sdmakit calibrate` writes (what `--timing-profile FILE`
 * takes on the CLI), chosen with a file input and checked by the library's own checker
 * (`checkTimingProfile`), so the page refuses what the CLI refuses, naming the field. Its parameters
 * — not its fit notes, which can be long — go into the link (`r_profile`), so a link runs with them.
 */
import { parseJsonText } from "../../src/bits/index.js";
import {
  checkTimingProfile,
  TIMING_PROFILE_FORMAT,
  TIMING_PROFILE_VERSION,
  type TimingProfile,
} from "../../src/collectives/index.js";
import { el } from "./dom.js";
import { errorText } from "./error-text.js";

/** A checked profile and the file it came from. */
export interface NamedProfile {
  readonly name: string;
  readonly profile: TimingProfile;
}

/** The profile's parameters in a line: `trn2: launchNs=8100 packetNs=700`. */
export function profileLine(p: TimingProfile): string {
  const archs = Object.entries(p.archs).map(
    ([arch, params]) =>
      `${arch}: ${Object.entries(params ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}`,
  );
  return archs.length === 0 ? "no parameters (all shipped)" : archs.join("; ");
}

/** The link's `r_profile` value: the file's name and the parameters. */
export function profileUrlValue(p: NamedProfile): string {
  return JSON.stringify({ name: p.name, archs: p.profile.archs });
}

/** A link's `r_profile` value read back, checked as a file would be. */
export function profileFromUrl(text: string): NamedProfile {
  const v = parseJsonText("link r_profile", text) as { name?: unknown; archs?: unknown } | null;
  const name = typeof v?.name === "string" ? v.name : "link";
  const doc = { format: TIMING_PROFILE_FORMAT, version: TIMING_PROFILE_VERSION, archs: v?.archs };
  return { name, profile: checkTimingProfile(doc, `link r_profile (${name})`) };
}

export class ProfileBox {
  readonly root: HTMLElement;
  private readonly file = el("input", {
    type: "file",
    id: "profile-file",
    accept: ".json,application/json",
  });
  private readonly status = el("span", { id: "profile-status", class: "muted", "aria-live": "polite" });
  private current: NamedProfile | undefined;

  /** `onChange`: a profile was read or cleared (undefined). */
  constructor(private readonly onChange: (p: NamedProfile | undefined) => void) {
    const clear = el("button", { type: "button", id: "profile-clear" }, "use shipped timing");
    clear.addEventListener("click", () => {
      this.file.value = "";
      this.set(undefined);
    });
    this.root = el(
      "div",
      { class: "controls", id: "profile-box" },
      el("label", {}, "timing profile (sdmakit calibrate's file) ", this.file),
      clear,
      this.status,
    );
    this.file.addEventListener("change", () => {
      const f = this.file.files?.[0];
      if (f !== undefined) void this.read(f);
    });
    this.show();
  }

  /** The profile in use, if any. */
  get profile(): NamedProfile | undefined {
    return this.current;
  }

  /** Use a profile a link carries (`r_profile`); a bad one is named and the shipped timing kept. */
  fromLink(text: string): void {
    try {
      this.set(profileFromUrl(text));
    } catch (e) {
      this.set(undefined);
      this.fail(`link's timing profile not used: ${errorText(e)}`);
    }
  }

  private async read(file: File): Promise<void> {
    try {
      const doc = parseJsonText(file.name, await file.text());
      this.set({ name: file.name, profile: checkTimingProfile(doc, file.name) });
    } catch (e) {
      this.set(undefined);
      this.fail(`${file.name} not used: ${errorText(e)}`);
    }
  }

  private set(p: NamedProfile | undefined): void {
    this.current = p;
    this.show();
    this.onChange(p);
  }

  private show(): void {
    this.status.className = "muted";
    this.status.textContent =
      this.current === undefined
        ? "in use: the shipped timing"
        : `${this.current.name}: ${profileLine(this.current.profile)}`;
  }

  private fail(text: string): void {
    this.status.className = "error";
    this.status.textContent = text;
  }
}
