/**
 * A file written in pieces to a temporary name beside its target and renamed into place at the
 * end: a failed or interrupted run never empties or half-writes a file that was there before.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../bits/errors.js";

export interface AtomicFile {
  write(text: string): void;
  /** Rename into place. */
  commit(): void;
  /** Remove the temporary file (the target is untouched). */
  abandon(): void;
}

function cannot(option: string, path: string, e: unknown): UsageError {
  return new UsageError(
    `${option} ${JSON.stringify(path)}: cannot write (${(e as NodeJS.ErrnoException).code ?? e})`,
  );
}

/**
 * Open `path` for writing through a temporary file (created now, so a bad path fails before a run).
 * @param option the flag that named the file, for messages
 * @throws UsageError naming the option and path when the file cannot be created or written.
 */
export function openAtomic(option: string, path: string): AtomicFile {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "w");
  } catch (e) {
    throw cannot(option, path, e);
  }
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    write(text) {
      try {
        writeSync(fd as number, text);
      } catch (e) {
        throw cannot(option, path, e);
      }
    },
    commit() {
      close();
      try {
        renameSync(temp, path);
      } catch (e) {
        rmSync(temp, { force: true });
        throw cannot(option, path, e);
      }
    },
    abandon() {
      close();
      rmSync(temp, { force: true });
    },
  };
}
