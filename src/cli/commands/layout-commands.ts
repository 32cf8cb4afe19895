/**
 * The layout commands: `layouts`, `describe`, `encode`, `decode`. All four read the one declared
 * layout of a format (src/spec/layouts), so what they print is what the encoders write.
 */

import type { Layout } from "../../bits/index.js";
import { DecodeError, fromHex, hex32, parseJsonText, toHex, UsageError, wordsOf } from "../../bits/index.js";
import { layoutOf } from "../../layout-of.js";
import { LAYOUTS } from "../../spec/index.js";
import { commandHelp, JSON_ONLY, parseArgs, rejectExtraPositionals, toJson } from "../args.js";
import type { Command } from "../command.js";
import { bitExactJson, f32Text } from "../f32-fields.js";
import { describeJson, describeText } from "../layout-text.js";

/** The layout a command names. @throws UsageError listing the names when unknown. */
export function namedLayout(name: string | undefined): Layout {
  if (name === undefined) throw new UsageError("missing <layout> (see `sdmakit layouts`)");
  return layoutOf(name);
}

/** Bytes of exactly the layout's length from hex. @throws DecodeError otherwise. */
export function layoutBytes(layout: Layout, hex: string | undefined): Uint8Array {
  if (hex === undefined) throw new UsageError(`missing <hex> (${layout.bytes} bytes of ${layout.name})`);
  const bytes = fromHex(hex);
  if (bytes.length !== layout.bytes) {
    throw new DecodeError(
      `${layout.name} is ${layout.bytes} bytes (${layout.bytes * 2} hex digits); got ${bytes.length}`,
    );
  }
  return bytes;
}

export const layoutsCommand: Command = {
  usage: commandHelp("sdmakit layouts [--json]", JSON_ONLY),
  run(args, io) {
    const p = parseArgs(args, JSON_ONLY);
    rejectExtraPositionals(p, 0);
    if (p.flags.has("--json")) {
      io.out(
        `${toJson(LAYOUTS.map((l) => ({ name: l.name, bytes: l.bytes, doc: l.doc, source: l.source })))}\n`,
      );
    } else {
      for (const l of LAYOUTS) io.out(`${l.name.padEnd(24)}${String(l.bytes).padStart(4)} B  ${l.doc}\n`);
    }
    return 0;
  },
};

export const describeCommand: Command = {
  usage: commandHelp("sdmakit describe <layout> [--json]", JSON_ONLY),
  run(args, io) {
    const p = parseArgs(args, JSON_ONLY);
    rejectExtraPositionals(p, 1);
    const layout = namedLayout(p.positional[0]);
    io.out(p.flags.has("--json") ? `${toJson(describeJson(layout))}\n` : describeText(layout));
    return 0;
  },
};

export const encodeCommand: Command = {
  usage: commandHelp("sdmakit encode <layout> '<json object of fields>'", {}),
  run(args, io) {
    const p = parseArgs(args, {});
    rejectExtraPositionals(p, 2);
    const layout = namedLayout(p.positional[0]);
    const text = p.positional[1];
    if (text === undefined) throw new UsageError(`missing '<json object of fields>' for ${layout.name}`);
    const fields = parseJsonText("fields", text);
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
      throw new UsageError("fields must be a JSON object of field names to values");
    }
    io.out(`${toHex(layout.encode(fields as Record<string, unknown>))}\n`);
    return 0;
  },
};

export const decodeCommand: Command = {
  usage: commandHelp("sdmakit decode <layout> <hex> [--json]", JSON_ONLY),
  run(args, io) {
    const p = parseArgs(args, JSON_ONLY);
    const layout = namedLayout(p.positional[0]);
    const bytes = layoutBytes(layout, p.positional.slice(1).join("") || undefined);
    const fields = layout.decode(bytes);
    const issues = layout.issues(bytes);
    if (p.flags.has("--json")) {
      const words = wordsOf(bytes).map(hex32);
      const exact = bitExactJson(layout, bytes, fields);
      io.out(
        `${toJson({ layout: layout.name, fields: exact.fields, f32Bits: exact.f32Bits, words, issues: issues.map((i) => ({ kind: i.kind, field: i.field, message: i.message })) })}\n`,
      );
      return 0;
    }
    io.out(`${layout.name}  ${wordsOf(bytes).map(hex32).join(" ")}\n`);
    const width = Math.max(...layout.leaves.map((l) => l.path.length));
    for (const l of layout.leaves) {
      const v = fields[l.path];
      const name = l.names && typeof v === "number" && l.names[v] ? ` (${l.names[v]})` : "";
      const text = l.kind === "f32" ? f32Text(bytes, l.bit, v as number) : String(v);
      io.out(`  ${l.path.padEnd(width)}  ${text}${name}\n`);
    }
    for (const i of issues) io.out(`  ! ${i.message}\n`);
    return 0;
  },
};
