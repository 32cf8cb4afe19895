// The sparse draw's spread for check-kernels.wat (check/inputs.ts drawSparseByTable): a block of
// drawn codes spread in place over the block's elements, zero bytes between. Its own file: the
// module's generator (check-kernels-wat.ts) is long enough.

import { get } from "./wat-snippets.js";

/**
 * The `n` bytes at `src` to `dst` (not below it), or zero bytes (`src` undefined): eight bytes at a
 * time from the end, then byte by byte, each piece read before it is written. A run is a few bytes
 * (16 fp8 codes): this beat a memory.copy / memory.fill call a run (1.3 s of 32 fp8 inputs of 64 MiB).
 */
function moveDown(dst: string, src: string | undefined, label: string): string {
  const piece = (load: string, store: string, zero: string, size: number) => {
    const value = src === undefined ? zero : `(${load} (i32.add ${src} ${get("n")}))`;
    return `(loop $${label}${size}
            (br_if $${label}${size}_done (i32.lt_u ${get("n")} (i32.const ${size})))
            (local.set $n (i32.sub ${get("n")} (i32.const ${size})))
            (${store} (i32.add ${dst} ${get("n")}) ${value})
            (br $${label}${size}))`;
  };
  return `(block $${label}8_done
            ${piece("i64.load", "i64.store", "(i64.const 0)", 8)})
          (block $${label}1_done
            ${piece("i32.load8_u", "i32.store8", "(i32.const 0)", 1)})`;
}

/**
 * spread(at, len, draws, phase, nonzero, ranks, eb): the `draws` codes of `eb` bytes at `at` become
 * `len` elements there, element i (q = (phase + i) mod ranks) the next code where q < nonzero, else
 * zero bytes. Run by run from the end: an element never lies before its code, so no code is
 * overwritten before it has moved.
 */
export function spreadFunction(): string {
  const dst = `(i32.add ${get("at")} (i32.mul ${get("i")} ${get("eb")}))`;
  const runUpTo = (limit: string) => `(local.set $run ${limit})
          (if (i32.gt_u ${get("run")} ${get("i")}) (then (local.set $run ${get("i")})))
          (local.set $i (i32.sub ${get("i")} ${get("run")}))
          (local.set $n (i32.mul ${get("run")} ${get("eb")}))`;
  return `  (func $spread (export "spread") (param $at i32) (param $len i32) (param $draws i32)
    (param $phase i32) (param $nonzero i32) (param $ranks i32) (param $eb i32)
    (local $i i32) (local $q i32) (local $c i32) (local $run i32) (local $n i32)
    (local.set $i ${get("len")})
    (local.set $c (i32.mul ${get("draws")} ${get("eb")}))
    ;; q of the element past the end
    (local.set $q (i32.rem_u (i32.add ${get("phase")} ${get("len")}) ${get("ranks")}))
    (block $done
      (loop $next
        (br_if $done (i32.eqz ${get("i")}))
        (if (i32.eqz ${get("q")}) (then (local.set $q ${get("ranks")})))
        (if (i32.gt_u ${get("q")} ${get("nonzero")})
          (then
          ${runUpTo(`(i32.sub ${get("q")} ${get("nonzero")})`)}
          ${moveDown(dst, undefined, "zero")})
          (else
          ${runUpTo(get("q"))}
          (local.set $c (i32.sub ${get("c")} ${get("n")}))
          ${moveDown(dst, `(i32.add ${get("at")} ${get("c")})`, "copy")}))
        (local.set $q (i32.sub ${get("q")} ${get("run")}))
        (br $next))))`;
}
