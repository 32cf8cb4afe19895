// The one module every output file goes through: what it refuses before any work, how it writes
// (a random exclusive temporary, every write checked, fsync, rename) and what an error leaves (the
// old file, no temporary). Device nodes, FIFOs and sockets are made by the test in its own folder,
// never the system's.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type FileOps, main, openOutputs, writeOutput } from "../../src/cli/index.js";

const isRoot = process.getuid?.() === 0;
const folder = () => fs.mkdtempSync(join(tmpdir(), "sdmakit-out-"));
const entries = (dir: string) => fs.readdirSync(dir).sort();
const as = (option: string, path: string) => ({ option, path });

/** A run writing `files` (report first, then trace); its output and exit. */
async function runTo(report: string, trace?: string, ...more: string[]) {
  const args = ["-r", "2", "-b", "64", "-e", "128", "--report-to-json-file", report, ...more];
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const status = await main(["allr", ...args, ...(trace === undefined ? [] : ["--trace", trace])], io);
  return { status, stdout: out.join(""), stderr: err.join("") };
}

describe("output files: refused before the run, the target unchanged", () => {
  it("a FIFO, a directory, a socket, a symlink, a read-only file (and, as root, a device node)", async () => {
    const dir = folder();
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const sub = join(dir, "sub");
    fs.mkdirSync(sub);
    const victim = join(dir, "victim");
    fs.writeFileSync(victim, "victim");
    const link = join(dir, "link");
    fs.symlinkSync(victim, link);
    const ro = join(dir, "ro");
    fs.writeFileSync(ro, "read-only");
    fs.chmodSync(ro, 0o444);
    const sock = join(dir, "sock");
    const server = createServer();
    await new Promise<void>((done) => server.listen(sock, done));
    const cases: [string, RegExp][] = [
      [fifo, /is a FIFO/],
      [sub, /is a directory/],
      [sock, /is a socket/],
      [link, /is a symbolic link; give --follow-symlinks/],
      [ro, /is read-only/],
    ];
    if (isRoot) {
      const dev = join(dir, "full");
      execFileSync("mknod", [dev, "c", "1", "7"]);
      cases.push([dev, /is a character device/]);
    }
    const before = entries(dir);
    for (const [path, why] of cases) {
      for (const r of [await runTo(path), await runTo(join(dir, "new.json"), path)]) {
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(why);
        expect(r.stdout).toBe(""); // before the run: not even the header
      }
    }
    expect(entries(dir)).toEqual(before);
    server.close();
    expect(fs.readFileSync(victim, "utf8")).toBe("victim");
    expect(fs.readFileSync(ro, "utf8")).toBe("read-only");
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("the same file named twice (also through ./, a hard link or a followed symlink)", async () => {
    const dir = folder();
    const same = join(dir, "same.json");
    fs.writeFileSync(same, "old");
    fs.linkSync(same, join(dir, "hard.json"));
    fs.symlinkSync(same, join(dir, "soft.json"));
    for (const other of [same, join(dir, ".", "same.json"), join(dir, "hard.json"), join(dir, "soft.json")]) {
      const r = await runTo(same, other, "--follow-symlinks");
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/names the same file as (--trace|--report-to-json-file)/);
      expect(r.stdout).toBe("");
    }
    expect(fs.readFileSync(same, "utf8")).toBe("old");
    expect(entries(dir)).toEqual(["hard.json", "same.json", "soft.json"]);
  });

  it.runIf(isRoot)("as root: a file of another user is not replaced", async () => {
    const dir = folder();
    const theirs = join(dir, "theirs.json");
    fs.writeFileSync(theirs, "theirs");
    fs.chownSync(theirs, 65534, 65534);
    const r = await runTo(theirs);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/belongs to another user \(uid 65534\)/);
    expect(fs.readFileSync(theirs, "utf8")).toBe("theirs");
    expect(fs.statSync(theirs).uid).toBe(65534);
  });

  it("--follow-symlinks writes the file a symlink points to and keeps the link", async () => {
    const dir = folder();
    const real = join(dir, "real.json");
    fs.writeFileSync(real, "old");
    fs.chmodSync(real, 0o640);
    fs.symlinkSync("real.json", join(dir, "link.json"));
    const r = await runTo(join(dir, "link.json"), undefined, "--follow-symlinks");
    expect(r.status).toBe(0);
    expect(fs.lstatSync(join(dir, "link.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, "utf8")).config.operation).toBe("allr");
    expect(fs.statSync(real).mode & 0o777).toBe(0o640); // the old file's mode carried over
    expect(entries(dir)).toEqual(["link.json", "real.json"]);
  });
});

/** The real calls, with a disk that fills after `room` bytes. */
function fullDisk(room: number): FileOps {
  let left = room;
  return {
    ...fs,
    writeSync: ((fd: number, buf: Uint8Array, off: number, len: number) => {
      if (left <= 0) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      const n = Math.min(len, left);
      left -= n;
      return fs.writeSync(fd, buf, off, n);
    }) as FileOps["writeSync"],
  };
}

describe("output files: writing", () => {
  it("a full disk (injected ENOSPC after a short write): the old file intact, no temporary, an error", () => {
    const dir = folder();
    const target = join(dir, "r.json");
    fs.writeFileSync(target, "old report");
    const [file] = openOutputs([as("--report-to-json-file", target)], { fs: fullDisk(100) });
    file?.write("x".repeat(60)); // fits
    expect(() => file?.write("y".repeat(60))).toThrow(
      /--report-to-json-file .*cannot write \(ENOSPC\); the old file is kept/,
    );
    expect(fs.readFileSync(target, "utf8")).toBe("old report");
    expect(entries(dir)).toEqual(["r.json"]);
  });

  it("a short write is continued, not lost; the file lands whole with mode 0666 less the umask", () => {
    const dir = folder();
    const target = join(dir, "doc.md");
    const text = "é".repeat(5000);
    const trickle = {
      ...fs,
      writeSync: ((fd: number, b: Uint8Array, o: number, l: number) =>
        fs.writeSync(fd, b, o, Math.min(l, 7))) as FileOps["writeSync"],
    };
    writeOutput(target, text, { fs: trickle });
    expect(fs.readFileSync(target, "utf8")).toBe(text);
    expect(fs.statSync(target).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it("a symlink planted at the temporary name is never followed: another name is taken", () => {
    const dir = folder();
    const victim = join(dir, "victim");
    fs.writeFileSync(victim, "victim");
    const target = join(dir, "out.json");
    const opened: string[] = [];
    const planting = {
      ...fs,
      openSync: ((path: string, flags: number, mode: number) => {
        opened.push(path);
        if (opened.length === 1) fs.symlinkSync(victim, path); // planted between naming and opening
        return fs.openSync(path, flags, mode);
      }) as FileOps["openSync"],
    };
    writeOutput(target, "new", { fs: planting });
    expect(fs.readFileSync(victim, "utf8")).toBe("victim");
    expect(fs.readFileSync(target, "utf8")).toBe("new");
    expect(opened).toHaveLength(2);
    expect(opened[0]).not.toBe(opened[1]);
    expect(opened[0]).toMatch(/\.out\.json\.[0-9a-f]{16}\.tmp$/);
    fs.rmSync(opened[0] as string);
    expect(entries(dir)).toEqual(["out.json", "victim"]);
  });

  it("the temporary is created O_EXCL with mode 0600 beside the target; abandon removes it", () => {
    const dir = folder();
    const [file] = openOutputs([as("--trace", join(dir, "t.json"))]);
    const [temp] = entries(dir);
    expect(temp).toMatch(/^\.t\.json\.[0-9a-f]{16}\.tmp$/);
    expect(fs.statSync(join(dir, temp as string)).mode & 0o777).toBe(0o600);
    file?.abandon();
    expect(entries(dir)).toEqual([]);
  });
});
