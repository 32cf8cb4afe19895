#!/usr/bin/env python3
"""An independent consumer of an sdmakit vector set (docs/VECTORS.md): Python 3 standard library
only, sdmakit not imported. It checks, by its own means,

- the manifest: each file's size and SHA-256;
- layouts: every encode and decode case by bit packing from layouts.declarations.json (a leaf's bit
  b is bit b of the layout read as one little-endian integer), refusals by range;
- numerics: the RNE casts between fp32, bf16 and fp16 under each overflow policy, by `struct`
  (half and single precision) and bf16 as the top half of a single;
- collectives: every rank's output, by recomputing the collective (sum / max / min / avg over the
  decoded inputs; copies for sendrecv and the exchanges), compared as the case's `compare` says.

Usage: check-vectors.py DIR. Prints one line per difference, `set/case-id: field: ...`, and a
summary; exits 1 on any difference, 2 on unreadable input.
"""
import hashlib
import json
import math
import os
import struct
import sys

FILL = 0xA5  # what every output byte holds before a collective (the set's schema)


class Report:
    def __init__(self):
        self.failures = []
        self.checked = {}
        self.skipped = {}

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")

    def count(self, name, checked=True):
        book = self.checked if checked else self.skipped
        book[name] = book.get(name, 0) + 1


def read_cases(directory, name):
    with open(os.path.join(directory, f"{name}.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---- manifest ---------------------------------------------------------------------------------


def check_manifest(directory, report):
    with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    for s in manifest["sets"]:
        for entry in s["files"]:
            with open(os.path.join(directory, entry["file"]), "rb") as f:
                data = f.read()
            if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                report.fail(f"manifest/{entry['file']}", "sha256 differs from the file")
            if len(data) != entry["bytes"]:
                report.fail(f"manifest/{entry['file']}", f"bytes {entry['bytes']}, file has {len(data)}")
    return [s["name"] for s in manifest["sets"]]


# ---- layouts ----------------------------------------------------------------------------------


def as_int(value):
    """A field value as an integer: a number, a bool, or "0x…" / "-0x…"."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return -int(value[3:], 16) if value.startswith("-0x") else int(value, 16)
    return value


def f32_bits(value):
    if isinstance(value, str):
        return int(value, 16)
    return struct.unpack("<I", struct.pack("<f", value))[0]  # raises OverflowError out of range


def leaf_raw(leaf, value):
    """The leaf's raw bits for a value, or None when the encoder must refuse it."""
    kind, width = leaf["kind"], leaf["width"]
    if kind == "f32":
        try:
            return f32_bits(value)
        except OverflowError:
            return None
    if kind == "bool":
        return int(value) if value in (True, False) else None
    v = as_int(value)
    if not isinstance(v, int):
        return None
    if kind == "int":
        lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
        return v & ((1 << width) - 1) if lo <= v <= hi else None
    if kind == "const":
        return v if v == leaf["value"] else None
    if kind == "reserved":
        return v if v == 0 else None
    if kind == "enum" and str(v) not in leaf.get("names", {}):
        return None
    return v if 0 <= v < (1 << width) else None


def encode(layout, fields):
    """The bytes of `fields`, or the name of the first field refused."""
    by_path = {leaf["path"]: leaf for leaf in layout["leaves"]}
    word = 0
    for leaf in layout["leaves"]:
        if leaf["kind"] == "const" and leaf["path"] not in fields:
            word |= leaf["value"] << leaf["bit"]
    for path, value in fields.items():
        leaf = by_path.get(path)
        raw = None if leaf is None else leaf_raw(leaf, value)
        if raw is None:
            return path
        word &= ~(((1 << leaf["width"]) - 1) << leaf["bit"])
        word |= raw << leaf["bit"]
    return word.to_bytes(layout["bytes"], "little").hex()


def decode_field(leaf, word):
    raw = (word >> leaf["bit"]) & ((1 << leaf["width"]) - 1)
    kind, width = leaf["kind"], leaf["width"]
    if kind == "f32":
        return f"0x{raw:08x}"
    if kind == "bool":
        return raw == 1
    if kind == "int" and raw >> (width - 1):
        raw -= 1 << width
    if width > 32:
        return f"-0x{-raw:x}" if raw < 0 else f"0x{raw:x}"
    return raw


def issues_of(layout, word):
    """
    The (kind, field) of every const, reserved, unnamed-enum and undeclared bit run. A leaf inside
    a union (`arms` non-empty) is not judged: which arm the bytes hold is not in them.
    """
    out = set()
    covered = 0
    for leaf in layout["leaves"]:
        mask = ((1 << leaf["width"]) - 1) << leaf["bit"]
        covered |= mask
        raw = (word & mask) >> leaf["bit"]
        if leaf["arms"]:
            continue
        if leaf["kind"] == "const" and raw != leaf["value"]:
            out.add(("const", leaf["path"]))
        elif leaf["kind"] == "reserved" and raw != 0:
            out.add(("reserved", leaf["path"]))
        elif leaf["kind"] == "enum" and str(raw) not in leaf.get("names", {}):
            out.add(("enum", leaf["path"]))
    stray = word & ~covered
    bit = 0
    while stray >> bit:
        if (stray >> bit) & 1:
            end = bit
            while (stray >> (end + 1)) & 1:
                end += 1
            out.add(("undeclared", f"bits {bit}..{end}"))
            bit = end
        bit += 1
    return out


def check_layouts(directory, report):
    with open(os.path.join(directory, "layouts.declarations.json"), encoding="utf-8") as f:
        layouts = {layout["name"]: layout for layout in json.load(f)}
    for case in read_cases(directory, "layouts"):
        where, inp, exp = f"layouts/{case['id']}", case["input"], case["expect"]
        layout = layouts.get(inp["layout"])
        if layout is None:
            report.fail(where, f"layout {inp['layout']!r} is not declared")
            continue
        report.count("layouts")
        if inp["op"] == "encode":
            got = encode(layout, inp["fields"])
            if "error" in exp:
                if got != exp["error"]["field"]:
                    report.fail(where, f"error.field: expected {exp['error']['field']!r}, recomputed {got!r}")
            elif got != exp["bytes"]:
                report.fail(where, f"bytes: expected {exp['bytes']}, recomputed {got}")
            continue
        word = int.from_bytes(bytes.fromhex(inp["bytes"]), "little")
        for leaf in layout["leaves"]:
            want, got = exp["fields"].get(leaf["path"]), decode_field(leaf, word)
            if want != got:
                report.fail(where, f"fields.{leaf['path']}: expected {want!r}, recomputed {got!r}")
        want = {(i["kind"], i["field"]) for i in exp["issues"]}
        got = issues_of(layout, word)
        if want != got:
            report.fail(where, f"issues: expected {sorted(want)}, recomputed {sorted(got)}")


# ---- numerics: fp32 / bf16 / fp16 casts ----------------------------------------------------------

WIDTH = {"fp32": 4, "bf16": 2, "fp16": 2}


def to_f32_bits(dtype, code):
    """A code's value as binary32 bits (exact: both narrow formats widen exactly)."""
    if dtype == "fp32":
        return code
    if dtype == "bf16":
        return code << 16
    sign, exp, man = code >> 15, (code >> 10) & 0x1F, code & 0x3FF
    if exp == 0x1F:  # inf / NaN: the payload moves up, as a widening does
        return (sign << 31) | 0x7F800000 | (man << 13)
    return struct.unpack("<I", struct.pack("<f", struct.unpack("<e", code.to_bytes(2, "little"))[0]))[0]


def f32_to(dtype, bits):
    """binary32 bits → the code of `dtype` under RNE, overflow to ±inf."""
    if dtype == "fp32":
        return bits
    sign, nan = bits >> 31, (bits & 0x7FFFFFFF) > 0x7F800000
    if nan:  # the ledger's MODEL (docs/FIDELITY.md): the canonical quiet NaN, sign kept
        return (sign << 15) | (0x7FC0 if dtype == "bf16" else 0x7E00)
    if dtype == "bf16":
        return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    value = struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    try:
        return int.from_bytes(struct.pack("<e", value), "little")
    except OverflowError:
        return (sign << 15) | 0x7C00


INF = {"bf16": 0x7F80, "fp16": 0x7C00}
MAX_FINITE = {"bf16": 0x7F7F, "fp16": 0x7BFF}


def with_overflow(dtype, f32, code, policy):
    """The ieee result under the case's overflow policy (the ledger: docs/FIDELITY.md)."""
    if dtype == "fp32" or policy == "ieee" or (code & 0x7FFF) != INF[dtype]:
        return code
    sign = code & 0x8000
    if policy == "satfinite":
        return sign | MAX_FINITE[dtype]
    inf_in = (f32 & 0x7FFFFFFF) == 0x7F800000
    return code if inf_in else sign | (0x7FC0 if dtype == "bf16" else 0x7E00)


def check_numerics(directory, report):
    for case in read_cases(directory, "numerics"):
        inp, exp = case["input"], case["expect"]
        casts = inp.get("kind") == "cast" and inp["from"] in WIDTH and inp["to"] in WIDTH
        if not casts or "srSeed" in inp:
            report.count("numerics", checked=False)
            continue
        report.count("numerics")
        where = f"numerics/{case['id']}"
        for k, code in enumerate(inp["codes"]):
            f32 = to_f32_bits(inp["from"], int(code, 16))
            if exp["fp32"][k] != f"0x{f32:08x}":
                report.fail(where, f"fp32[{k}]: expected {exp['fp32'][k]}, recomputed 0x{f32:08x}")
            code = with_overflow(inp["to"], f32, f32_to(inp["to"], f32), inp["overflow"])
            got = f"{code:0{2 * WIDTH[inp['to']]}x}"
            if exp["codes"][k] != got:
                report.fail(where, f"codes[{k}]: expected {exp['codes'][k]}, recomputed {got}")


# ---- collectives --------------------------------------------------------------------------------

FORMATS = {
    "fp32": "<f", "fp16": "<e", "int8": "<b", "uint8": "<B", "int16": "<h",
    "uint16": "<H", "int32": "<i", "uint32": "<I",
}


def elements(dtype, hex_bytes):
    data = bytes.fromhex(hex_bytes)
    if dtype == "bf16":
        return [struct.unpack("<f", b"\0\0" + data[i : i + 2])[0] for i in range(0, len(data), 2)]
    fmt = FORMATS[dtype]
    return [v[0] for v in struct.iter_unpack(fmt, data)]


def reduce_all(op, columns, n):
    if op == "sum":
        return [math.fsum(c) for c in columns]
    if op == "max":
        return [max(c) for c in columns]
    if op == "min":
        return [min(c) for c in columns]
    return [math.fsum(c) / n for c in columns]


def block_copies(inp, ins, n):
    """Each rank's output as a list of (dst element, src rank, src element) for the exchanges."""
    coll, count, spec = inp["collective"], inp["count"], inp.get("exchange", {})
    moves = [[] for _ in range(n)]
    if coll == "permute":
        for s, t in spec.get("pairs", [[s, (s + 1) % n] for s in range(n)]):
            moves[t] += [(e, s, e) for e in range(len(ins[s]))]
    elif coll == "alltoall" or (coll == "alltoallv" and "metadata" not in spec):
        k = count // n
        for d in range(n):
            for s in range(n):
                moves[d] += [(s * k + e, s, d * k + e) for e in range(k)]
    elif coll == "allgv" and "metadata" not in spec:
        k = count // n
        for d in range(n):
            for s in range(n):
                moves[d] += [(s * k + e, s, e) for e in range(k)]
    else:
        meta = spec["metadata"]
        entry = (lambda r: meta[r] if len(meta) == n else meta[0])
        for d in range(n):
            at = 0
            for s in range(n):
                src, dst = entry(s), entry(d)
                j = d if coll == "alltoallv" else 0
                m = src["send_counts"][j]
                if "recv_counts" in dst:
                    m = min(m, dst["recv_counts"][s])
                base = dst["recv_displs"][s] if "recv_displs" in dst else (at if coll == "alltoallv" else s * (count // n))
                moves[d] += [(base + e, s, src["send_displs"][j] + e) for e in range(m)]
                at += m
    return moves


def check_exchange(where, inp, exp, report):
    n, width = inp["ranks"], WIDTH.get(inp["dtype"], 0) or struct.calcsize(FORMATS[inp["dtype"]])
    ins = [bytes.fromhex(h) for h in inp["inputs"]]
    elems = [[ins[r][i : i + width] for i in range(0, len(ins[r]), width)] for r in range(n)]
    for d, moves in enumerate(block_copies(inp, elems, n)):
        out = bytes.fromhex(exp["outputs"][d])
        want = bytearray([FILL]) * len(out)
        for dst, s, src in moves:
            want[dst * width : (dst + 1) * width] = elems[s][src]
        if bytes(want) != out:
            e = next(i for i in range(len(out)) if out[i] != want[i]) // width
            report.fail(where, f"outputs[{d}][{e}]: expected {out[e*width:(e+1)*width].hex()}, recomputed {want[e*width:(e+1)*width].hex()}")


def expected_outputs(inp, ins):
    n, coll = inp["ranks"], inp["collective"]
    if coll == "sendrecv":
        return [ins[(r - 1) % n] for r in range(n)]
    if coll == "allg":
        return [sum(ins, []) for _ in range(n)]
    full = reduce_all(inp["op"], list(zip(*ins)), n)
    if coll == "redsct":
        k = len(full) // n
        return [full[r * k : (r + 1) * k] for r in range(n)]
    return [full for _ in range(n)]


def check_collectives(directory, report):
    for case in read_cases(directory, "collectives"):
        where, inp, exp = f"collectives/{case['id']}", case["input"], case["expect"]
        if "error" in exp:
            report.count("collectives", checked=False)
            continue
        report.count("collectives")
        if inp["collective"] in ("alltoall", "alltoallv", "allgv", "permute"):
            check_exchange(where, inp, exp, report)
            continue
        ins = [elements(inp["dtype"], h) for h in inp["inputs"]]
        tol = exp["compare"].get("absTol", 0) if exp["compare"]["mode"] == "absTol" else 0
        for r, want in enumerate(expected_outputs(inp, ins)):
            got = elements(inp["dtype"], exp["outputs"][r])
            if len(got) != len(want):
                report.fail(where, f"outputs[{r}]: {len(got)} elements, recomputed {len(want)}")
                continue
            for e, (g, w) in enumerate(zip(got, want)):
                if not abs(g - w) <= tol:
                    report.fail(where, f"outputs[{r}][{e}]: expected {g!r}, recomputed {w!r} (absTol {tol})")
                    break


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    directory, report = argv[1], Report()
    try:
        names = check_manifest(directory, report)
        for name, check in (("layouts", check_layouts), ("numerics", check_numerics), ("collectives", check_collectives)):
            if name in names:
                check(directory, report)
    except (OSError, ValueError, KeyError) as e:
        print(f"check-vectors: cannot read {directory}: {e!r}", file=sys.stderr)
        return 2
    for line in report.failures:
        print(line)
    done = ", ".join(f"{k} {v}" for k, v in report.checked.items())
    skipped = ", ".join(f"{k} {v}" for k, v in report.skipped.items())
    print(f"checked {done} cases (not checked here: {skipped or 'none'}); {len(report.failures)} differences")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
