import type { Layout } from "../../bits/index.js";
import { GCE_HEADER } from "../gce-header.js";
import { CCE_INFO } from "./cce-info.js";
import {
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_DESC,
  SEED_INIT_DESC,
  TRANSPOSE_DESC,
} from "./descriptors.js";
import { EMBEDDED_SEM, EMBEDDED_SEM_W1 } from "./embedded-sem.js";
import { ADDR4, EVENTS, HEADER, PSEUDO_ADDR8_TENSOR2D, S3D3, TENSOR3D } from "./isa.js";
import {
  ADD_META,
  COPY_META,
  EXT_META,
  FMA_META,
  GCE_META,
  MIN_MAX_META,
  REPLICATION_META,
  TRANSPOSE_META,
} from "./meta-ctrl.js";
import { UDMA_RX, UDMA_TX, UDMA_TX_META } from "./udma.js";

export { CCE_INFO } from "./cce-info.js";
export {
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_DESC,
  SEED_INIT_DESC,
  TRANSPOSE_DESC,
} from "./descriptors.js";
export { EMBEDDED_SEM, EMBEDDED_SEM_W1 } from "./embedded-sem.js";
export { ADDR4, EVENTS, HEADER, PSEUDO_ADDR8_TENSOR2D, S3D3, TENSOR3D } from "./isa.js";
export {
  ADD_META,
  COPY_META,
  EXT_META,
  FMA_META,
  GCE_META,
  MIN_MAX_META,
  REPLICATION_META,
  REPLICATION_META_CLASS,
  TRANSPOSE_META,
} from "./meta-ctrl.js";
export { UDMA_RX, UDMA_TX, UDMA_TX_META } from "./udma.js";

/** Every layout, in the order `sdmakit layouts` lists them. */
export const LAYOUTS: readonly Layout[] = [
  FMA_META,
  MIN_MAX_META,
  ADD_META,
  GCE_META,
  EXT_META,
  TRANSPOSE_META,
  REPLICATION_META,
  COPY_META,
  FMA_DESC,
  MIN_MAX_DESC,
  SEED_INIT_DESC,
  REPLICATION_DESC,
  TRANSPOSE_DESC,
  GRADIENT_DESC,
  UDMA_TX,
  UDMA_TX_META,
  UDMA_RX,
  CCE_INFO,
  S3D3,
  TENSOR3D,
  HEADER,
  EVENTS,
  ADDR4,
  PSEUDO_ADDR8_TENSOR2D,
  EMBEDDED_SEM,
  EMBEDDED_SEM_W1,
  GCE_HEADER,
];

const BY_NAME = new Map(LAYOUTS.map((l) => [l.name, l]));

/** The layout of a name, or undefined. */
export function layoutByName(name: string): Layout | undefined {
  return BY_NAME.get(name);
}
