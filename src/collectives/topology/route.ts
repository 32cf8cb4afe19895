/**
 * Which chip-to-chip links a transfer crosses inside a node. Each chip has 4 links; a link is named
 * by its sending chip and its port 0..3 (one direction of it). Routes are dimension-ordered:
 * - a 4-D hypercube of 16 chips (Trn1 NeuronLink-v2): port d flips bit d of the chip index; a
 *   route flips the differing bits from bit 0 up (1–4 hops);
 * - a 4 × 4 torus (Trn2, Trn3; chip c at x = c mod 4, y = ⌊c / 4⌋): ports +x, −x, +y, −y; a route
 *   goes the shorter way along x, then along y (ties: +), at most 2 + 2 hops.
 * MODEL: the runtime's routing is not public; dimension order is the textbook choice.
 */
import type { ArchWiring } from "./links.js";

/** Ports per chip. */
export const CHIP_PORTS = 4;

/** Torus side (chips per row and column). */
const SIDE = 4;

/**
 * Call `link(chip · 4 + port)` for every link from chip `a` to chip `b` (chips of one node, a ≠ b).
 * @example chipRoute(ARCH_WIRING.trn1, 0, 3, (l) => out.push(l)); // links 0 (0→1 on port 0), 5 (1→3 on port 1)
 */
export function chipRoute(links: ArchWiring, a: number, b: number, link: (id: number) => void): void {
  if (links.chipNetwork === "hypercube-4d") {
    let at = a;
    for (let d = 0; d < CHIP_PORTS; d++) {
      if (((at ^ b) >> d) & 1) {
        link(at * CHIP_PORTS + d);
        at ^= 1 << d;
      }
    }
    return;
  }
  let x = a % SIDE;
  let y = Math.floor(a / SIDE);
  const walk = (from: number, to: number, plus: number, step: (dir: 1 | -1) => void) => {
    let d = (to - from + SIDE) % SIDE;
    const dir = d <= SIDE / 2 ? 1 : -1;
    if (dir < 0) d = SIDE - d;
    for (; d > 0; d--) {
      link((y * SIDE + x) * CHIP_PORTS + plus + (dir > 0 ? 0 : 1));
      step(dir);
    }
  };
  walk(x, b % SIDE, 0, (dir) => {
    x = (x + dir + SIDE) % SIDE;
  });
  walk(y, Math.floor(b / SIDE), 2, (dir) => {
    y = (y + dir + SIDE) % SIDE;
  });
}
