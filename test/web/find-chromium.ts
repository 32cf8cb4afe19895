/**
 * The Chromium the browser tests drive, found with no manual step: `SDMAKIT_CHROMIUM` when set,
 * else Debian's `/usr/bin/chromium` (.ci/run installs it), else the binary that `npm ci` brings
 * inside the `@sparticuz/chromium` package (unpacked to the temp folder, with the NSS libraries it
 * ships, which a machine without Debian's chromium lacks). No browser is ever downloaded.
 */
import { existsSync } from "node:fs";

/** The flags that work on this machine (no sandbox as root, no GPU, no network chatter). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const DEBIAN = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/**
 * The path of a Chromium binary and where it came from. `SDMAKIT_CHROMIUM=package` skips Debian's
 * (to check the fallback on a machine that has both).
 * @throws Error saying how to get one when there is none (a test must fail, not skip).
 */
export async function findChromium(): Promise<{ path: string; from: string }> {
  const fromEnv = process.env.SDMAKIT_CHROMIUM;
  if (fromEnv !== undefined && fromEnv !== "" && fromEnv !== "package") {
    if (!existsSync(fromEnv)) throw new Error(`SDMAKIT_CHROMIUM=${fromEnv} does not exist`);
    return { path: fromEnv, from: "SDMAKIT_CHROMIUM" };
  }
  const debian = fromEnv === "package" ? undefined : DEBIAN.find((p) => existsSync(p));
  if (debian !== undefined) return { path: debian, from: "Debian chromium" };
  try {
    // The package unpacks its own NSS / expat libraries (and points LD_LIBRARY_PATH at them, which
    // the browser inherits) only where it thinks it runs on Amazon Linux; a bare Debian needs them too.
    process.env.AWS_EXECUTION_ENV ??= "AWS_Lambda_nodejs20.x";
    const { default: chromium } = await import("@sparticuz/chromium");
    return { path: await chromium.executablePath(), from: "@sparticuz/chromium" };
  } catch (e) {
    throw new Error(
      `no Chromium for the browser tests: none at ${DEBIAN.join(" or ")} (apt-get install -y chromium) ` +
        `and @sparticuz/chromium failed (${(e as Error).message}); run npm ci, or set SDMAKIT_CHROMIUM`,
    );
  }
}
