import type { Layout } from "../../bits/index.js";
import { GCE_HEADER } from "../gce-header.js";
import { CAYMAN_TRANSPOSE_CTRL } from "./cayman-transpose.js";
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
  REPLICATION_META_CLASS,
  TRANSPOSE_META,
} from "./meta-ctrl.js";
import { UDMA_RX, UDMA_TX, UDMA_TX_META } from "./udma.js";

export {
  ADD_META,
  ADDR4,
  CAYMAN_TRANSPOSE_CTRL,
  CCE_INFO,
  COPY_META,
  EMBEDDED_SEM,
  EMBEDDED_SEM_W1,
  EVENTS,
  EXT_META,
  FMA_DESC,
  FMA_META,
  GCE_META,
  GRADIENT_DESC,
  HEADER,
  MIN_MAX_DESC,
  MIN_MAX_META,
  PSEUDO_ADDR8_TENSOR2D,
  REPLICATION_DESC,
  REPLICATION_META,
  REPLICATION_META_CLASS,
  S3D3,
  SEED_INIT_DESC,
  TENSOR3D,
  TRANSPOSE_DESC,
  TRANSPOSE_META,
  UDMA_RX,
  UDMA_TX,
  UDMA_TX_META,
};

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
  CAYMAN_TRANSPOSE_CTRL,
  GCE_HEADER,
];

const BY_NAME = new Map(LAYOUTS.map((l) => [l.name, l]));

/** The layout of a name, or undefined. */
export function layoutByName(name: string): Layout | undefined {
  return BY_NAME.get(name);
}
