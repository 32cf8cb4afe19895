/**
 * One CCE reduce run the way the device runs it: the runtime builds the packet
 * (add_dma_packet_cce) on engine 0 queue 0 of a fresh simulated device, the engine drains the ring,
 * and the destination's codes are read back. Shared by the `numerics` set (element by element) and
 * the `engine` set (the ring bytes and memory around it).
 */
import { f32FromBits, isEinval, lookupOwn, SdmaAssertError } from "../bits/index.js";
import { Device, HBM_BASE } from "../engine/index.js";
import { OVERFLOW_POLICIES, type OverflowPolicy } from "../numerics/index.js";
import { addDmaPacketCce, type CceInfo, fmaInfo, minMaxConstant, Vring } from "../runtime/index.js";
import { CCE_OP_BY_NAME, type Dtype, dtypeBytes, dtypeFromName, KbinDmaDescOp } from "../spec/index.js";
import { bytesToCodes, codesToBytes } from "./codes.js";
import type { Json } from "./vector-set.js";

/** A CCE case's input, as the vector files hold it. */
export interface CceCase {
  readonly arch: string;
  readonly op: "add" | "fma" | "min" | "max";
  readonly inDtype: string;
  readonly accumDtype: string;
  readonly outDtype: string;
  readonly overflow: OverflowPolicy;
  /** Stochastic rounding with this seed (absent: RNE). */
  readonly srSeed?: number;
  /** FMA: one binary32 scale per source, as `0x%08x` bits. */
  readonly scales?: readonly string[];
  /** MIN / MAX: the fp32 clamp constant's bits. */
  readonly constant?: string;
  /** Each source's element codes. */
  readonly sources: readonly (readonly string[])[];
}

/** MODEL placement: rings at HBM_BASE, sources 64 KiB apart after them, then the destination. */
export const CCE_TX_RING = HBM_BASE;
export const CCE_RX_RING = HBM_BASE + 0x1000n;
export const CCE_SOURCES = HBM_BASE + 0x10000n;
export const CCE_SOURCE_STRIDE = 0x10000n;
const RING_SLOTS = 256;

function dtypeOf(name: string): Dtype {
  const dt = dtypeFromName(name);
  if (dt === undefined) throw new TypeError(`unknown dtype ${JSON.stringify(name)}`);
  return dt;
}

function cceInfoOf(c: CceCase, op: number): CceInfo | null {
  const counts = { num_sources: c.sources.length, num_dests: 1 };
  if (op === KbinDmaDescOp.FMA && c.scales)
    return { ...counts, ...fmaInfo(c.scales.map((s) => f32FromBits(Number(s)))) };
  if (c.constant !== undefined) return { ...counts, ...minMaxConstant(Number(c.constant)) };
  return null;
}

/**
 * One device per (arch, overflow policy), reused: a device costs ~5 ms to make (its memory map and
 * kernel arena) and a CCE run ~0.1 ms. Reuse cannot carry state from one case to the next: the
 * vring reprograms the queue's ring base (which resets the ring), SR reseeds from the packet's
 * seed-init descriptor, and every byte a case reads is written by the case.
 */
const DEVICES = new Map<string, Device>();
function deviceFor(arch: string, overflow: OverflowPolicy): Device {
  const key = `${arch}/${overflow}`;
  let device = DEVICES.get(key);
  if (device === undefined) {
    device = new Device(arch, { overflow, keepEvents: false });
    DEVICES.set(key, device);
  }
  return device;
}

/** Engine 0 queue 0's rings on `device` at the MODEL placement; SR on when a seed is given. */
export function queueVring(device: Device, srSeed?: number): Vring {
  return new Vring({
    profile: device.profile,
    memory: device.memory,
    registers: device.regs,
    engine: 0,
    queue: 0,
    txBase: CCE_TX_RING,
    rxBase: CCE_RX_RING,
    slots: RING_SLOTS,
    stochasticRounding: srSeed !== undefined,
    srSeed: srSeed ?? 0,
  });
}

/** A device with the case's sources in HBM and its packet written on the rings (or the refusal). */
export function postCce(
  c: CceCase,
  device: Device = deviceFor(c.arch, c.overflow),
): { device: Device; dest: bigint; elements: number; size: number; outBytes: number } | { refused: string } {
  if (!OVERFLOW_POLICIES.includes(c.overflow))
    throw new TypeError(`unknown overflow ${JSON.stringify(c.overflow)}`);
  const op = lookupOwn<number>(CCE_OP_BY_NAME, c.op);
  if (op === undefined) throw new TypeError(`unknown op ${JSON.stringify(c.op)}`);
  const inDtype = dtypeOf(c.inDtype);
  const sources = c.sources.map((s) => codesToBytes(inDtype, s));
  const size = sources[0]?.length ?? 0;
  const addrs = sources.map((_, i) => CCE_SOURCES + BigInt(i) * CCE_SOURCE_STRIDE);
  for (const [i, s] of sources.entries()) device.memory.write(addrs[i] as bigint, s);
  const dest = CCE_SOURCES + BigInt(sources.length) * CCE_SOURCE_STRIDE;
  const vring = queueVring(device, c.srSeed);
  const request = {
    op,
    sources: addrs,
    dests: [dest],
    size,
    inDtype,
    accumDtype: dtypeOf(c.accumDtype),
    outDtype: dtypeOf(c.outDtype),
    cceInfo: cceInfoOf(c, op),
  };
  let written: ReturnType<typeof addDmaPacketCce>;
  try {
    written = addDmaPacketCce(vring, request);
  } catch (e) {
    if (!(e instanceof SdmaAssertError)) throw e;
    return { refused: e.message };
  }
  if (isEinval(written)) return { refused: `-EINVAL: ${written.message}` };
  const elements = size / Math.max(1, dtypeBytes(inDtype));
  return { device, dest, elements, size, outBytes: elements * dtypeBytes(request.outDtype) };
}

/** The destination codes of a CCE case, or what refused or faulted. */
export function runCce(c: CceCase): Json {
  const posted = postCce(c);
  if ("refused" in posted) return { refused: posted.refused };
  const { device, dest, outBytes } = posted;
  const report = device.run();
  if (report.faults.length > 0) return { fault: report.faults.map((f) => f.message) };
  return { destination: bytesToCodes(dtypeOf(c.outDtype), device.memory.read(dest, outBytes)) };
}
