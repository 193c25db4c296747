import type * as tf from '@tensorflow/tfjs';
import { type BackendInternals, USAGE, poolKey } from '../backendInternals.ts';

/**
 * Records what the GPU is asked to do while tfjs runs a function: every compute dispatch (pipeline, bind
 * group, workgroups) and buffer copy in order, the bind groups' entries, the bytes written into uniform
 * buffers and uploaded into tensors, and every buffer taken from tfjs's pool. The function really runs:
 * a recorded step is a normal step. What a replay needs (capture.ts's buildCapture) and what tells two recordings
 * apart (tapeRoles.ts's signature) both come from this.
 *
 * Two rules hold while recording, so that the tape can be replayed as one command buffer:
 * - uniform buffers and upload targets are fresh and never reused within the recording, so each holds one
 *   content for the whole step (tfjs would otherwise rewrite a pooled uniform buffer between submits);
 * - every other buffer may be reused, in the recorded order, as tfjs's pool hands it out.
 * It goes through instance properties only (the backend's, the device's and the encoders' own), so it
 * works the same over Chromium's WebGPU and Dawn's for Node, and the bench's prototype counters still see
 * every call.
 */
export type TapeOp =
  | { kind: 'dispatch'; pipeline: GPUComputePipeline; bindGroup: GPUBindGroup; x: number; y: number; z: number }
  | { kind: 'copy'; src: GPUBuffer; srcOffset: number; dst: GPUBuffer; dstOffset: number; size: number };

export interface BoundBuffer {
  binding: number;
  buffer: GPUBuffer;
  offset: number;
  /** Bytes bound; undefined: the whole buffer. */
  size: number | undefined;
}

export interface Recording {
  ops: TapeOp[];
  /** Each bind group's layout and buffers, by binding. */
  bindGroups: Map<GPUBindGroup, { layout: GPUBindGroupLayout; entries: BoundBuffer[] }>;
  /** Bytes written into each uniform buffer (fresh ones, one content each). */
  uniforms: Map<GPUBuffer, Uint8Array>;
  /** Bytes uploaded into each tensor's fresh buffer (the step's inputs and its constants). */
  uploads: Map<GPUBuffer, Uint8Array>;
  /** Every buffer taken from the pool (or made) while recording, in order. */
  acquired: Set<GPUBuffer>;
  /** Fresh buffers (uniforms, upload targets) released while recording: kept out of the pool until the end. */
  held: Set<GPUBuffer>;
  /** Why the tape cannot be replayed (a read-back, a write it cannot repeat), or null. */
  failure: string | null;
}

/** A recording under way: `stopTape()` ends the ops (the rest is the caller's own work), `finish()` restores tfjs. */
export interface Recorder {
  readonly rec: Recording;
  stopTape(): void;
  finish(): void;
}

type Fn = (...args: never[]) => unknown;

/** Sets an own property of `obj` for the recording's length; `restore` puts back what was there. */
function patch<T extends object, K extends keyof T>(obj: T, key: K, value: T[K], undo: Array<() => void>): void {
  const own = Object.prototype.hasOwnProperty.call(obj, key);
  const before = obj[key];
  obj[key] = value;
  undo.push(() => {
    if (own) obj[key] = before;
    else delete obj[key];
  });
}

const bytesOf = (values: unknown, dtype: string): Uint8Array => {
  // As tfjs uploads them: int32 and bool as Int32Array, everything else as Float32Array.
  const arr = dtype === 'int32' || dtype === 'bool' ? Int32Array.from(values as ArrayLike<number>) : Float32Array.from(values as ArrayLike<number>);
  return new Uint8Array(arr.buffer);
};

/**
 * Starts recording on backend `b`. tfjs's pending commands are submitted first, so the tape starts on a
 * fresh command encoder whose calls it sees.
 */
export function startRecording(b: BackendInternals): Recorder {
  if (b.commandEncoder) {
    b.endComputePassEncoder();
    b.submitQueue();
  }
  const rec: Recording = { ops: [], bindGroups: new Map(), uniforms: new Map(), uploads: new Map(), acquired: new Set(), held: new Set(), failure: null };
  const undo: Array<() => void> = [];
  let taping = true;
  let fresh = false;
  const fail = (why: string) => (rec.failure ??= why);
  const bm = b.bufferManager;

  const acquire = bm.acquireBuffer;
  patch(
    bm,
    'acquireBuffer',
    (size: number, usage: number, mapped = false, reuse = true) => {
      if (usage & USAGE.MAP_READ) fail('it reads data back');
      const once = fresh || (usage & USAGE.UNIFORM) !== 0;
      const buffer = acquire.call(bm, size, usage, mapped, once ? false : reuse);
      // tfjs makes a size's free list on its first pooled acquire only; its release of this buffer needs one.
      if (!bm.freeBuffers.has(poolKey(size, usage))) bm.freeBuffers.set(poolKey(size, usage), []);
      if (taping && !(usage & USAGE.MAP_WRITE)) {
        rec.acquired.add(buffer);
        if (once) rec.held.add(buffer);
      }
      return buffer;
    },
    undo,
  );
  const release = bm.releaseBuffer;
  patch(
    bm,
    'releaseBuffer',
    (buffer: GPUBuffer, reuse = true) => {
      if (!rec.held.has(buffer)) return release.call(bm, buffer, reuse);
      // Out of use, but not back in the pool: its one content must last the step.
      const used = bm.usedBuffers.get(poolKey(buffer.size, buffer.usage));
      const at = used?.indexOf(buffer) ?? -1;
      if (at >= 0) {
        used!.splice(at, 1);
        bm.numUsedBuffers--;
        bm.numBytesUsed -= buffer.size;
      }
    },
    undo,
  );

  const upload = b.uploadToGPU;
  patch(
    b,
    'uploadToGPU',
    (dataId: unknown) => {
      const d = b.tensorMap.get(dataId);
      if (!d || d.resource != null || d.values == null) return upload.call(b, dataId);
      const bytes = bytesOf(d.values, d.dtype);
      fresh = true;
      try {
        upload.call(b, dataId);
      } finally {
        fresh = false;
      }
      if (taping) rec.uploads.set(d.resource as unknown as GPUBuffer, bytes);
    },
    undo,
  );

  const queue = b.queue;
  const writeBuffer = queue.writeBuffer as Fn;
  patch(
    queue,
    'writeBuffer',
    function (this: GPUQueue, ...args: Parameters<GPUQueue['writeBuffer']>) {
      const [buffer, offset, data, dataOffset = 0, size] = args;
      if (taping) {
        if (!(buffer.usage & USAGE.UNIFORM) || offset !== 0) fail('it writes into a buffer outside the uniforms');
        else {
          const view = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data as ArrayBuffer);
          const elt = ArrayBuffer.isView(data) ? ((data as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1) : 1;
          const start = dataOffset * elt;
          rec.uniforms.set(buffer, view.slice(start, size === undefined ? undefined : start + size * elt));
        }
      }
      return (writeBuffer as (...a: unknown[]) => unknown).apply(this, args);
    } as GPUQueue['writeBuffer'],
    undo,
  );

  const device = b.device;
  const createBindGroup = device.createBindGroup as Fn;
  patch(
    device,
    'createBindGroup',
    function (this: GPUDevice, desc: GPUBindGroupDescriptor) {
      const group = (createBindGroup as (d: GPUBindGroupDescriptor) => GPUBindGroup).call(this, desc);
      if (taping) {
        const entries: BoundBuffer[] = [];
        for (const e of desc.entries) {
          const r = e.resource as GPUBufferBinding;
          if (!r || typeof r !== 'object' || !('buffer' in r)) fail('it binds something other than a buffer');
          else entries.push({ binding: e.binding, buffer: r.buffer, offset: r.offset ?? 0, size: r.size });
        }
        rec.bindGroups.set(group, { layout: desc.layout, entries });
      }
      return group;
    } as GPUDevice['createBindGroup'],
    undo,
  );

  const createCommandEncoder = device.createCommandEncoder as Fn;
  patch(
    device,
    'createCommandEncoder',
    function (this: GPUDevice, desc?: GPUCommandEncoderDescriptor) {
      const enc = (createCommandEncoder as (d?: GPUCommandEncoderDescriptor) => GPUCommandEncoder).call(this, desc);
      watchEncoder(enc);
      return enc;
    } as GPUDevice['createCommandEncoder'],
    undo,
  );

  function watchEncoder(enc: GPUCommandEncoder) {
    const copy = enc.copyBufferToBuffer as Fn;
    enc.copyBufferToBuffer = function (this: GPUCommandEncoder, ...args: unknown[]) {
      const [src, srcOffset, dst, dstOffset, size] = args as [GPUBuffer, number, GPUBuffer, number, number];
      if (taping) {
        if (dst.usage & USAGE.MAP_READ) fail('it reads data back');
        else if (src.usage & USAGE.MAP_WRITE) fail('it uploads through a staging buffer');
        else rec.ops.push({ kind: 'copy', src, srcOffset, dst, dstOffset, size });
      }
      return (copy as (...a: unknown[]) => unknown).apply(this, args);
    } as GPUCommandEncoder['copyBufferToBuffer'];
    const begin = enc.beginComputePass as Fn;
    enc.beginComputePass = function (this: GPUCommandEncoder, desc?: GPUComputePassDescriptor) {
      const pass = (begin as (d?: GPUComputePassDescriptor) => GPUComputePassEncoder).call(this, desc);
      watchPass(pass);
      return pass;
    } as GPUCommandEncoder['beginComputePass'];
  }

  function watchPass(pass: GPUComputePassEncoder) {
    let pipeline: GPUComputePipeline | null = null;
    let group: GPUBindGroup | null = null;
    const setPipeline = pass.setPipeline as Fn;
    pass.setPipeline = function (this: GPUComputePassEncoder, p: GPUComputePipeline) {
      pipeline = p;
      return (setPipeline as (p: GPUComputePipeline) => void).call(this, p);
    } as GPUComputePassEncoder['setPipeline'];
    const setBindGroup = pass.setBindGroup as Fn;
    pass.setBindGroup = function (this: GPUComputePassEncoder, ...args: unknown[]) {
      if (args[0] !== 0) fail('it uses a bind group other than group 0');
      group = args[1] as GPUBindGroup;
      return (setBindGroup as (...a: unknown[]) => void).apply(this, args);
    } as GPUComputePassEncoder['setBindGroup'];
    const dispatch = pass.dispatchWorkgroups as Fn;
    pass.dispatchWorkgroups = function (this: GPUComputePassEncoder, x: number, y = 1, z = 1) {
      if (taping) {
        if (!pipeline || !group || !rec.bindGroups.has(group)) fail('a dispatch uses a bind group made before the recording');
        else rec.ops.push({ kind: 'dispatch', pipeline, bindGroup: group, x, y, z });
      }
      return (dispatch as (x: number, y: number, z: number) => void).call(this, x, y, z);
    } as GPUComputePassEncoder['dispatchWorkgroups'];
  }

  return {
    rec,
    stopTape: () => {
      taping = false;
    },
    finish: () => {
      // The step's own commands go out, and with them the buffers tfjs frees at a submit.
      if (b.commandEncoder) {
        b.endComputePassEncoder();
        b.submitQueue();
      }
      for (const u of undo.reverse()) u();
    },
  };
}

/** The buffer behind a tensor (uploaded first if its values are still on the CPU). */
export function bufferOf(b: BackendInternals, t: tf.TensorInfo): GPUBuffer {
  b.uploadToGPU(t.dataId);
  return b.tensorMap.get(t.dataId)!.resource as GPUBuffer;
}
