/**
 * Every file the tools write goes through here. The files are the user's: a target is replaced only
 * when it is absent or a regular file the user owns and may write, and only at the end, by renaming
 * a complete, fsynced temporary file over it. Everything that can be refused is refused before any
 * work (`checkOutputs`): a device, FIFO, directory or socket, a symlink (unless followed on request),
 * the same file named twice, a directory we may not create in. The temporary file has a random name
 * and is created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600), so a planted file or symlink
 * at that name is never opened. Every write is checked for its full length; on any error the
 * temporary is removed and the old file is left as it was. Temporaries still open when the process
 * exits (an error, a closed pipe, a signal handler calling exit) are removed by an exit hook.
 */
import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../bits/errors.js";

/** The file-system calls used, injectable so tests can make a write fail (ENOSPC) on purpose. */
export type FileOps = Pick<
  typeof nodeFs,
  | "lstatSync"
  | "statSync"
  | "readlinkSync"
  | "realpathSync"
  | "accessSync"
  | "openSync"
  | "writeSync"
  | "fsyncSync"
  | "fchmodSync"
  | "closeSync"
  | "renameSync"
  | "rmSync"
>;

export interface OutputRequest {
  /** The flag that named the file (`--trace`), for messages. */
  readonly option: string;
  readonly path: string;
}

export interface OutputOptions {
  /** Write where a symlink points instead of refusing it. */
  readonly followSymlinks?: boolean;
  readonly fs?: FileOps;
}

export interface OutputFile {
  /** The path that will be replaced (a followed symlink's target). */
  readonly target: string;
  write(text: string): void;
  /** fsync and rename into place. */
  commit(): void;
  /** Remove the temporary file (the target is untouched). */
  abandon(): void;
}

/** Symlinks followed at most this many times (ELOOP otherwise). */
const MAX_LINKS = 40;
const TEMP_TRIES = 8;

/** Temporary files not yet committed or abandoned, removed at exit. */
const live = new Map<string, FileOps>();
let hooked = false;

/** Remove every temporary file still open (for signal handlers; also runs at process exit). */
export function removeTemporaries(): void {
  for (const [temp, fs] of live) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // Best effort at exit: nothing else can be done.
    }
  }
  live.clear();
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}

function refuse(r: OutputRequest, why: string): UsageError {
  return new UsageError(`${r.option} ${JSON.stringify(r.path)}: ${why}`);
}

function kindOf(st: nodeFs.Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

function lstatOrNone(fs: FileOps, path: string): nodeFs.Stats | undefined {
  try {
    return fs.lstatSync(path);
  } catch (e) {
    if (code(e) === "ENOENT") return undefined;
    throw e;
  }
}

/** The path a chain of symlinks ends at (it may not exist yet). */
function followLinks(r: OutputRequest, fs: FileOps, path: string): string {
  let at = resolve(path);
  for (let i = 0; i < MAX_LINKS; i++) {
    const st = lstatOrNone(fs, at);
    if (!st?.isSymbolicLink()) return at;
    at = resolve(dirname(at), fs.readlinkSync(at));
  }
  throw refuse(r, `more than ${MAX_LINKS} symbolic links (ELOOP)`);
}

interface Checked {
  /** The absolute path to replace. */
  readonly target: string;
  /** The file's identity when it exists (`dev:ino`), for the same-file check. */
  readonly identity: string;
  /** The old file's permission bits, given to the new one. */
  readonly mode: number | undefined;
}

function checkDirectory(r: OutputRequest, fs: FileOps, dir: string): string {
  let st: nodeFs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    throw refuse(r, `cannot write (${code(e)}): its directory ${dir} is not there or not usable`);
  }
  if (!st.isDirectory()) throw refuse(r, `${dir} is not a directory`);
  try {
    fs.accessSync(dir, nodeFs.constants.W_OK | nodeFs.constants.X_OK);
  } catch (e) {
    throw refuse(r, `cannot create a file in ${dir} (${code(e)})`);
  }
  return fs.realpathSync(dir);
}

/** Refuse what must not be replaced; the target's absolute path and identity otherwise. */
function checkOne(r: OutputRequest, o: OutputOptions, fs: FileOps): Checked {
  if (r.path === "") throw refuse(r, "an empty path");
  const given = resolve(r.path);
  const first = lstatOrNone(fs, given);
  if (first?.isSymbolicLink() && o.followSymlinks !== true)
    throw refuse(r, "is a symbolic link; give --follow-symlinks to write the file it points to");
  const path = followLinks(r, fs, given);
  const target = join(checkDirectory(r, fs, dirname(path)), basename(path));
  const st = lstatOrNone(fs, target);
  if (st === undefined) return { target, identity: target, mode: undefined };
  if (!st.isFile()) throw refuse(r, `is ${kindOf(st)}; only a regular file or a new name is written`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw refuse(r, `belongs to another user (uid ${st.uid}); it is not replaced`);
  // The owner's write bit, not access(): root may write anything, but a read-only file stays so.
  if ((st.mode & 0o200) === 0) throw refuse(r, "is read-only; it is not replaced (no chmod)");
  return { target, identity: `${st.dev}:${st.ino}`, mode: st.mode & 0o7777 };
}

/**
 * Check every output target before any work: each must be absent or a regular file the user owns
 * and may write, in a directory the user may create files in, and no file may be named twice.
 * @throws UsageError naming the option, the path and the reason.
 */
export function checkOutputs(requests: readonly OutputRequest[], o: OutputOptions = {}): Checked[] {
  const fs = o.fs ?? nodeFs;
  const seen = new Map<string, OutputRequest>();
  return requests.map((r) => {
    const c = checkOne(r, o, fs);
    for (const key of new Set([c.target, c.identity])) {
      const other = seen.get(key);
      if (other) throw refuse(r, `names the same file as ${other.option}; give each output its own file`);
      seen.set(key, r);
    }
    return c;
  });
}

function createTemp(r: OutputRequest, fs: FileOps, target: string): { temp: string; fd: number } {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = nodeFs.constants;
  for (let i = 0; ; i++) {
    const temp = join(dirname(target), `.${basename(target)}.${randomBytes(8).toString("hex")}.tmp`);
    try {
      return { temp, fd: fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600) };
    } catch (e) {
      if (code(e) !== "EEXIST" || i + 1 >= TEMP_TRIES) throw refuse(r, `cannot write (${code(e)})`);
    }
  }
}

/** The mode a new file gets: the old file's, or 0666 less the umask. */
function finalMode(c: Checked): number {
  if (c.mode !== undefined) return c.mode;
  const mask = process.umask();
  return 0o666 & ~mask;
}

/** Open one checked target: its temporary file is created now. */
function openChecked(r: OutputRequest, c: Checked, o: OutputOptions): OutputFile {
  const fs = o.fs ?? nodeFs;
  const { temp, fd } = createTemp(r, fs, c.target);
  live.set(temp, fs);
  if (!hooked) {
    process.once("exit", removeTemporaries);
    hooked = true;
  }
  let open = true;
  const discard = () => {
    if (open) fs.closeSync(fd);
    open = false;
    fs.rmSync(temp, { force: true });
    live.delete(temp);
  };
  const fail = (e: unknown): UsageError => {
    discard();
    return e instanceof UsageError ? e : refuse(r, `cannot write (${code(e)}); the old file is kept`);
  };
  return {
    target: c.target,
    write(text) {
      if (!open) throw refuse(r, "written after it was closed");
      const bytes = Buffer.from(text, "utf8");
      try {
        for (let at = 0; at < bytes.length; ) {
          const n = fs.writeSync(fd, bytes, at, bytes.length - at);
          if (n <= 0) throw Object.assign(new Error("short write"), { code: "ENOSPC" });
          at += n;
        }
      } catch (e) {
        throw fail(e);
      }
    },
    commit() {
      if (!open) throw refuse(r, "committed after it was closed");
      try {
        fs.fchmodSync(fd, finalMode(c));
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        open = false;
        // Checked again: the target may have been replaced by something else during the run.
        checkOutputs([{ option: r.option, path: c.target }], { fs });
        fs.renameSync(temp, c.target);
        live.delete(temp);
      } catch (e) {
        throw fail(e);
      }
    },
    abandon() {
      if (live.has(temp)) discard();
    },
  };
}

/**
 * Check every target (see checkOutputs), then create each one's temporary file.
 * @throws UsageError before anything is created when any target is refused.
 */
export function openOutputs(requests: readonly OutputRequest[], o: OutputOptions = {}): OutputFile[] {
  const checked = checkOutputs(requests, o);
  const files: OutputFile[] = [];
  try {
    for (const [i, c] of checked.entries()) files.push(openChecked(requests[i] as OutputRequest, c, o));
  } catch (e) {
    for (const f of files) f.abandon();
    throw e;
  }
  return files;
}

/** Write a whole file at once through the same checks (the tools' generated documents). */
export function writeOutput(path: string | URL, text: string, o: OutputOptions = {}): void {
  const where = typeof path === "string" ? path : fileURLToPath(path);
  const [file] = openOutputs([{ option: "write", path: where }], o) as [OutputFile];
  file.write(text);
  file.commit();
}
