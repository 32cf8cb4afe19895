/**
 * The ledger facts (docs/FIDELITY.md seed-fact rows, by a phrase of the row) that a layout's encode
 * cases are the subject of: its constants-only case shows the row's constant bits, its one-field
 * cases the row's bit positions (test/conformance/ledger-pins.test.ts counts them).
 */
const META_PACKS = "meta-control bit-packs of FMA / MIN-MAX / ADD / GCE / EXT";
const HAS_META = "W0 bit 23 0x800000";

export const LAYOUT_PINS: Readonly<Record<string, readonly string[]>> = {
  "fma-meta": [META_PACKS],
  "min-max-meta": [META_PACKS],
  "add-meta": [META_PACKS],
  "gce-meta": [META_PACKS, "gce-meta 0x2500000"],
  "ext-meta": [META_PACKS],
  "transpose-meta": ["transpose meta (elem & 0x1F)", "Transpose meta_ctrl = (elem & 0x1F)"],
  "fma-desc": ["FMA descriptor W0..W3 formula", HAS_META],
  "min-max-desc": ["MIN/MAX descriptor: W1 = 0 or", HAS_META],
  "seed-init-desc": ["seed_init W0", HAS_META],
  "cce-info": ["cce_info: 140 bytes"],
  s3d3: ["S3D3 struct 64 bytes", "The 0xBF word has no op field"],
  tensor3d: ["TENSOR3D: ADDR4 + int16 step[3]"],
};
