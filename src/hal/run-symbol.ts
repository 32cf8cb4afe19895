/**
 * One HAL symbol call on a fresh device, as data: the register writes it made, its result, what it
 * logged, or the abort / assert / -EINVAL it ended in. `sdmakit hal` prints it; the `hal` vector set
 * records it.
 */
import { isEinval, jsonSafe, SdmaAbortError, SdmaAssertError, UsageError } from "../bits/index.js";
import { HAL_SYMBOLS } from "./hal-symbols.js";
import { createHalDevice } from "./khal-registrars.js";

export interface HalRun {
  readonly writes: readonly {
    readonly addr: string;
    readonly value: string;
    readonly accessor: string | undefined;
  }[];
  /** The result made JSON-safe: bigints and addresses as "0x…", bytes as hex; null for none. */
  readonly result: unknown;
  readonly log: readonly string[];
  /** The abort, assert or -EINVAL message, when the call failed. */
  readonly error?: string;
}

const hex = (n: number | bigint) => `0x${n.toString(16)}`;

/**
 * Run `symbol(args)` on a fresh HAL device of `arch`.
 * @throws UsageError for an unknown symbol, the wrong number of arguments or a malformed argument.
 * @example runHalSymbol("trn3", "aws_mariana_sdma_write_seed", [4096, 5, 3, 1234]).writes[0].addr
 */
export function runHalSymbol(arch: string | number, symbol: string, args: readonly unknown[]): HalRun {
  const entry = HAL_SYMBOLS.get(symbol);
  if (!entry) throw new UsageError(`unknown symbol ${symbol} (sdmakit hal list shows them)`);
  if (args.length !== entry.arity) {
    throw new UsageError(
      `${symbol} takes ${entry.arity} argument(s) (${entry.params.join(", ")}), got ${args.length}`,
    );
  }
  const dev = createHalDevice(arch);
  let result: unknown;
  let error: string | undefined;
  try {
    result = entry.run(dev, args);
    if (isEinval(result)) error = `-EINVAL: ${result.message}`;
  } catch (e) {
    if (!(e instanceof SdmaAssertError || e instanceof SdmaAbortError)) throw e;
    error = e.message;
  }
  const writes = dev.regs
    .writesSince()
    .map((w) => ({ addr: hex(w.addr), value: hex(w.value), accessor: w.accessor }));
  return {
    writes,
    result: jsonSafe(result) ?? null,
    log: [...dev.messages],
    ...(error === undefined ? {} : { error }),
  };
}
