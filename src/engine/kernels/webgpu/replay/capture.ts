import * as tf from '@tensorflow/tfjs';
import { type BackendInternals, poolKey } from '../backendInternals.ts';
import type { ReplayArena } from './arena.ts';
import type { Recording } from './recorder.ts';
import type { TapeRoles } from './tapeRoles.ts';

/**
 * A recorded step made replayable: the same dispatches and copies, re-bound onto the arena's buffers
 * (temps, inputs, outputs), the recording's own uniform and constant buffers kept, the weights and
 * moments (externals) bound where they live. A replay writes the inputs with one writeBuffer, encodes
 * the ops into tfjs's command encoder and submits once: no buffer, bind group or uniform write of its own.
 */
type ReplayOp =
  | { kind: 'dispatch'; pipeline: GPUComputePipeline; bindGroup: GPUBindGroup; x: number; y: number; z: number }
  | { kind: 'copy'; src: GPUBuffer; srcOffset: number; dst: GPUBuffer; dstOffset: number; size: number };

export interface OutputSpec {
  shape: number[];
  dtype: tf.DataType;
  bytes: number;
}

export interface Capture {
  ops: ReplayOp[];
  /** Where each input goes, and its bytes' offset in the staged inputs. */
  inputs: Array<{ buffer: GPUBuffer; offset: number; bytes: number }>;
  stagedBytes: number;
  outputs: Array<OutputSpec & { buffer: GPUBuffer }>;
  externals: Array<{ tensor: tf.Tensor; buffer: GPUBuffer }>;
  /** The recording's uniform and constant buffers, owned from now on. */
  kept: GPUBuffer[];
  /** The arena's buffers this capture leases. */
  leased: GPUBuffer[];
  keptBytes: number;
  /** Dispatches per replay. */
  dispatches: number;
  /** The inputs of its last replay (the profiler runs its kernels on them: kernels whose loops follow an input need real ones). */
  lastInputs: ReadonlyArray<ArrayBufferView> | null;
}

/** The byte layout of staged inputs: each input 4-byte aligned (copyBufferToBuffer's rule). */
export function stagedLayout(sizes: readonly number[]): { offsets: number[]; total: number } {
  let total = 0;
  const offsets = sizes.map((s) => {
    const at = total;
    total += Math.ceil(s / 4) * 4;
    return at;
  });
  return { offsets, total };
}

export function buildCapture(
  b: BackendInternals,
  rec: Recording,
  roles: TapeRoles,
  io: { inputs: GPUBuffer[]; outputs: Array<OutputSpec & { buffer: GPUBuffer }>; externals: Array<{ tensor: tf.Tensor; buffer: GPUBuffer }> },
  arena: ReplayArena,
): Capture {
  const moved = [...io.inputs, ...roles.temps.filter((t) => !io.inputs.includes(t))];
  const leased = arena.lease(moved.map((m) => ({ size: m.size, usage: m.usage })));
  const to = new Map(moved.map((m, i) => [m, leased[i]]));
  const map = (buffer: GPUBuffer) => to.get(buffer) ?? buffer;
  const groups = new Map<GPUBindGroup, GPUBindGroup>();
  const ops: ReplayOp[] = rec.ops.map((op) => {
    if (op.kind === 'copy') return { ...op, src: map(op.src), dst: map(op.dst) };
    let group = groups.get(op.bindGroup);
    if (!group) {
      const { layout, entries } = rec.bindGroups.get(op.bindGroup)!;
      group = b.device.createBindGroup({
        layout,
        entries: entries.map((e) => ({ binding: e.binding, resource: { buffer: map(e.buffer), offset: e.offset, size: e.size ?? e.buffer.size - e.offset } })),
      });
      groups.set(op.bindGroup, group);
    }
    return { ...op, bindGroup: group };
  });
  const kept = [...roles.roles].filter(([, r]) => r.kind === 'uniform' || r.kind === 'constant').map(([buffer]) => buffer);
  const layout = stagedLayout(io.inputs.map((i) => i.size));
  return {
    ops,
    inputs: io.inputs.map((buffer, i) => ({ buffer: map(buffer), offset: layout.offsets[i], bytes: buffer.size })),
    stagedBytes: layout.total,
    outputs: io.outputs.map((o) => ({ ...o, buffer: map(o.buffer) })),
    externals: io.externals,
    kept,
    leased,
    keptBytes: kept.reduce((n, k) => n + k.size, 0),
    dispatches: ops.filter((o) => o.kind === 'dispatch').length,
    lastInputs: null,
  };
}

/**
 * Hands the recording's held buffers (fresh uniforms and upload targets, kept out of the pool while it
 * lasted) to the capture where it keeps them, and back to tfjs's pool otherwise. One still in use (a
 * tensor first uploaded in the step that outlives it, such as a weight used for the first time) stays
 * its tensor's: tfjs releases it when that tensor goes.
 */
export function settleHeld(b: BackendInternals, rec: Recording, keep: ReadonlySet<GPUBuffer>): void {
  const bm = b.bufferManager;
  for (const buffer of rec.held) {
    if (bm.usedBuffers.get(poolKey(buffer.size, buffer.usage))?.includes(buffer)) continue;
    if (keep.has(buffer)) {
      bm.numBytesAllocated -= buffer.size;
      continue;
    }
    const key = poolKey(buffer.size, buffer.usage);
    if (!bm.freeBuffers.has(key)) bm.freeBuffers.set(key, []);
    bm.freeBuffers.get(key)!.push(buffer);
    bm.numFreeBuffers++;
  }
}

/** Copies of `outputs` into fresh tensors from tfjs's pool, encoded into its command encoder. */
export function copyOutputs(b: BackendInternals, outputs: ReadonlyArray<OutputSpec & { buffer: GPUBuffer }>): tf.Tensor[] {
  b.ensureCommandEncoderReady();
  b.endComputePassEncoder();
  return outputs.map((o) => {
    const info = b.makeTensorInfo(o.shape, o.dtype);
    b.uploadToGPU(info.dataId);
    b.commandEncoder!.copyBufferToBuffer(o.buffer, 0, b.tensorMap.get(info.dataId)!.resource as GPUBuffer, 0, o.bytes);
    b.commandQueueOwnedIds.add(info.dataId as object);
    return tf.engine().makeTensorFromTensorInfo(info);
  });
}

/** Writes `inputs` into the arena's staging buffer (one writeBuffer) and encodes their copies into the capture's input buffers. */
export function stageInputs(
  b: BackendInternals,
  cap: Capture,
  arena: ReplayArena,
  inputs: ReadonlyArray<ArrayBufferView>,
  scratch: Uint8Array,
  enc: GPUCommandEncoder,
): void {
  inputs.forEach((data, i) => {
    const spot = cap.inputs[i];
    if (data.byteLength !== spot.bytes) throw new Error(`replay: input ${i} has ${data.byteLength} bytes, ${spot.bytes} recorded`);
    scratch.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), spot.offset);
  });
  const staging = arena.stagingFor(cap.stagedBytes);
  b.queue.writeBuffer(staging, 0, scratch, 0, cap.stagedBytes);
  for (const spot of cap.inputs) enc.copyBufferToBuffer(staging, spot.offset, spot.buffer, 0, spot.bytes);
  cap.lastInputs = inputs;
}

/**
 * Replays `cap` with new input bytes (one array per input, as recorded) and returns copies of its
 * outputs; null when an external tensor is gone or lives elsewhere now (the capture is stale).
 */
export function replayCapture(
  b: BackendInternals,
  cap: Capture,
  arena: ReplayArena,
  inputs: ReadonlyArray<ArrayBufferView>,
  scratch: Uint8Array,
): tf.Tensor[] | null {
  for (const e of cap.externals) {
    if (e.tensor.isDisposed || b.tensorMap.get(e.tensor.dataId)?.resource !== e.buffer) return null;
  }
  if (inputs.length !== cap.inputs.length) throw new Error(`replay: ${inputs.length} inputs given, ${cap.inputs.length} recorded`);
  b.ensureCommandEncoderReady();
  b.endComputePassEncoder();
  const enc = b.commandEncoder!;
  stageInputs(b, cap, arena, inputs, scratch, enc);
  let pass: GPUComputePassEncoder | null = null;
  for (const op of cap.ops) {
    if (op.kind === 'dispatch') {
      pass ??= enc.beginComputePass();
      pass.setPipeline(op.pipeline);
      pass.setBindGroup(0, op.bindGroup);
      pass.dispatchWorkgroups(op.x, op.y, op.z);
    } else {
      pass?.end();
      pass = null;
      enc.copyBufferToBuffer(op.src, op.srcOffset, op.dst, op.dstOffset, op.size);
    }
  }
  pass?.end();
  const out = copyOutputs(b, cap.outputs);
  // Weights written in place: a copy tfjs keeps on the CPU after a read is stale now.
  for (const e of cap.externals) b.tensorMap.get(e.tensor.dataId)!.values = null;
  b.submitQueue();
  return out;
}
