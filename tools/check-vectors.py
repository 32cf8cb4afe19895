#!/usr/bin/env python3
"""An independent consumer of an sdmakit vector set (docs/VECTORS.md): Python 3 standard library
only, sdmakit not imported. It checks, by its own means,

- the manifest: each file's size and SHA-256;
- layouts: every encode and decode case by bit packing from layouts.declarations.json (a leaf's bit
  b is bit b of the layout read as one little-endian integer), refusals by range;
- numerics: every cast between the float dtypes (fp32, bf16, fp16, fp8 e3m4 / e4m3 / e5m2) and the
  integer dtypes, RNE and SR (with the case's recorded random words) under each overflow policy, by
  exact rational arithmetic on each format's grid;
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
from fractions import Fraction

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
    if "zeroMeans" in leaf:
        # The raw 0 stands for zeroMeans (a 65536-byte length written as 0); 0 has no encoding.
        if v == leaf["zeroMeans"]:
            return 0
        return v if 0 < v < (1 << width) else None
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
    if raw == 0 and "zeroMeans" in leaf:
        return leaf["zeroMeans"]
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


# ---- numerics: casts between every float and integer dtype, RNE and SR ---------------------------
#
# Exact rational arithmetic (fractions.Fraction) over each format's own grid, not bit tricks: every
# float dtype is IEEE-like (docs/FIDELITY.md) with `exp` exponent and `man` mantissa bits, bias
# 2^(exp-1) - 1, an all-ones exponent for inf (mantissa 0) and NaN.

FLOATS = {"fp32": (8, 23), "bf16": (8, 7), "fp16": (5, 10), "fp8_e3": (3, 4), "fp8_e4": (4, 3), "fp8_e5": (5, 2)}
INTS = {
    "int8": (8, True), "uint8": (8, False), "int16": (16, True), "uint16": (16, False),
    "int32": (32, True), "uint32": (32, False), "int64": (64, True), "uint64": (64, False),
}
WIDTH = {name: (1 + e + m) // 8 for name, (e, m) in FLOATS.items()} | {n: b // 8 for n, (b, _) in INTS.items()}


def decode_float(dtype, code):
    """A float code → (sign, value): value is a Fraction, "inf" or "nan"."""
    e, m = FLOATS[dtype]
    bias, sign = 2 ** (e - 1) - 1, code >> (e + m)
    field, frac = (code >> m) & (2**e - 1), code & (2**m - 1)
    if field == 2**e - 1:
        return sign, "nan" if frac else "inf"
    if field == 0:
        return sign, Fraction(frac, 2**m) * Fraction(2) ** (1 - bias)
    return sign, (1 + Fraction(frac, 2**m)) * Fraction(2) ** (field - bias)


def decode_int(dtype, code):
    bits, signed = INTS[dtype]
    value = code - 2**bits if signed and code >> (bits - 1) else code
    return (1 if value < 0 else 0), Fraction(abs(value))


def floor_log2(v):
    """⌊log2 v⌋ of a positive Fraction."""
    k = v.numerator.bit_length() - v.denominator.bit_length()
    return k if Fraction(2) ** k <= v else k - 1


def round_up(frac, code, man, word):
    """Whether a value `frac` of the way from code to code + 1 rounds up: RNE (ties to even) without
    a word; SR with the top 23 - man bits r of the element's word: up when floor(frac * 2^n) + r >= 2^n
    (docs/FIDELITY.md: the random bits added just below the kept LSB)."""
    if word is None:
        return frac > Fraction(1, 2) or (frac == Fraction(1, 2) and code & 1)
    n = 23 - man
    return int(frac * 2**n) + (word >> (32 - n)) >= 2**n


def encode_float(dtype, sign, value, policy, word=None):
    """(sign, value) → the code of `dtype` under the overflow policy (the ledger's three)."""
    e, m = FLOATS[dtype]
    bias, inf = 2 ** (e - 1) - 1, (2**e - 1) << m
    nan, top = inf | 1 << (m - 1), sign << (e + m)
    if value == "nan":
        return top | nan
    overflow = {"ieee": inf, "nan": nan, "satfinite": inf - 1}[policy]
    if value == "inf":
        return top | (inf - 1 if policy == "satfinite" else inf)
    if value >= Fraction(2) ** (2**e - 1 - bias):
        return top | overflow
    exponent = max(floor_log2(value), 1 - bias) if value else 1 - bias
    spacing = Fraction(2) ** (exponent - m)
    k = math.floor(value / spacing)
    code = k if exponent == 1 - bias else (exponent + bias) << m | (k - 2**m)
    code += round_up(value / spacing - k, code, m, word)
    return top | (overflow if code >= inf else code)


def encode_int(dtype, sign, value):
    """RNE to an integer, saturating at the range; NaN → 0 (docs/FIDELITY.md, int-encode MODEL)."""
    bits, signed = INTS[dtype]
    lo, hi = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    if value == "nan":
        return 0
    n = (hi if sign == 0 else lo) if value == "inf" else round(-value if sign else value)
    return min(max(n, lo), hi) % 2**bits


def cast_one(inp, code, word):
    """One element: its FP32 bits and its code in the target dtype."""
    source = decode_float if inp["from"] in FLOATS else decode_int
    sign, value = source(inp["from"], code)
    if inp["from"] == "fp32":
        f32 = code
    elif value == "nan":  # a wider NaN keeps its payload, moved up under FP32's mantissa
        e, m = FLOATS[inp["from"]]
        f32 = sign << 31 | 0x7F800000 | (code & (2**m - 1)) << (23 - m)
    else:
        f32 = encode_float("fp32", sign, value, "ieee")  # exact from a float, RNE from an integer
    sign, value = decode_float("fp32", f32)
    if inp["to"] in INTS:
        return f32, encode_int(inp["to"], sign, value)
    if inp["to"] == "fp32":
        return f32, f32
    return f32, encode_float(inp["to"], sign, value, inp["overflow"], word)


def check_numerics(directory, report):
    for case in read_cases(directory, "numerics"):
        inp, exp = case["input"], case["expect"]
        known = inp.get("kind") == "cast" and all(inp[k] in WIDTH for k in ("from", "to"))
        if not known:
            report.count("numerics", checked=False)
            continue
        report.count("numerics")
        where = f"numerics/{case['id']}"
        words = [int(w, 16) for w in exp.get("srWords", [])] if "srSeed" in inp else None
        for k, hex_code in enumerate(inp["codes"]):
            word = words[k] if words is not None and inp["to"] in FLOATS else None
            f32, code = cast_one(inp, int(hex_code, 16), word)
            if exp["fp32"][k] != f"0x{f32:08x}":
                report.fail(where, f"fp32[{k}]: expected {exp['fp32'][k]}, recomputed 0x{f32:08x}")
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
